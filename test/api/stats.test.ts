import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS, endpointForPath, fillPath } from '../../src/api/endpoints.js';
import { smallerPageSize } from '../../src/api/paginate.js';
import { StatsRecorder, routeTemplate } from '../../src/api/stats.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const UUID = '372e6795-3f7b-4d4a-9b8a-5c2f2a1e9e10';

describe('routeTemplate', () => {
  it.each<[string, string]>([
    [`/zones/${ZONE}/dns_records`, '/zones/{id}/dns_records'],
    [`/zones/${ZONE}/dns_records?page=2&per_page=100`, '/zones/{id}/dns_records'],
    [`/zones/${ZONE.toUpperCase()}/filters`, '/zones/{id}/filters'],
    [`/zones/${ZONE}/firewall/rules/${UUID}`, '/zones/{id}/firewall/rules/{id}'],
    ['/accounts/12345/members', '/accounts/{id}/members'],
    // 16 hex characters is the shortest id folded; 15 are kept.
    ['/x/0123456789abcdef', '/x/{id}'],
    ['/x/0123456789abcde', '/x/0123456789abcde'],
    ['/zones', '/zones'],
    ['/user/tokens/verify', '/user/tokens/verify'],
    // Words that happen to be hex letters are not ids.
    ['/zones/{id}/ssl/certificate_packs', '/zones/{id}/ssl/certificate_packs'],
    ['/accounts/cafe/zones', '/accounts/cafe/zones'],
    ['/zones/abc-123/x', '/zones/abc-123/x'],
    ['', ''],
  ])('%s -> %s', (path, template) => {
    expect(routeTemplate(path)).toBe(template);
  });
});

describe('StatsRecorder', () => {
  it('sums counters per route and in total', () => {
    const s = new StatsRecorder();
    s.add('/zones', { requests: 1, bytes: 100 });
    s.add('/zones', { requests: 1, retries: 1, bytes: 50 });
    s.add('/accounts', { requests: 1, rateLimited: 1, failures: 1 });
    expect(s.snapshot(1234)).toEqual({
      total: { requests: 3, retries: 1, rateLimited: 1, failures: 1, bytes: 150 },
      byRoute: {
        '/accounts': { requests: 1, retries: 0, rateLimited: 1, failures: 1, bytes: 0 },
        '/zones': { requests: 2, retries: 1, rateLimited: 0, failures: 0, bytes: 150 },
      },
      pacedMs: 1234,
    });
  });

  it('lists routes in sorted order, whatever order they were first seen', () => {
    const s = new StatsRecorder();
    for (const r of ['/zones/{id}/filters', '/accounts', '/zones', '/zones/{id}/dns_records']) s.add(r, { requests: 1 });
    expect(Object.keys(s.snapshot(0).byRoute)).toEqual(['/accounts', '/zones', '/zones/{id}/dns_records', '/zones/{id}/filters']);
  });

  it('starts at zero and records a route even for an empty delta', () => {
    const s = new StatsRecorder();
    expect(s.snapshot(0)).toEqual({ total: { requests: 0, retries: 0, rateLimited: 0, failures: 0, bytes: 0 }, byRoute: {}, pacedMs: 0 });
    s.add('/zones', {});
    expect(s.snapshot(0).byRoute).toEqual({ '/zones': { requests: 0, retries: 0, rateLimited: 0, failures: 0, bytes: 0 } });
  });

  it('gives snapshots that later traffic and edits do not change', () => {
    const s = new StatsRecorder();
    s.add('/zones', { requests: 1 });
    const snap = s.snapshot(0);
    s.add('/zones', { requests: 5 });
    expect(snap.total.requests).toBe(1);
    expect(snap.byRoute['/zones']!.requests).toBe(1);
    snap.total.requests = 99;
    snap.byRoute['/zones']!.requests = 99;
    const again = s.snapshot(0);
    expect(again.total.requests).toBe(6);
    expect(again.byRoute['/zones']!.requests).toBe(6);
  });
});

describe('smallerPageSize', () => {
  it.each<[number, number, number]>([
    [5_000_000, 1, 500_000],
    [500_000, 1, 50_000],
    [100, 5, 10],
    [100, 1, 10],
    [50, 5, 5],
    [1000, 1, 100],
    // 30: 3 is the largest divisor at most 3.
    [30, 1, 3],
    // 120: 12 is at most 12 and divides it.
    [120, 1, 12],
    // 99: 9 is the largest divisor at most 9.9.
    [99, 1, 9],
    // 7 has no divisor at most 0.7: the minimum.
    [7, 1, 1],
    [10, 5, 5],
  ])('%i with min %i -> %i', (n, min, expected) => {
    const size = smallerPageSize(n, min);
    expect(size).toBe(expected);
    expect(size).toBeGreaterThanOrEqual(min);
    expect(n % size).toBe(0);
  });

  it('never goes below the minimum, even when a smaller divisor would fit', () => {
    // 100/10 = 10 does not fit min 20: the minimum is returned.
    expect(smallerPageSize(100, 20)).toBe(20);
  });

  it('divides n and stays at most n/10 for every size the list endpoints can shrink through', () => {
    for (const e of Object.values(LIST_ENDPOINTS)) {
      let n: number = e.maxPerPage;
      const seen: number[] = [];
      while (n > e.minPerPage) {
        const next = smallerPageSize(n, e.minPerPage);
        expect(n % next, `${e.template}: ${n} -> ${next}`).toBe(0);
        expect(next).toBeLessThanOrEqual(Math.max(e.minPerPage, n / 10));
        expect(next).toBeGreaterThanOrEqual(e.minPerPage);
        seen.push(next);
        n = next;
      }
      expect(n).toBe(e.minPerPage);
      if (e.template.endsWith('/dns_records')) expect(seen).toEqual([500_000, 50_000, 5000, 500, 50, 5, 1]);
    }
  });
});

