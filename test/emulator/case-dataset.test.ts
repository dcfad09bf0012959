/**
 * Structural facts of the tests' organisation (test/support/case-dataset.ts) that the emulator, the
 * audit rules' tests and the escaping tests rely
 * on: every audit check keeps a failing and a passing case. An edit that removes a case must fail
 * here. Only the returned DatasetFile is inspected (plus the source text, for determinism).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type {
  DatasetAccount,
  DatasetCertificatePack,
  DatasetFilter,
  DatasetFirewallRule,
  DatasetWafGroup,
  DatasetWafRule,
  DatasetZone,
} from '../../src/emulator/datasets/format.js';
import { caseDataset } from '../support/case-dataset.js';

const data = caseDataset();

interface ZoneEntry {
  account: DatasetAccount;
  zone: DatasetZone;
}

const entries: ZoneEntry[] = data.accounts.flatMap((account) => (account.zones ?? []).map((zone) => ({ account, zone })));
const memberEntries = entries.filter((e) => e.account.member !== false);
const zones = entries.map((e) => e.zone);

const planOf = (z: DatasetZone) => z.plan ?? 'free';
const stateOf = (z: DatasetZone) => z.migration?.state ?? 'start';
const rulesOf = (z: DatasetZone) => z.firewall_rules ?? [];
const filtersOf = (z: DatasetZone) => z.filters ?? [];
const recordsOf = (z: DatasetZone) => z.dns_records ?? [];
const packsOf = (z: DatasetZone) => z.certificate_packs ?? [];
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const chars = (s: string) => [...s].length;

function zoneNamed(name: string): DatasetZone {
  const zone = zones.find((z) => z.name === name);
  if (!zone) throw new Error(`no zone ${name}`);
  return zone;
}

function filterFor(z: DatasetZone, ref: string): DatasetFilter | undefined {
  return filtersOf(z).find((f) => f.ref === ref || f.id === ref);
}

/** The filter a rule uses, as {expression, paused}; undefined for a deleted filter. */
function ruleFilter(z: DatasetZone, r: DatasetFirewallRule): { expression: string; paused: boolean } | undefined {
  if (typeof r.filter === 'string') {
    const f = filterFor(z, r.filter);
    return f ? { expression: f.expression, paused: f.paused ?? false } : undefined;
  }
  if ('deleted' in r.filter) return undefined;
  return { expression: r.filter.expression, paused: r.filter.paused ?? false };
}

/** Every expression of a zone: inline filters of rules and standalone filters. */
function expressionsOf(z: DatasetZone): string[] {
  const inline = rulesOf(z).flatMap((r) => (typeof r.filter === 'object' && 'expression' in r.filter ? [r.filter.expression] : []));
  return [...inline, ...filtersOf(z).map((f) => f.expression)];
}

const allExpressions = zones.flatMap(expressionsOf);

/** Every string anywhere in the dataset. */
function allStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) allStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) allStrings(v, out);
  return out;
}

const TIME_KEYS = new Set(['created_on', 'modified_on', 'activated_on', 'uploaded_on', 'expires_on', 'invited_on', 'since']);

