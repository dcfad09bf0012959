import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveTime } from '../../src/emulator/clock.js';
import { buildOrganisation, DatasetError } from '../../src/emulator/datasets/index.js';
import type { DatasetFile, DatasetZone } from '../../src/emulator/datasets/format.js';
import { generateOrganisation, zipfCounts } from '../../src/emulator/datasets/generated.js';
import { loadDataset } from '../../src/emulator/datasets/load.js';
import { externalExists } from '../../src/emulator/dns/world.js';
import { seededRandom } from '../../src/emulator/http/faults.js';
import { emulatorFor, get, NOW } from '../support/http.js';

function withZone(zone: Partial<DatasetZone>, extra: Partial<DatasetFile> = {}): DatasetFile {
  return { version: 1, accounts: [{ name: 'Acct', type: 'enterprise', zones: [{ name: 'one.example', ...zone }] }], ...extra };
}

function loadError(json: unknown): string {
  try {
    loadDataset(json, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(DatasetError);
    return (err as Error).message;
  }
  throw new Error('expected the dataset to be refused');
}

describe('dataset times', () => {
  it('resolves now, offsets in days, hours, minutes and seconds, and RFC 3339', () => {
    expect(resolveTime('now', NOW)?.toISOString()).toBe('2026-11-01T12:00:00.000Z');
    expect(resolveTime('now-3d', NOW)?.toISOString()).toBe('2026-10-29T12:00:00.000Z');
    expect(resolveTime('now+5d12h', NOW)?.toISOString()).toBe('2026-11-07T00:00:00.000Z');
    expect(resolveTime('now-90m+30s', NOW)?.toISOString()).toBe('2026-11-01T10:30:30.000Z');
    expect(resolveTime('2025-01-02T03:04:05.123456Z', NOW)?.toISOString()).toBe('2025-01-02T03:04:05.123Z');
    for (const bad of ['yesterday', 'now-3', 'now-3w', '2025-01-02', '2025-13-45T00:00:00Z']) expect(resolveTime(bad, NOW), bad).toBeNull();
  });
});

describe('the dataset loader', () => {
  it('fills documented defaults and derives stable ids', () => {
    const json = withZone({
      dns_records: [{ type: 'a', name: '@', content: '192.0.2.1', proxied: true }, { type: 'MX', name: 'mail.@', content: 'mx.example.net' }],
      certificate_packs: [{ hosts: ['one.example'], created_on: 'now-10d', validity_days: 30 }],
    });
    const a = loadDataset(json, NOW);
    const b = loadDataset(json, NOW);
    const zone = a.zones[0]!;
    expect(zone.id).toBe(b.zones[0]!.id);
    expect(zone.id).toMatch(/^[0-9a-f]{32}$/);
    expect(zone).toMatchObject({ status: 'active', paused: false, plan: 'free', type: 'full' });
    expect(zone.dns.at(0)).toMatchObject({ type: 'A', name: 'one.example', proxied: true, proxiable: true, ttl: 1, comment: null });
    expect(zone.dns.at(1)).toMatchObject({ name: 'mail.one.example', priority: 10, proxiable: false });
    const pack = zone.certificatePacks[0]!;
    expect(pack).toMatchObject({ type: 'universal', status: 'active', validation_method: 'txt', certificate_authority: 'lets_encrypt' });
    expect(pack.primary_certificate).toBe(pack.certificates[0]!.id);
    expect(pack.certificates[0]!.expires_on).toBe('2026-11-21T12:00:00.000000Z');
    expect(a.user.email).toBe('admin@example.com');
  });

  it('omits expires_on for a certificate still being issued', () => {
    const state = loadDataset(withZone({ certificate_packs: [{ hosts: ['one.example'], status: 'pending_validation', certificates: [{ expires_on: null }] }] }), NOW);
    expect(state.zones[0]!.certificatePacks[0]!.certificates[0]).not.toHaveProperty('expires_on');
  });

  it('names the offending field of a bad dataset', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ version: 2, accounts: [] }, /^version: expected 1/],
      [{ version: 1, accounts: [] }, /^accounts: at least one account/],
      [{ version: 1, accounts: [{ name: 'A', zone: [] }] }, /^accounts\[0\]\.zone: unknown field/],
      [withZone({ plan: 'gold' as never }), /accounts\[0\]\.zones\[0\]\.plan: expected one of free, pro, business, enterprise/],
      [withZone({ name: 'Not A Domain' }), /zones\[0\]\.name: expected a lower-case domain name/],
      [withZone({ created_on: 'last week' }), /zones\[0\]\.created_on: expected an RFC 3339 time/],
      [withZone({ dns_records: [{ type: 'A', name: 'www.other.example', content: '192.0.2.1' }] }), /dns_records\[0\]\.name: must be one\.example/],
      [withZone({ dns_records: [{ type: 'TXT', name: '@', content: 'x', proxied: true }] }), /dns_records\[0\]\.proxied: TXT records cannot be proxied/],
      [withZone({ dns_records: [{ type: 'TXT', name: '@', content: 'x'.repeat(2049) }] }), /content: TXT content is at most 2048/],
      [withZone({ dns_records: [{ type: 'BOGUS', name: '@', content: 'x' }] }), /dns_records\[0\]\.type: unknown record type/],
      [withZone({ firewall_rules: [{ action: 'block', filter: 'nope' }] }), /firewall_rules\[0\]\.filter: no filter with ref or id "nope"/],
      [withZone({ firewall_rules: [{ action: 'explode', filter: { expression: 'ip.src eq 192.0.2.1' } }] }), /firewall_rules\[0\]\.action: expected one of block/],
      [withZone({ firewall_rules: [{ action: 'bypass', filter: { expression: 'ip.src eq 192.0.2.1' } }] }), /products: bypass rules need/],
      [withZone({ plan: 'pro', waf: { overrides: [{ urls: ['one.example/*'] }] } }), /waf\.overrides: URI-based overrides exist on Enterprise zones only/],
      [withZone({ plan: 'pro', migration: { state: 'validation' } }), /migration\.state: validation mode is for Enterprise zones only/],
      [withZone({ plan: 'enterprise', waf: { overrides: [{ urls: ['a/*'] }] }, migration: { state: 'complete' } }), /cannot have started its migration/],
      [{ version: 1, accounts: [{ name: 'A', zones: [{ name: 'x.example' }, { name: 'x.example' }] }] }, /zones\[1\]\.name: duplicate zone name/],
      [withZone({}, { invites: [{ account: 'Nobody', invited_by: 'a@example.com' }] }), /invites\[0\]\.account: no account named "Nobody"/],
    ];
    for (const [json, message] of cases) expect(loadError(json)).toMatch(message);
  });

  it('builds entry points for zones that have started migrating', () => {
    const state = loadDataset(withZone({ plan: 'enterprise', migration: { state: 'validation', since: 'now-2d' } }), NOW);
    const m = state.zones[0]!.migration;
    expect(m.since).toBe('2026-10-30T12:00:00.000000Z');
    expect(m.entrypoint?.phase).toBe('http_request_firewall_managed');
  });

  it('reads a dataset file, and refuses a missing or broken one with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-dataset-'));
    const file = join(dir, 'org.json');
    writeFileSync(file, JSON.stringify(withZone({ dns_records: [{ type: 'A', name: '@', content: '192.0.2.9' }] })));
    const emu = await emulatorFor({ dataset: file });
    try {
      const zones = await get(emu, '/zones');
      expect(zones.json.result.map((z: { name: string }) => z.name)).toEqual(['one.example']);
    } finally {
      await emu.close();
    }
    expect(() => buildOrganisation(join(dir, 'missing.json'), NOW)).toThrow(/cannot read dataset file .*missing\.json \(ENOENT\)/);
    writeFileSync(join(dir, 'broken.json'), '{"version": 1,');
    expect(() => buildOrganisation(join(dir, 'broken.json'), NOW)).toThrow(/dataset file .*broken\.json is not valid JSON/);
  });

  it('documents every field of the format in docs/dataset-format.md', () => {
    const source = readFileSync(new URL('../../src/emulator/datasets/format.ts', import.meta.url), 'utf8');
    const docs = readFileSync(new URL('../../docs/dataset-format.md', import.meta.url), 'utf8');
    const fields = new Set([...source.matchAll(/^\s+(\w+)\??: /gm)].map((m) => m[1]!));
    expect(fields.size).toBeGreaterThan(40);
    const missing = [...fields].filter((f) => !docs.includes(`\`${f}\``));
    expect(missing).toEqual([]);
  });
});

