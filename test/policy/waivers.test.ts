import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/policy/findings.js';
import { applyWaivers, loadWaivers, parseWaivers, WaiverError } from '../../src/policy/waivers.js';
import { thrownBy } from '../support/errors.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');
const RULES = ['certificate-expiry', 'dns-private-address', 'dns-origin-exposed', 'zone-not-active'];

function finding(rule: string, zone: string, resource: { type: string; id: string; name: string | null }, status: Finding['status'] = 'fail'): Finding {
  return {
    rule,
    category: 'dns',
    severity: 'medium',
    status,
    account: null,
    zone: { id: `id-${zone}`, name: zone },
    resource,
    message: 'm',
    messageId: status === 'fail' ? 'm' : null,
    data: {},
    fingerprint: `${rule}/${zone}/${resource.id}`,
  };
}

const yaml = (text: string) => parseWaivers(text, 'w.yaml', RULES, 'yaml');

describe('waivers file', () => {
  it('reads YAML lists and JSON objects with a waivers list', () => {
    const fromYaml = yaml(`
- rule: dns-*
  zone: "*.example.com"
  reason: lab addresses, by design
  owner: net-team
  expires: 2027-01-31
`);
    expect(fromYaml).toEqual([
      expect.objectContaining({ index: 1, rule: 'dns-*', zone: '*.example.com', resource: null, expires: '2027-01-31', expiresAt: new Date('2027-02-01T00:00:00Z') }),
    ]);
    const fromJson = parseWaivers(
      JSON.stringify({ waivers: [{ rule: 'zone-not-active', resource: 'abc', reason: 'r', owner: 'o', expires: '2026-12-01T08:00:00Z' }] }),
      'w.json',
      RULES,
      'json',
    );
    expect(fromJson[0]?.expiresAt).toEqual(new Date('2026-12-01T08:00:00Z'));
    expect(yaml('')).toEqual([]);
  });

  it('loads by extension and names the file when it cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-waivers-'));
    writeFileSync(join(dir, 'w.json'), '[{"rule": "zone-*", "zone": "a", "reason": "r", "owner": "o", "expires": "2027-01-01"}]');
    expect(loadWaivers(join(dir, 'w.json'), RULES)).toHaveLength(1);
    expect(thrownBy(() => loadWaivers(join(dir, 'missing.yaml'), RULES), WaiverError).message).toBe(`waivers file ${join(dir, 'missing.yaml')}: cannot read it (ENOENT)`);
  });

  it.each([
    ['rule: x', 'expected a list of waivers, or an object with a "waivers" list'],
    ['- just a string', 'waiver 1: expected an object with rule, zone, resource, reason, owner, expires'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o}', 'waiver 1: "expires" is required'],
    ['- {zone: a, reason: r, owner: o, expires: 2027-01-01}', 'waiver 1: "rule" is required'],
    ['- {rule: zone-not-active, reason: r, owner: o, expires: 2027-01-01}', 'give "zone" or "resource"'],
    ['- {rule: zone-not-active, zone: a, reason: "", owner: o, expires: 2027-01-01}', '"reason" must be a non-empty string'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2027-02-30}', '"expires" must be a date like 2027-01-31'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: next week}', '"expires" must be a date'],
    ['- {rule: zone-not-actve, zone: a, reason: r, owner: o, expires: 2027-01-01}', 'rule "zone-not-actve" matches no rule; zonewarden rules lists them'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2027-01-01, until: x}', 'unknown key "until"'],
    ['- {rule: a, rule: b}', 'not valid YAML'],
    ['- [unclosed', 'not valid YAML'],
  ])('refuses %s', (text, message) => {
    const err = thrownBy(() => yaml(text), WaiverError);
    expect(err.message).toContain(message);
    expect(err.message).toMatch(/^waivers file w\.yaml: /);
    expect(err.message).not.toContain('\n');
  });
});