describe('fillPath', () => {
  it('fills each placeholder', () => {
    expect(fillPath(LIST_ENDPOINTS.wafRules.template, { zone_id: ZONE, package_id: 'a25a9a7e9c00afc1fb2e0245519d725b' })).toBe(
      `/zones/${ZONE}/firewall/waf/packages/a25a9a7e9c00afc1fb2e0245519d725b/rules`,
    );
  });

  it('encodes values, so an id cannot add path segments or a query', () => {
    expect(fillPath('/zones/{zone_id}/filters', { zone_id: '../accounts?x=1#y' })).toBe('/zones/..%2Faccounts%3Fx%3D1%23y/filters');
  });

  it('ignores extra parameters and leaves templates without placeholders alone', () => {
    expect(fillPath('/zones', { zone_id: ZONE })).toBe('/zones');
  });

  it('throws naming the template and the missing parameter', () => {
    expect(() => fillPath('/zones/{zone_id}/firewall/waf/packages/{package_id}/groups', { zone_id: ZONE })).toThrow(
      'path /zones/{zone_id}/firewall/waf/packages/{package_id}/groups needs package_id',
    );
  });

  it('fills an empty value as an empty segment (only undefined is missing)', () => {
    expect(fillPath('/zones/{zone_id}/filters', { zone_id: '' })).toBe('/zones//filters');
  });
});

describe('endpointForPath', () => {
  it.each<[string, (typeof LIST_ENDPOINTS)[keyof typeof LIST_ENDPOINTS]]>([
    ['/accounts', LIST_ENDPOINTS.accounts],
    ['/zones', LIST_ENDPOINTS.zones],
    ['/zones/', LIST_ENDPOINTS.zones],
    ['/zones?page=3&per_page=20', LIST_ENDPOINTS.zones],
    ['zones', LIST_ENDPOINTS.zones],
    [`/zones/${ZONE}/dns_records`, LIST_ENDPOINTS.dnsRecords],
    [`/zones/${ZONE}/dns_records?type=A`, LIST_ENDPOINTS.dnsRecords],
    [`/zones/${ZONE}/ssl/certificate_packs`, LIST_ENDPOINTS.certificatePacks],
    [`/zones/${ZONE}/firewall/rules`, LIST_ENDPOINTS.firewallRules],
    [`/zones/${ZONE}/filters`, LIST_ENDPOINTS.filters],
    [`/zones/${ZONE}/firewall/waf/packages`, LIST_ENDPOINTS.wafPackages],
    [`/zones/${ZONE}/firewall/waf/packages/pkg1/groups`, LIST_ENDPOINTS.wafGroups],
    [`/zones/${ZONE}/firewall/waf/packages/pkg1/rules`, LIST_ENDPOINTS.wafRules],
    [`/zones/${ZONE}/firewall/waf/overrides`, LIST_ENDPOINTS.wafOverrides],
  ])('%s is a known list', (path, endpoint) => {
    expect(endpointForPath(path)).toBe(endpoint);
  });

  it('carries the endpoint limits and query', () => {
    expect(endpointForPath(`/zones/${ZONE}/ssl/certificate_packs`)).toEqual({
      template: '/zones/{zone_id}/ssl/certificate_packs',
      maxPerPage: 50,
      minPerPage: 5,
      // spec: Endpoints (ssl_status, value all); docs/api-surface.md, answers beyond the spec: the current API reads status=all.
      query: { status: 'all', ssl_status: 'all' },
    });
    expect(endpointForPath(`/zones/${ZONE}/dns_records`)).toMatchObject({ maxPerPage: 5_000_000, minPerPage: 1 });
  });

  it.each([
    ['/'],
    [''],
    [`/zones/${ZONE}`],
    [`/zones/${ZONE}/dns_records/rec1`],
    [`/zones/${ZONE}/firewall`],
    ['/user/tokens/verify'],
    ['/zone'],
    [`/accounts/${ZONE}/zones`],
  ])('%j is not a known list', (path) => {
    expect(endpointForPath(path)).toBeUndefined();
  });
});