describe('the generated dataset', () => {
  const size = { seed: 11, accounts: 7, zones: 300, records: 50_000 };

  it('is the same for the same seed and differs for another', () => {
    const a = generateOrganisation(size, NOW);
    const b = generateOrganisation(size, NOW);
    const c = generateOrganisation({ ...size, seed: 12 }, NOW);
    const digest = (s: typeof a) => s.zones.map((z) => `${z.id}:${z.plan}:${z.dns.size}:${z.dns.at(z.dns.size - 1).content}:${z.firewallRules.size}`).join('|');
    expect(digest(a)).toBe(digest(b));
    expect(digest(a)).not.toBe(digest(c));
  });

  it('holds exactly the records asked for, most zones small and a few large', () => {
    const state = generateOrganisation(size, NOW);
    const counts = state.zones.map((z) => z.dns.size).sort((x, y) => x - y);
    expect(counts.reduce((s, n) => s + n, 0)).toBe(50_000);
    const median = counts[Math.floor(counts.length / 2)]!;
    expect(counts[counts.length - 1]!).toBeGreaterThan(20 * median);
    expect(state.accounts.filter((a) => a.member)).toHaveLength(7);
    for (const zone of state.zones.slice(0, 20)) {
      for (let i = 0; i < zone.dns.size; i += 97) expect(zone.dns.at(i).name.endsWith(zone.name)).toBe(true);
    }
  });

  it('spreads plans and migration states, and keeps overrides off migrated and non-Enterprise zones', () => {
    const state = generateOrganisation({ ...size, zones: 2000, records: 4000 }, NOW);
    const plans = new Set(state.zones.map((z) => z.plan));
    expect(plans).toEqual(new Set(['free', 'pro', 'business', 'enterprise']));
    const states = new Set(state.zones.map((z) => z.migration.state));
    expect(states).toEqual(new Set(['start', 'validation', 'complete']));
    for (const z of state.zones) {
      if (z.waf.overrides.length) {
        expect(z.plan).toBe('enterprise');
        expect(z.migration.state).toBe('start');
      }
      if (z.migration.state === 'validation') expect(z.plan).toBe('enterprise');
    }
  });

  // RFC 5321 5.1: a mail server is found through the address records of the MX target; RFC 1034
  // 3.6.2: a CNAME names the canonical name. A target that does not exist is what dns-dangling-target
  // reports, which a generated zone must not be made of.
  it('points its MX and CNAME records at names that exist', () => {
    const state = generateOrganisation({ seed: 3, accounts: 3, zones: 60, records: 3000 }, NOW);
    const names = new Set(state.zones.flatMap((z) => [z.name, ...Array.from({ length: z.dns.size }, (_, i) => z.dns.at(i).name)]));
    const targets = state.zones.flatMap((z) => Array.from({ length: z.dns.size }, (_, i) => z.dns.at(i)).filter((r) => r.type === 'MX' || r.type === 'CNAME'));
    expect(targets.filter((r) => r.type === 'MX')).toHaveLength(60);
    expect(targets.filter((r) => !names.has(r.content ?? '') && !externalExists(r.content ?? '')).map((r) => `${r.type} ${r.name} -> ${r.content}`)).toEqual([]);
  });

  it('serves a million records over ten thousand zones without materialising them', () => {
    const state = generateOrganisation({ seed: 1, accounts: 20, zones: 10_000, records: 1_000_000 }, NOW);
    expect(state.zones.reduce((n, z) => n + z.dns.size, 0)).toBe(1_000_000);
    const largest = state.zones.reduce((m, z) => (z.dns.size > m.dns.size ? z : m));
    expect(largest.dns.at(largest.dns.size - 1).id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('zipfCounts splits a total exactly, whatever the sizes', () => {
    for (const [total, n] of [[0, 5], [3, 10], [1000, 1], [12345, 77]] as const) {
      const counts = zipfCounts(total, n, seededRandom(5));
      expect(counts).toHaveLength(n);
      expect(counts.reduce((s, c) => s + c, 0)).toBe(total);
    }
  });
});