/** Every value under a time key, with its path. */
function allTimes(value: unknown, path = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(value)) value.forEach((v, i) => allTimes(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (TIME_KEYS.has(k)) out.push([`${path}.${k}`, v]);
      else allTimes(v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** Whole days of a `now±Nd` string; undefined otherwise. */
function dayOffset(t: string | null | undefined): number | undefined {
  const m = /^now([+-]\d+)d$/.exec(t ?? '');
  return m ? Number(m[1]) : undefined;
}

/** Whether a certificate host pattern covers a host name (a wildcard covers exactly one label). */
function covers(pattern: string, host: string): boolean {
  if (pattern === host) return true;
  if (!pattern.startsWith('*.')) return false;
  const base = pattern.slice(2);
  if (!host.endsWith(`.${base}`)) return false;
  const label = host.slice(0, -base.length - 1);
  return label.length > 0 && !label.includes('.');
}

const isActivePack = (p: DatasetCertificatePack) => (p.status ?? 'active') === 'active';
const proxiedHosts = (z: DatasetZone) => recordsOf(z).filter((r) => r.proxied === true).map((r) => r.name);

function ipv4Private(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168);
}
function ipv6Private(ip: string): boolean {
  const lower = ip.toLowerCase();
  return lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}
const DOC_V4 = [/^192\.0\.2\.\d+$/, /^198\.51\.100\.\d+$/, /^203\.0\.113\.\d+$/];

function groupOverrides(z: DatasetZone): DatasetWafGroup[] {
  return (z.waf?.packages ?? []).flatMap((p) => p.groups ?? []).filter((g) => (g.mode ?? 'on') !== (g.default_mode ?? 'on'));
}
function ruleOverrides(z: DatasetZone): DatasetWafRule[] {
  return (z.waf?.packages ?? []).flatMap((p) => {
    const fallback = p.detection_mode === 'anomaly' ? 'on' : 'block';
    return (p.groups ?? [])
      .flatMap((g) => g.rules ?? [])
      .filter((r) => r.mode !== undefined && r.mode !== (r.default_mode ?? fallback));
  });
}
const owaspOf = (z: DatasetZone) => z.waf?.packages?.find((p) => p.detection_mode === 'anomaly');
/** Zones still on the previous managed rules with them switched on. */
// `default` is the status seen in the wild for a zone that has not started: the same stage as start.
const pendingMigration = zones.filter((z) => (stateOf(z) === 'start' || stateOf(z) === 'default') && z.waf !== undefined && z.waf.enabled !== false);

describe('case dataset: organisation', () => {
  it('is format version 1 for admin@example.com and deterministic', () => {
    expect(data.version).toBe(1);
    expect(data.user?.email).toBe('admin@example.com');
    expect(caseDataset()).toEqual(data);
    const source = readFileSync(new URL('../support/case-dataset.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/Math\.random|Date\.now|new Date\(/);
  });

  it('has enterprise, business/pro and free member accounts and a non-member account', () => {
    const members = data.accounts.filter((a) => a.member !== false);
    expect(members.length).toBeGreaterThanOrEqual(3);
    const plansOf = (a: DatasetAccount) => new Set((a.zones ?? []).map(planOf));
    expect(members.some((a) => a.type === 'enterprise' && plansOf(a).has('enterprise'))).toBe(true);
    expect(members.some((a) => plansOf(a).has('business') && plansOf(a).has('pro'))).toBe(true);
    expect(members.some((a) => plansOf(a).size === 1 && plansOf(a).has('free'))).toBe(true);
    expect(data.accounts.filter((a) => a.member === false)).toHaveLength(1);
    expect(new Set(data.accounts.map((a) => a.name)).size).toBe(data.accounts.length);
  });

  it('has at least 10 member zones with unique, valid, reserved host names', () => {
    expect(memberEntries.length).toBeGreaterThanOrEqual(10);
    expect(new Set(zones.map((z) => z.name)).size).toBe(zones.length);
    for (const z of zones) {
      expect(z.name).toMatch(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/);
      expect(z.name).toMatch(/(\.example|\.test|\.example\.(com|net|org))$/);
    }
  });

  it('has pending (one to the non-member account), expired and accepted invites to known accounts', () => {
    const invites = data.invites ?? [];
    const names = new Set(data.accounts.map((a) => a.name));
    for (const invite of invites) expect(names.has(invite.account)).toBe(true);
    const pending = invites.filter((i) => (i.status ?? 'pending') === 'pending');
    expect(pending.length).toBeGreaterThanOrEqual(2);
    const nonMember = new Set(data.accounts.filter((a) => a.member === false).map((a) => a.name));
    expect(pending.some((i) => nonMember.has(i.account))).toBe(true);
    expect(invites.some((i) => i.status === 'expired')).toBe(true);
    expect(invites.some((i) => i.status === 'accepted')).toBe(true);
    // An accepted invite to a non-member account would make it a member; keep those pending only.
    expect(invites.filter((i) => nonMember.has(i.account)).every((i) => (i.status ?? 'pending') === 'pending')).toBe(true);
  });

  it('writes every time as now±N(d|h|m|s) or RFC 3339', () => {
    const times = allTimes(data);
    expect(times.length).toBeGreaterThan(100);
    const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
    for (const [path, t] of times) {
      if (t === null && /\.(activated_on|expires_on)$/.test(path)) continue;
      // A certificate pack still initializing has no created_on (dataset: created_on null).
      if (t === null && /\.certificate_packs\[\d+\]\.created_on$/.test(path)) continue;
      expect(typeof t, path).toBe('string');
      const ok = /^now([+-]\d+[dhms])*$/.test(t as string) || rfc3339.test(t as string);
      expect(ok, `${path} = ${String(t)}`).toBe(true);
    }
  });

  it('carries hostile strings outside zone and record names', () => {
    const strings = allStrings(data);
    expect(strings.some((s) => s.includes('<script>'))).toBe(true);
    expect(strings.some((s) => s.includes('<img src=x onerror=alert(1)>'))).toBe(true);
    expect(strings.some((s) => s.includes('|') && s.includes('`'))).toBe(true);
    expect(strings.some((s) => /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s))).toBe(true);
    expect(strings.some((s) => s.includes('\u001b['))).toBe(true);
    expect(strings.some((s) => s.includes('\r\n'))).toBe(true);
    expect(strings.some((s) => s.includes('\u202e'))).toBe(true);
    expect(strings.some((s) => chars(s) >= 250 && /\p{Extended_Pictographic}/u.test(s) && /[\u3040-\u30ff]/.test(s))).toBe(true);
    expect(strings.some((s) => s.includes('\u0000'))).toBe(false);
    // Where they are: account names, the invite sender, rule and filter descriptions, DNS comments,
    // TXT contents, certificate validation errors.
    const hostile = (s: string | null | undefined) => !!s && /[<|`\u0007\u001b\u202e\r]/.test(s);
    expect(data.accounts.some((a) => a.member === false && a.name.includes('<'))).toBe(true);
    expect(data.accounts.filter((a) => hostile(a.name)).length).toBeGreaterThanOrEqual(2);
    expect((data.invites ?? []).some((i) => i.invited_by.includes('<script>'))).toBe(true);
    expect(zones.some((z) => rulesOf(z).some((r) => r.description?.includes('<script>')))).toBe(true);
    expect(zones.some((z) => filtersOf(z).some((f) => hostile(f.description)))).toBe(true);
    expect(zones.some((z) => recordsOf(z).some((r) => hostile(r.comment)))).toBe(true);
    expect(zones.some((z) => recordsOf(z).some((r) => r.type === 'TXT' && (r.content ?? '').includes('<script>')))).toBe(true);
    expect(zones.some((z) => packsOf(z).some((p) => (p.validation_errors ?? []).some((e) => hostile(e.message))))).toBe(true);
  });
});

describe('case dataset: DNS', () => {
  it('names every record inside its zone, with valid host names and realistic counts', () => {
    for (const z of zones) {
      const records = recordsOf(z);
      expect(records.length, z.name).toBeGreaterThanOrEqual(5);
      expect(records.length, z.name).toBeLessThanOrEqual(20);
      expect(records.some((r) => r.name === z.name && (r.type === 'A' || r.type === 'AAAA')), z.name).toBe(true);
      for (const r of records) {
        expect(r.name === z.name || r.name.endsWith(`.${z.name}`), `${r.name} in ${z.name}`).toBe(true);
        // RFC 4592: a wildcard owner name is `*` as its first label only.
        expect(r.name).toMatch(/^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9])?(\.[a-z0-9_]([a-z0-9-]*[a-z0-9])?)*$/);
        if (r.proxied) expect(['A', 'AAAA', 'CNAME']).toContain(r.type);
        if (r.type === 'TXT') expect((r.content ?? '').length).toBeLessThanOrEqual(2048);
        if (r.type === 'MX') expect(Number.isInteger(r.priority)).toBe(true);
        if (r.proxied) expect(r.ttl ?? 1).toBe(1);
      }
    }
    const types = new Set(zones.flatMap((z) => recordsOf(z).map((r) => r.type)));
    for (const t of ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA']) expect(types.has(t)).toBe(true);
  });

  it('exposes an origin through an unproxied A and an unproxied CNAME, and has harmless unproxied records', () => {
    const exposed = (type: string) =>
      zones.filter((z) => {
        const proxied = new Set(recordsOf(z).filter((r) => r.type === type && r.proxied).map((r) => (r.content ?? '')));
        return recordsOf(z).some((r) => r.type === type && !r.proxied && proxied.has((r.content ?? '')));
      });
    expect(exposed('A').length).toBeGreaterThanOrEqual(1);
    expect(exposed('CNAME').length).toBeGreaterThanOrEqual(1);
    const harmless = zones.some((z) => {
      const proxied = new Set(recordsOf(z).filter((r) => r.proxied).map((r) => (r.content ?? '')));
      return recordsOf(z).some((r) => r.type === 'A' && !r.proxied && !proxied.has((r.content ?? '')) && !ipv4Private((r.content ?? '')));
    });
    expect(harmless).toBe(true);
    expect(zones.length - exposed('A').length - exposed('CNAME').length).toBeGreaterThan(5);
  });

  it('publishes private and special addresses, and public ones only from documentation ranges', () => {
    const contents = new Set(zones.flatMap((z) => recordsOf(z).map((r) => (r.content ?? ''))));
    for (const ip of ['10.0.0.5', '192.168.1.10', '127.0.0.1', '169.254.1.1', 'fd00::1', 'fe80::1']) {
      expect(contents.has(ip), ip).toBe(true);
    }
    for (const r of zones.flatMap(recordsOf)) {
      if (r.type === 'A' && !ipv4Private((r.content ?? ''))) expect(DOC_V4.some((re) => re.test((r.content ?? ''))), (r.content ?? '')).toBe(true);
      // RFC 3849 2001:db8::/32 stands for public addresses; RFC 9637 3fff::/20 is the one stray documentation address (fabrikam-trails).
      if (r.type === 'AAAA' && !ipv6Private((r.content ?? ''))) expect(/^(2001:db8:|3fff:)/.test((r.content ?? '').toLowerCase()), (r.content ?? '')).toBe(true);
      if (r.proxied && (r.type === 'A' || r.type === 'AAAA')) {
        expect(r.type === 'A' ? ipv4Private((r.content ?? '')) : ipv6Private((r.content ?? ''))).toBe(false);
      }
    }
    const clean = zones.filter((z) =>
      recordsOf(z).every((r) => !((r.type === 'A' && ipv4Private((r.content ?? ''))) || (r.type === 'AAAA' && ipv6Private((r.content ?? ''))))),
    );
    expect(clean.length).toBeGreaterThan(5);
  });
});

describe('case dataset: zones and certificates', () => {
  it('has one paused zone, one pending zone, and the rest active', () => {
    expect(zones.filter((z) => z.paused === true)).toHaveLength(1);
    expect(zones.filter((z) => z.status === 'pending')).toHaveLength(1);
    const active = zones.filter((z) => (z.status ?? 'active') === 'active' && z.paused !== true);
    expect(active.length).toBe(zones.length - 2);
  });

  it('gives every pack explicit certificates and realistic values', () => {
    for (const z of zones) {
      expect(packsOf(z).length, z.name).toBeGreaterThanOrEqual(1);
      for (const p of packsOf(z)) {
        expect([14, 30, 90, 365]).toContain(p.validity_days);
        expect(['lets_encrypt', 'google', 'digicert', 'ssl_com']).toContain(p.certificate_authority);
        expect(['universal', 'advanced']).toContain(p.type ?? 'universal');
        if ((p.type ?? 'universal') === 'universal') expect(p.hosts).toEqual([z.name, `*.${z.name}`]);
        expect(p.certificates?.length ?? 0).toBeGreaterThanOrEqual(1);
        for (const c of p.certificates ?? []) expect(c).toHaveProperty('expires_on');
      }
    }
  });

  it('has certificates expired and expiring in 5, 12, 25 and 60 days, and a pack still being issued', () => {
    const offsets = new Set(
      zones.flatMap((z) => packsOf(z).flatMap((p) => (p.certificates ?? []).map((c) => dayOffset(c.expires_on)))),
    );
    for (const d of [-2, 5, 12, 25, 60]) expect(offsets.has(d), `now${d >= 0 ? '+' : ''}${d}d`).toBe(true);
    expect([...offsets].filter((d) => d !== undefined && d > 60).length).toBeGreaterThanOrEqual(3);
    const issuing = zones.flatMap(packsOf).filter((p) => p.status === 'pending_validation');
    expect(issuing.length).toBeGreaterThanOrEqual(1);
    for (const p of issuing) for (const c of p.certificates ?? []) expect(c.expires_on).toBeNull();
  });

  it('has a validation_timed_out pack with errors, and mostly active packs', () => {
    const packs = zones.flatMap(packsOf);
    const timedOut = packs.filter((p) => p.status === 'validation_timed_out');
    expect(timedOut.length).toBeGreaterThanOrEqual(1);
    for (const p of timedOut) expect(p.validation_errors?.length ?? 0).toBeGreaterThanOrEqual(1);
    expect(packs.filter(isActivePack).length).toBeGreaterThan(packs.length * 0.75);
  });

  it('has proxied hosts uncovered: no pack, two labels under a wildcard, only a non-active pack', () => {
    const coveredBy = (z: DatasetZone, host: string, active: boolean) =>
      packsOf(z).some((p) => isActivePack(p) === active && p.hosts.some((h) => covers(h, host)));
    const uncovered = zones.flatMap((z) =>
      proxiedHosts(z)
        .filter((h) => !coveredBy(z, h, true))
        .map((host) => ({ z, host })),
    );
    // Not covered by any pack at all.
    expect(uncovered.some(({ z, host }) => !coveredBy(z, host, false))).toBe(true);
    // Covered only by a pack that is not active.
    expect(uncovered.some(({ z, host }) => coveredBy(z, host, false))).toBe(true);
    // Two labels under an active wildcard: not covered; one label under it: covered.
    const wildcardTwoLabels = uncovered.some(({ z, host }) =>
      packsOf(z).some((p) => isActivePack(p) && p.hosts.some((h) => h.startsWith('*.') && host.endsWith(h.slice(1)))),
    );
    expect(wildcardTwoLabels).toBe(true);
    const wildcardOneLabel = zones.some((z) =>
      proxiedHosts(z).some((host) =>
        packsOf(z).some((p) => isActivePack(p) && p.hosts.some((h) => h.startsWith('*.') && h !== host && covers(h, host))),
      ),
    );
    expect(wildcardOneLabel).toBe(true);
    const fullyCovered = zones.filter((z) => proxiedHosts(z).every((h) => coveredBy(z, h, true)));
    expect(fullyCovered.length).toBeGreaterThan(5);
  });
});

describe('case dataset: firewall rules and filters', () => {
  const QUOTA = { free: 5, pro: 20, business: 100, enterprise: 1000 };

  it('uses valid actions, priorities, bypass products and description lengths', () => {
    const actions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log', 'bypass'];
    for (const z of zones) {
      for (const r of rulesOf(z)) {
        expect(actions).toContain(r.action);
        const p = r.priority ?? null;
        expect(p === null || (Number.isInteger(p) && p >= 0 && p <= 2147483647)).toBe(true);
        if (r.action === 'bypass') expect(r.products?.length ?? 0).toBeGreaterThan(0);
        expect((r.description ?? '').length).toBeLessThanOrEqual(500);
      }
    }
  });

  it('resolves every filter reference to a filter of the same zone', () => {
    let refs = 0;
    for (const z of zones) {
      for (const r of rulesOf(z)) {
        if (typeof r.filter !== 'string') continue;
        refs++;
        expect(filterFor(z, r.filter), `${z.name}: ${r.filter}`).toBeDefined();
      }
      const keys = filtersOf(z).map((f) => f.ref ?? f.id);
      expect(new Set(keys).size, z.name).toBe(keys.length);
    }
    expect(refs).toBeGreaterThan(5);
  });

  it('writes expressions in the rules language', () => {
    const fields = /\b(http\.request\.uri\.path|http\.host|ip\.src|ip\.geoip\.country|http\.user_agent|cf\.threat_score)\b/;
    for (const e of allExpressions) {
      expect(e).toMatch(fields);
      expect((e.match(/"/g) ?? []).length % 2, e.slice(0, 80)).toBe(0);
      expect((e.match(/\{/g) ?? []).length).toBe((e.match(/\}/g) ?? []).length);
      expect(e).not.toContain("'");
    }
  });

  // The migration carries and counts only bypass rules of the WAF (spec: "firewall rules to migrate").
  it('has one Enterprise zone with exactly 201 bypass rules of the WAF among more block rules, not migrated', () => {
    const bypassOf = (z: DatasetZone) => rulesOf(z).filter((r) => r.action === 'bypass' && (r.products ?? []).includes('waf'));
    const over = zones.filter((z) => bypassOf(z).length > 200);
    expect(over.map((z) => z.name)).toEqual(['acme-payments.example']);
    const payments = over[0]!;
    expect(bypassOf(payments)).toHaveLength(201);
    expect(rulesOf(payments).length - 201).toBe(99);
    expect(planOf(payments)).toBe('enterprise');
    expect(stateOf(payments)).not.toBe('complete');
    // Mostly distinct expressions, so only the count matters.
    const exprs = rulesOf(payments).map((r) => ruleFilter(payments, r)?.expression);
    expect(new Set(exprs).size).toBeGreaterThan(rulesOf(payments).length * 0.9);
    expect(zones.filter((z) => rulesOf(z).length === 200).map((z) => z.name)).toEqual(['acme-cards.example']);
  });

  it('has expressions at and around the 4,096 byte and character limits', () => {
    const over4kBytes = allExpressions.filter((e) => bytes(e) === 4097 && chars(e) <= 4096);
    expect(over4kBytes.length).toBeGreaterThanOrEqual(1);
    expect(over4kBytes.every((e) => bytes(e) > chars(e))).toBe(true); // multibyte
    expect(allExpressions.some((e) => bytes(e) === 4095 && chars(e) < 4095)).toBe(true);
    expect(allExpressions.some((e) => chars(e) === 4097)).toBe(true);
    expect(allExpressions.some((e) => chars(e) === 4096 && bytes(e) === 4096)).toBe(true);
    expect(allExpressions.filter((e) => chars(e) > 4096)).toHaveLength(1);
    expect(allExpressions.filter((e) => bytes(e) > 4096)).toHaveLength(3);
    // Both too-long expressions sit in Enterprise zones that have not migrated.
    for (const z of zones.filter((zz) => expressionsOf(zz).some((e) => bytes(e) > 4096))) {
      expect(planOf(z)).toBe('enterprise');
      expect(stateOf(z)).not.toBe('complete');
    }
  });

  it('has a free zone at its quota of 5, a pro zone at 16 of 20, and zones well under', () => {
    for (const z of zones) expect(rulesOf(z).length, z.name).toBeLessThanOrEqual(QUOTA[planOf(z)]);
    expect(zones.some((z) => planOf(z) === 'free' && rulesOf(z).length === 5)).toBe(true);
    expect(zones.some((z) => planOf(z) === 'pro' && rulesOf(z).length === 16)).toBe(true);
    expect(zones.filter((z) => rulesOf(z).length < QUOTA[planOf(z)] * 0.5).length).toBeGreaterThan(5);
  });

  it('has a paused rule, an active rule with a paused filter and a rule whose filter was deleted', () => {
    const rules = zones.flatMap((z) => rulesOf(z).map((r) => ({ z, r })));
    expect(rules.some(({ r }) => r.paused === true)).toBe(true);
    expect(rules.some(({ z, r }) => r.paused !== true && ruleFilter(z, r)?.paused === true)).toBe(true);
    expect(rules.some(({ r }) => typeof r.filter === 'object' && 'deleted' in r.filter && r.filter.deleted)).toBe(true);
    const allLive = zones.filter((z) => rulesOf(z).length > 0 && rulesOf(z).every((r) => !r.paused && ruleFilter(z, r)?.paused === false));
    expect(allLive.length).toBeGreaterThan(5);
  });

  it('has two distinct filters with one expression, both used, in one zone; other zones unique', () => {
    const duplicated = zones.filter((z) => {
      const live = rulesOf(z).flatMap((r) => {
        const f = ruleFilter(z, r);
        return f ? [f.expression] : [];
      });
      return new Set(live).size < live.length;
    });
    expect(duplicated).toHaveLength(1);
    const z = duplicated[0]!;
    const byExpression = new Map<string, DatasetFilter[]>();
    for (const f of filtersOf(z)) byExpression.set(f.expression, [...(byExpression.get(f.expression) ?? []), f]);
    const pair = [...byExpression.values()].find((fs) => fs.length === 2);
    expect(pair).toBeDefined();
    for (const f of pair ?? []) expect(rulesOf(z).some((r) => r.filter === f.ref)).toBe(true);
  });

  it('has filters referenced by no rule in two zones, and zones without', () => {
    const orphans = (z: DatasetZone) =>
      filtersOf(z).filter((f) => !rulesOf(z).some((r) => r.filter === f.ref || (f.id !== undefined && r.filter === f.id)));
    expect(zones.filter((z) => orphans(z).length > 0).length).toBeGreaterThanOrEqual(2);
    expect(zones.filter((z) => filtersOf(z).length > 0 && orphans(z).length === 0).length).toBeGreaterThanOrEqual(1);
  });

  it('has a WAF bypass rule on a zone with the legacy WAF', () => {
    const bypass = zones.filter((z) => rulesOf(z).some((r) => r.action === 'bypass' && (r.products ?? []).includes('waf')));
    expect(bypass.length).toBeGreaterThanOrEqual(1);
    for (const z of bypass) expect(z.waf).toBeDefined();
  });
});

describe('case dataset: WAF migration', () => {
  it('keeps URI-based overrides on non-migrated Enterprise zones only, and has some', () => {
    const withOverrides = zones.filter((z) => (z.waf?.overrides ?? []).length > 0);
    expect(withOverrides.length).toBeGreaterThanOrEqual(1);
    for (const z of withOverrides) {
      expect(planOf(z)).toBe('enterprise');
      expect(stateOf(z)).not.toBe('complete');
    }
    // Enterprise zones without overrides (compatible) exist too.
    expect(zones.some((z) => planOf(z) === 'enterprise' && stateOf(z) !== 'complete' && !z.waf?.overrides?.length)).toBe(true);
  });

  it('gives free zones no legacy WAF, and the others the two standard packages (a migrated zone: the ones its migration was deployed from)', () => {
    for (const z of zones) {
      if (planOf(z) === 'free') expect(z.waf, z.name).toBeUndefined();
      if (!z.waf) continue;
      const names = (z.waf.packages ?? []).map((p) => p.name);
      expect(names).toEqual(['Cloudflare Managed Ruleset', 'OWASP ModSecurity Core Rule Set']);
      expect(owaspOf(z)?.sensitivity).toBeDefined();
      for (const p of z.waf.packages ?? []) {
        for (const g of p.groups ?? []) {
          expect(g.rules?.length ?? 0).toBeGreaterThanOrEqual(2);
          for (const r of g.rules ?? []) expect(r.allowed_modes).toContain(r.mode ?? r.default_mode);
        }
      }
    }
    expect(zones.some((z) => stateOf(z) === 'complete' && (z.status ?? 'active') === 'active' && !z.paused)).toBe(true);
  });

  it('has non-migrated zones at every OWASP sensitivity and action, on Enterprise and Pro/Business', () => {
    const sensitivities = new Set(pendingMigration.map((z) => owaspOf(z)?.sensitivity));
    for (const s of ['high', 'medium', 'low', 'off']) expect(sensitivities.has(s as 'high')).toBe(true);
    const actions = new Set(pendingMigration.map((z) => owaspOf(z)?.action_mode));
    for (const a of ['simulate', 'block', 'challenge']) expect(actions.has(a as 'block')).toBe(true);
    expect(pendingMigration.filter((z) => owaspOf(z)?.action_mode === 'simulate')).toHaveLength(1);
    expect(pendingMigration.some((z) => planOf(z) === 'enterprise')).toBe(true);
    expect(pendingMigration.some((z) => planOf(z) === 'pro')).toBe(true);
    expect(pendingMigration.some((z) => planOf(z) === 'business')).toBe(true);
    // A legacy WAF switched off, and a migrated zone.
    expect(zones.some((z) => z.waf?.enabled === false)).toBe(true);
    expect(zones.some((z) => stateOf(z) === 'complete')).toBe(true);
  });

  it('has group and rule overrides on some zones and none on others', () => {
    const withWaf = zones.filter((z) => z.waf);
    expect(withWaf.some((z) => groupOverrides(z).length > 0)).toBe(true);
    expect(withWaf.some((z) => ruleOverrides(z).length > 0)).toBe(true);
    expect(withWaf.some((z) => ruleOverrides(z).length > 0 && groupOverrides(z).length === 0)).toBe(true);
    expect(withWaf.some((z) => groupOverrides(z).length === 0 && ruleOverrides(z).length === 0)).toBe(true);
    // OWASP rule overrides (on -> off) as well as managed ones.
    expect(withWaf.some((z) => (owaspOf(z)?.groups ?? []).some((g) => (g.rules ?? []).some((r) => r.mode === 'off')))).toBe(true);
  });

  it('has Enterprise zones in validation since now-20d (stalled) and since now-3d', () => {
    const validating = zones.filter((z) => stateOf(z) === 'validation');
    for (const z of validating) expect(planOf(z)).toBe('enterprise');
    const since = validating.map((z) => dayOffset(z.migration?.since));
    expect(since).toContain(-20);
    expect(since).toContain(-3);
  });
});

describe('case dataset: the case map in the source comment', () => {
  // The team refers to zones by name; the names in the table must exist.
  it.each([
    'acme-bank.example',
    'acme-payments.example',
    'acme-cards.example',
    'acme-loans.example',
    'acme-invest.example',
    'acme-careers.example',
    'northwind-shop.example',
    'northwind.example',
    'northwind-blog.example',
    'northwind-staging.example',
    'tinkerer.test',
    'pet-photos.example.org',
    'weekend-hack.test',
    'globex-partners.example',
    'fabrikam.example',
    'fabrikam-shop-eu.example',
    'fabrikam-outlet.example',
    'fabrikam-rentals.example',
    'fabrikam-stores.example',
    'fabrikam-trails.example',
    'contoso-clinic.example',
    'contoso-records.example',
    'contoso-portal.example',
  ])('%s exists', (name) => {
    expect(zoneNamed(name).name).toBe(name);
  });

  it('places the headline cases on the documented zones', () => {
    expect(zoneNamed('acme-bank.example').waf?.overrides?.length).toBeGreaterThan(0);
    expect(rulesOf(zoneNamed('acme-payments.example'))).toHaveLength(300);
    expect(rulesOf(zoneNamed('acme-cards.example'))).toHaveLength(200);
    expect(dayOffset(zoneNamed('acme-loans.example').migration?.since)).toBe(-20);
    expect(dayOffset(zoneNamed('acme-invest.example').migration?.since)).toBe(-3);
    expect(stateOf(zoneNamed('acme-careers.example'))).toBe('complete');
    expect(rulesOf(zoneNamed('northwind.example'))).toHaveLength(16);
    expect(rulesOf(zoneNamed('tinkerer.test'))).toHaveLength(5);
    expect(zoneNamed('northwind-blog.example').paused).toBe(true);
    expect(zoneNamed('northwind-staging.example').status).toBe('pending');
    expect(entries.find((e) => e.zone.name === 'globex-partners.example')?.account.member).toBe(false);
  });

  it('keeps the per-zone cases of the case map', () => {
    const offsets = (name: string) =>
      packsOf(zoneNamed(name)).flatMap((p) => (p.certificates ?? []).map((c) => dayOffset(c.expires_on)));
    const orphaned = (name: string) => {
      const z = zoneNamed(name);
      return filtersOf(z).filter((f) => !rulesOf(z).some((r) => r.filter === f.ref));
    };
    const exposedTo = (name: string, type: string) => {
      const z = zoneNamed(name);
      const proxied = new Set(recordsOf(z).filter((r) => r.type === type && r.proxied).map((r) => r.content));
      return recordsOf(z).filter((r) => r.type === type && !r.proxied && proxied.has(r.content)).map((r) => r.name);
    };
    const uncovered = (name: string) => {
      const z = zoneNamed(name);
      return proxiedHosts(z).filter((h) => !packsOf(z).some((p) => isActivePack(p) && p.hosts.some((ph) => covers(ph, h))));
    };

    const bank = zoneNamed('acme-bank.example');
    expect(groupOverrides(bank).length).toBeGreaterThan(0);
    expect(ruleOverrides(bank).length).toBeGreaterThan(0);
    expect(rulesOf(bank).some((r) => r.action === 'bypass')).toBe(true);
    expect(exposedTo('acme-bank.example', 'A')).toEqual(['direct.acme-bank.example']);
    expect(uncovered('acme-bank.example')).toEqual(['v1.api.acme-bank.example']);
    expect(offsets('acme-bank.example')).toEqual(expect.arrayContaining([5, 60]));
    expect(orphaned('acme-bank.example')).toHaveLength(1);

    expect(groupOverrides(zoneNamed('acme-payments.example'))).toHaveLength(0);
    expect(ruleOverrides(zoneNamed('acme-payments.example'))).toHaveLength(0);
    expect(owaspOf(zoneNamed('acme-cards.example'))?.action_mode).toBe('simulate');
    expect(offsets('acme-cards.example')).toContain(25);
    expect(expressionsOf(zoneNamed('acme-loans.example')).some((e) => bytes(e) === 4097)).toBe(true);
    expect(expressionsOf(zoneNamed('acme-invest.example')).some((e) => chars(e) === 4097)).toBe(true);
    expect(packsOf(zoneNamed('acme-invest.example')).some((p) => p.status === 'validation_timed_out')).toBe(true);
    expect(uncovered('acme-invest.example')).toEqual(['portal.acme-invest.example']);

    const shop = zoneNamed('northwind-shop.example');
    expect(groupOverrides(shop).length).toBeGreaterThan(0);
    expect(uncovered('northwind-shop.example').sort()).toEqual(['checkout.northwind-shop.example', 'legacy.northwind-shop.example']);
    expect(owaspOf(zoneNamed('northwind.example'))?.sensitivity).toBe('off');
    expect(offsets('northwind.example')).toContain(-2);
    expect(exposedTo('northwind.example', 'CNAME')).toEqual(['assets-origin.northwind.example']);
    expect(orphaned('northwind.example')).toHaveLength(1);
    expect(offsets('northwind-blog.example')).toContain(12);
    expect(zoneNamed('northwind-staging.example').waf?.enabled).toBe(false);
    expect(exposedTo('tinkerer.test', 'A')).toEqual(['ssh.tinkerer.test']);
    expect(orphaned('tinkerer.test')).toHaveLength(1);
    expect(recordsOf(zoneNamed('pet-photos.example.org')).filter((r) => ipv4Private((r.content ?? '')) || ipv6Private((r.content ?? '')))).toHaveLength(5);

    // The clean reference zones fail nothing of the above.
    for (const name of ['acme-careers.example', 'weekend-hack.test']) {
      expect(uncovered(name), name).toEqual([]);
      expect(exposedTo(name, 'A'), name).toEqual([]);
      expect(orphaned(name), name).toEqual([]);
      expect(offsets(name).every((d) => d !== undefined && d > 60), name).toBe(true);
    }
  });
});

describe('case dataset: the API of late 2026 (a failing and a passing zone each)', () => {
  const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
  const managedRules = (name: string) => zoneNamed(name).security?.managed_rules;
  const executes = (name: string) => (managedRules(name) ?? []).filter((r) => r.action === 'execute' && r.action_parameters?.['id'] === MANAGED);
  const caaOf = (name: string) => recordsOf(zoneNamed(name)).filter((r) => r.type === 'CAA').map((r) => r.data as { flags: number; tag: string; value: string });
  const hstsOf = (name: string) => zoneNamed(name).security?.settings?.security_header;

  it('has a managed entry point with a broad skip before the execute rule, and one with a narrow skip', () => {
    // vendor docs, WAF: a skip rule placed before the execute rule exempts what it matches from the managed rules.
    const [broad, broadExecute] = managedRules('fabrikam-shop-eu.example') ?? [];
    expect(broad).toMatchObject({ action: 'skip', expression: 'http.host eq "fabrikam-shop-eu.example"' });
    expect(broadExecute?.action).toBe('execute');
    const [narrow] = managedRules('fabrikam.example') ?? [];
    expect(narrow).toMatchObject({ action: 'skip', expression: 'ip.src in {203.0.113.200/29}' });
  });

  it('has the managed ruleset overridden to disabled and to log, and executed unchanged on every request', () => {
    // vendor docs, WAF: execute overrides at ruleset level: {enabled: false} turns it off, {action: "log"} only logs.
    expect(executes('fabrikam-outlet.example')[0]?.action_parameters?.['overrides']).toEqual({ enabled: false });
    expect(executes('fabrikam-rentals.example')[0]?.action_parameters?.['overrides']).toEqual({ action: 'log' });
    expect(executes('fabrikam.example')[0]).toMatchObject({ expression: 'true' });
    expect(executes('fabrikam.example')[0]?.action_parameters?.['overrides']).toBeUndefined();
  });

  it('has an execute rule narrowed to a path', () => {
    expect(executes('fabrikam-stores.example')[0]?.expression).toBe('http.request.uri.path contains "/shop/"');
  });

  it('has zones that never had the previous WAF, with and without a managed entry point', () => {
    // API facts (late 2026): zones created since 2022-09 have the new managed rules and no migration state.
    const native = zones.filter((z) => stateOf(z) === 'none');
    expect(native.length).toBeGreaterThanOrEqual(9);
    for (const z of native) expect(z.waf, z.name).toBeUndefined();
    // Free, nothing written: no entry point (the emulator answers 404 code 10003).
    expect(planOf(zoneNamed('fabrikam-trails.example'))).toBe('free');
    expect(managedRules('fabrikam-trails.example')).toBeUndefined();
    expect(executes('fabrikam.example')).toHaveLength(1);
  });

  it('has an Enterprise account deploying managed rules to one of its zones whose own entry point is empty', () => {
    // vendor docs, WAF: account-level deployment of managed rulesets with cf.zone.name (Enterprise).
    const contoso = data.accounts.find((a) => a.name === 'Contoso Health');
    expect(contoso?.type).toBe('enterprise');
    const expressions = (contoso?.managed_rules ?? []).map((r) => r.expression);
    expect(expressions).toContain('cf.zone.name eq "contoso-clinic.example"');
    expect(expressions.some((e) => e.startsWith('cf.zone.name in {'))).toBe(true);
    expect(managedRules('contoso-clinic.example')).toEqual([]);
    // Its sibling has an empty entry point and is named by no account rule.
    expect(managedRules('contoso-records.example')).toEqual([]);
    expect(expressions.some((e) => e.includes('contoso-records.example'))).toBe(false);
  });

  it('has a partial zone without DNSSEC and CAA', () => {
    // API facts: partial (CNAME setup) zones are not answered by the vendor's DNS; DNSSEC and CAA there do not apply.
    const portal = zoneNamed('contoso-portal.example');
    expect(portal.type).toBe('partial');
    expect(portal.security?.dnssec).toBe('disabled');
    expect(caaOf('contoso-portal.example')).toEqual([]);
  });

  it('has ssl origin_pull, and HSTS preload with max_age below and above a year', () => {
    // hstspreload.org (the preload list's requirements): max-age of at least 31536000 seconds.
    // vendor docs, encryption modes: Strict (SSL-only origin pull) is an Enterprise mode.
    expect(zoneNamed('contoso-clinic.example').security?.settings?.ssl).toBe('origin_pull');
    expect(zoneNamed('contoso-clinic.example').plan).toBe('enterprise');
    expect(hstsOf('fabrikam-outlet.example')).toMatchObject({ preload: true, max_age: 15_552_000 });
    expect(hstsOf('fabrikam.example')).toMatchObject({ preload: true, max_age: 63_072_000 });
  });

  it('has CAA with only iodef, with a critical unknown tag, naming another CA than the pack, and a clean set', () => {
    // RFC 8659 4: flags 128 is the critical bit; 4.2-4.4: issue, issuewild, iodef. Data-only records as in the wild.
    expect(caaOf('fabrikam-rentals.example').map((c) => c.tag)).toEqual(['iodef']);
    expect(caaOf('fabrikam-stores.example')).toContainEqual({ flags: 128, tag: 'tbs', value: 'ticket-4711' });
    const shop = zoneNamed('fabrikam-shop-eu.example');
    expect(caaOf(shop.name).filter((c) => c.tag === 'issue').map((c) => c.value)).toEqual(['digicert.com']);
    expect(packsOf(shop).find((p) => (p.type ?? 'universal') === 'universal')?.certificate_authority).toBe('google');
    expect(caaOf('fabrikam.example')).toEqual([
      { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
      { flags: 0, tag: 'iodef', value: 'mailto:security@fabrikam.example' },
    ]);
    expect(recordsOf(zoneNamed('fabrikam.example')).filter((r) => r.type === 'CAA').every((r) => r.content === undefined)).toBe(true);
  });

  it('has a custom skip of everything (phase and ruleset current) and narrow skips', () => {
    // vendor docs, custom rules: skip options {ruleset: "current"}, {phase: "current"}; ip.src in {0.0.0.0/0 ::/0} is every client.
    const skips = zoneNamed('fabrikam-trails.example').security?.custom_rules ?? [];
    // A block rule after them: a skip with nothing after it would skip nothing.
    expect(skips.map((r) => [r.action, r.expression, r.action_parameters])).toEqual([
      ['skip', 'ip.src in {0.0.0.0/0 ::/0}', { phase: 'current' }],
      ['skip', 'ip.src in {0.0.0.0/0 ::/0}', { ruleset: 'current' }],
      ['block', 'http.request.uri.path contains "/wp-login.php"', undefined],
    ]);
    expect(zoneNamed('fabrikam.example').security?.custom_rules?.[0]?.expression).toContain('203.0.113.200/29');
  });

  it('has a record pointing into the IPv6 documentation prefix and a pack initializing without created_on', () => {
    // RFC 9637: 3fff::/20 is for documentation, and the dataset uses it as no stand-in. API facts: a pack being issued may lack dates.
    expect(recordsOf(zoneNamed('fabrikam-trails.example')).some((r) => r.type === 'AAAA' && r.content === '3fff::10')).toBe(true);
    expect(zones.flatMap(recordsOf).filter((r) => (r.content ?? '').toLowerCase().startsWith('3fff:'))).toHaveLength(1);
    const initializing = packsOf(zoneNamed('fabrikam-shop-eu.example')).find((p) => p.status === 'initializing');
    expect(initializing?.created_on).toBeNull();
  });

  it('has an administrator without two-factor, members with it, and an invitation without it', () => {
    // vendor docs: List Members: user.two_factor_authentication_enabled; a pending member is an invitation.
    const acme = data.accounts.find((a) => a.name === 'Acme Bank Group')!;
    const accepted = (acme.members ?? []).filter((m) => (m.status ?? 'accepted') === 'accepted');
    expect(accepted.filter((m) => m.two_factor === false).map((m) => [m.email, m.roles])).toEqual([['ops-contractor@acme-bank.example', ['Administrator']]]);
    expect(accepted.filter((m) => m.two_factor !== false).length).toBeGreaterThan(0);
    expect((acme.members ?? []).filter((m) => m.status === 'pending').map((m) => m.two_factor)).toEqual([false]);
    expect(data.accounts.filter((a) => a !== acme).every((a) => a.members === undefined)).toBe(true);
  });
});