describe('applying waivers', () => {
  const findings = [
    finding('dns-private-address', 'lab.example.com', { type: 'dns_record', id: 'r1', name: 'db.lab.example.com' }),
    finding('dns-origin-exposed', 'lab.example.com', { type: 'dns_record', id: 'r2', name: 'direct.lab.example.com' }),
    finding('certificate-expiry', 'shop.example.org', { type: 'certificate', id: 'c1', name: 'shop.example.org' }),
    finding('zone-not-active', 'shop.example.org', { type: 'zone', id: 'id-shop.example.org', name: 'shop.example.org' }, 'unknown'),
    finding('zone-not-active', 'lab.example.com', { type: 'zone', id: 'id-lab.example.com', name: 'lab.example.com' }, 'pass'),
  ];

  it('waives failures matched by rule and zone globs, resource names or ids; never unknowns or passes', () => {
    const waivers = yaml(`
- {rule: "dns-*", zone: "*.EXAMPLE.com", reason: lab, owner: net, expires: 2027-01-31}
- {rule: certificate-expiry, resource: c1, reason: renewing, owner: web, expires: 2027-01-31}
- {rule: zone-not-active, zone: "*", reason: all, owner: ops, expires: 2027-01-31}
`);
    const { findings: out, report } = applyWaivers(findings, waivers, NOW);
    expect(out.map((f) => f.status)).toEqual(['waived', 'waived', 'waived', 'unknown', 'pass']);
    expect(out[0]?.waiver).toEqual({ reason: 'lab', owner: 'net', expires: '2027-01-31', index: 1 });
    expect(out[2]?.waiver?.index).toBe(2);
    expect(report.unused.map((w) => w.index)).toEqual([3]);
    expect(report.active.map((w) => [w.index, w.matched])).toEqual([
      [1, 2],
      [2, 1],
      [3, 0],
    ]);
    expect(findings[0]?.status).toBe('fail');
  });

  it('needs zone and resource both to match when both are given', () => {
    const waivers = yaml('- {rule: "*", zone: lab.example.com, resource: "db.*", reason: r, owner: o, expires: 2027-01-31}');
    expect(applyWaivers(findings, waivers, NOW).findings.map((f) => f.status)).toEqual(['waived', 'fail', 'fail', 'unknown', 'pass']);
  });

  it('stops applying an expired waiver and reports it with what it would have covered', () => {
    const waivers = yaml(`
- {rule: certificate-expiry, zone: shop.example.org, reason: old, owner: web, expires: 2026-10-31}
- {rule: dns-private-address, zone: lab.example.com, reason: soon, owner: net, expires: 2026-11-14}
- {rule: dns-origin-exposed, zone: lab.example.com, reason: later, owner: net, expires: 2026-11-15}
`);
    const { findings: out, report } = applyWaivers(findings, waivers, NOW);
    expect(out.map((f) => f.status)).toEqual(['waived', 'waived', 'fail', 'unknown', 'pass']);
    expect(report.expired).toEqual([expect.objectContaining({ index: 1, matched: 1, daysLeft: -1 })]);
    // 2026-11-14 runs through that day: 13.5 days from the scan, inside the 14-day notice; 11-15 is 14.5.
    expect(report.expiring.map((w) => [w.index, w.daysLeft])).toEqual([[2, 13]]);
  });

  it('ends a dated waiver at the end of that day (UTC) and a timed one at its instant', () => {
    const dated = yaml('- {rule: certificate-expiry, zone: "*", reason: r, owner: o, expires: 2026-11-01}');
    expect(applyWaivers(findings, dated, NOW).findings[2]?.status).toBe('waived');
    expect(applyWaivers(findings, dated, new Date('2026-11-02T00:00:00Z')).findings[2]?.status).toBe('fail');
    const timed = yaml('- {rule: certificate-expiry, zone: "*", reason: r, owner: o, expires: "2026-11-01T12:00:00Z"}');
    expect(applyWaivers(findings, timed, NOW).findings[2]?.status).toBe('fail');
    expect(applyWaivers(findings, timed, new Date(NOW.getTime() - 1)).findings[2]?.status).toBe('waived');
  });
});
