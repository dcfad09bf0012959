/**
 * The demo organisation (src/emulator/datasets/demo.ts) is what a newcomer sees first, so it must
 * look like a real organisation: readable names under the reserved example domains, addresses in
 * the documentation ranges, no control characters, markup or absurd strings (those are the tests'
 * organisation's job), most zones on the new managed rules and a few still on the previous WAF.
 * Only the returned DatasetFile and the source text are inspected; the audit of it is
 * test/policy/demo-audit.test.ts.
 */
import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO_CHANGED_ZONES } from '../../src/emulator/datasets/demo-changes.js';
import { demoDataset } from '../../src/emulator/datasets/demo.js';
import type { DatasetZone } from '../../src/emulator/datasets/format.js';
import { externalExists } from '../../src/emulator/dns/world.js';

const data = demoDataset();
const SOURCE = readFileSync(new URL('../../src/emulator/datasets/demo.ts', import.meta.url), 'utf8');
const zones = data.accounts.flatMap((a) => a.zones ?? []);
const memberZones = data.accounts.filter((a) => a.member !== false).flatMap((a) => a.zones ?? []);
const records = zones.flatMap((z) => z.dns_records ?? []);
const stateOf = (z: DatasetZone) => z.migration?.state ?? 'start';

/** Every string anywhere in the dataset. */
function allStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) allStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) allStrings(v, out);
  return out;
}

/** RFC 2606 and RFC 6761: names for examples, which belong to no real organisation. */
const reservedName = (name: string) => /(^|\.)example$/.test(name) || /(^|\.)example\.(com|net|org)$/.test(name);

// RFC 5737 (IPv4) and RFC 3849 (IPv6): the address blocks for documentation.
const DOCUMENTATION = new BlockList();
for (const prefix of ['192.0.2.0', '198.51.100.0', '203.0.113.0']) DOCUMENTATION.addSubnet(prefix, 24, 'ipv4');
DOCUMENTATION.addSubnet('2001:db8::', 32, 'ipv6');

describe('the demo organisation', () => {
  it('is format version 1 and deterministic', () => {
    expect(data.version).toBe(1);
    expect(demoDataset()).toEqual(data);
    expect(SOURCE).not.toMatch(/Math\.random|Date\.now|new Date\(/);
  });

  it('holds no control or invisible characters, no markup and no absurd strings', () => {
    const strings = allStrings(data);
    // eslint-disable-next-line no-control-regex
    expect(strings.filter((s) => /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(s))).toEqual([]);
    expect(strings.filter((s) => /[<>`|]/.test(s))).toEqual([]);
    // The longest text is a DKIM key, a few hundred characters as real ones are.
    expect(strings.filter((s) => s.length > 512)).toEqual([]);
    expect(data.accounts.map((a) => a.name).filter((n) => !/^[A-Z][A-Za-z ]+$/.test(n))).toEqual([]);
  });

  it('names only reserved example domains, and publishes only documentation addresses', () => {
    expect(zones.map((z) => z.name).filter((n) => !reservedName(n))).toEqual([]);
    expect(records.map((r) => r.name).filter((n) => !reservedName(n))).toEqual([]);
    const targets = records.filter((r) => r.type === 'CNAME' || r.type === 'MX').map((r) => r.content ?? '');
    expect(targets.filter((t) => !reservedName(t))).toEqual([]);
    const emails = allStrings(data).flatMap((s) => s.match(/[\w.-]+@[\w.-]+/g) ?? []);
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.filter((e) => !reservedName(e.split('@')[1]!))).toEqual([]);
    const addresses = records.filter((r) => r.type === 'A' || r.type === 'AAAA').map((r) => r.content ?? '');
    expect(addresses.filter((a) => !DOCUMENTATION.check(a, isIP(a) === 6 ? 'ipv6' : 'ipv4'))).toEqual([]);
  });

  // RFC 1034 3.6.2 and RFC 5321 5.1: a CNAME or MX target is a name that exists. One target is gone
  // on purpose: the status page given up, the takeover case of the demo (dns/world.ts).
  it('points its CNAME and MX records at names that exist, but for the status page given up', () => {
    const names = new Set([...zones.map((z) => z.name), ...records.map((r) => r.name)]);
    const dangling = records.filter((r) => (r.type === 'CNAME' || r.type === 'MX') && !names.has(r.content ?? '') && !externalExists(r.content ?? ''));
    expect(dangling.map((r) => `${r.name} -> ${r.content}`)).toEqual(['legacy.tailspintoys-status.example -> tailspintoys.oldstatus.example.com']);
  });

  it('runs most zones on the new managed rules, with custom rules and rate limiting, and a few on the previous WAF and firewall rules', () => {
    const previous = memberZones.filter((z) => stateOf(z) === 'start' && z.waf?.enabled !== false);
    const current = memberZones.filter((z) => stateOf(z) === 'none' || stateOf(z) === 'complete');
    expect(current.length + previous.length).toBe(memberZones.length);
    expect(current.length).toBeGreaterThan(3 * previous.length);
    expect(previous.length).toBeGreaterThanOrEqual(2);
    for (const z of previous) expect((z.firewall_rules ?? []).length, z.name).toBeGreaterThan(0);
    // Both ways onto the new managed rules: created on them, and migrated from the previous WAF.
    expect(new Set(current.map(stateOf))).toEqual(new Set(['none', 'complete']));
    const withCustomRules = current.filter((z) => (z.security?.custom_rules ?? []).length > 0);
    const withRateLimits = current.filter((z) => (z.security?.ratelimit_rules ?? []).length > 0);
    expect(withCustomRules.length).toBeGreaterThan(current.length / 2);
    expect(withRateLimits.length).toBeGreaterThan(current.length / 2);
  });

  it('spreads its zones over several accounts and plans, one account reached through a pending invite', () => {
    expect(data.accounts.filter((a) => a.member !== false).length).toBeGreaterThanOrEqual(3);
    expect(new Set(memberZones.map((z) => z.plan ?? 'free'))).toEqual(new Set(['free', 'pro', 'business', 'enterprise']));
    const hidden = data.accounts.filter((a) => a.member === false).map((a) => a.name);
    expect(hidden).toHaveLength(1);
    expect((data.invites ?? []).filter((i) => i.status === 'pending').map((i) => i.account)).toEqual(hidden);
  });

  it('names every zone in the organisation table of its source comment', () => {
    const table = SOURCE.slice(0, SOURCE.indexOf('*/'));
    for (const z of zones) expect(table, z.name).toMatch(new RegExp(`\\| ${z.name.replace(/\./g, '\\.')} +\\|`));
  });

  it('has what the second run changes: a certificate in its renewal window, a DNS-only record, an active challenge rule', () => {
    const zone = (name: string) => zones.find((z) => z.name === name)!;
    const renewed = (zone(DEMO_CHANGED_ZONES.renewed).certificate_packs ?? []).flatMap((p) => p.certificates ?? []);
    const inWindow = renewed.filter((c) => {
      const days = Number(/^now\+(\d+)d$/.exec(c.expires_on ?? '')?.[1]);
      return days > 0 && days <= 30;
    });
    // One certificate: the drift of the second run shows one renewal.
    expect(inWindow).toHaveLength(1);
    expect((zone(DEMO_CHANGED_ZONES.edited).dns_records ?? []).some((r) => r.proxied !== true)).toBe(true);
    expect((zone(DEMO_CHANGED_ZONES.paused).firewall_rules ?? []).some((r) => r.action === 'managed_challenge' && r.paused !== true)).toBe(true);
  });
});
