import { formatApiTime } from '../clock.js';
import { defaultSecurity, type ZoneSecurity } from '../security.js';
import { seededRandom } from '../http/faults.js';
import { fastStableId, mix32, stableId, stableUuid } from '../ids.js';
import { generatedMembers } from '../members.js';
import {
  LazyRecordStore,
  newZone,
  type Account,
  type CertificatePack,
  type DnsRecord,
  type Filter,
  type FirewallRule,
  type Invite,
  type LegacyWaf,
  type OrgState,
  type Plan,
  type WafGroup,
  type WafPackage,
  type Zone,
  FIREWALL_RULE_QUOTA,
} from '../state.js';
import { migratedEntrypoint } from '../waf-mapping.js';

/**
 * A deterministic organisation of any size (`--dataset generated --seed S --accounts A --zones Z
 * --records R`), with realistic spreads: most zones small and a few large (Zipf), mostly free and
 * pro plans, a minority migrated. DNS records are computed from their index when served, so a
 * million records cost no memory and no start-up time. A revision above 0 is the same organisation
 * some nights later: about one DNS record in a hundred has been edited (for drift tests and benchmarks).
 */
export interface GeneratedSize {
  seed: number;
  accounts: number;
  zones: number;
  records: number;
  revision?: number;
}

const DAY = 86_400_000;

/** Splits `total` over `n` buckets by Zipf weights (s = 1), in a seeded random order. */
export function zipfCounts(total: number, n: number, random: () => number): number[] {
  if (n === 0) return [];
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [weights[i], weights[j]] = [weights[j]!, weights[i]!];
  }
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % n, left--) counts[i]!++;
  return counts;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function planFor(random: () => number, enterprise: boolean): Plan {
  const r = random();
  if (enterprise) return r < 0.7 ? 'enterprise' : r < 0.9 ? 'business' : 'pro';
  return r < 0.5 ? 'free' : r < 0.78 ? 'pro' : r < 0.95 ? 'business' : 'enterprise';
}

export function generateOrganisation(size: GeneratedSize, now: Date): OrgState {
  const random = seededRandom(size.seed);
  const at = (daysFromNow: number) => formatApiTime(new Date(now.getTime() + daysFromNow * DAY));
  const accounts: Account[] = Array.from({ length: size.accounts }, (_, i) => ({
    id: stableId('g-account', size.seed, i),
    name: `Generated Account ${String(i + 1).padStart(4, '0')}`,
    type: i % 10 === 0 ? 'enterprise' : 'standard',
    created_on: at(-2000 + i),
    member: true,
  }));
  const partner: Account = { id: stableId('g-account', size.seed, 'partner'), name: 'Generated Partner', type: 'standard', created_on: at(-400), member: false };
  const recordCounts = zipfCounts(size.records, size.zones, random);
  const zones: Zone[] = [];
  for (let j = 0; j < size.zones; j++) {
    // Accounts hold zones unevenly too: the first accounts hold the most.
    const accountIndex = Math.min(size.accounts - 1, Math.floor(size.accounts * (j / size.zones) ** 2));
    zones.push(generateZone(size.seed, j, accounts[accountIndex]!, recordCounts[j]!, now, size.revision ?? 0));
  }
  // Members last, on a random sequence of their own: the zones of a seed stay what they were.
  for (const [i, account] of accounts.entries()) account.members = generatedMembers(size.seed, account.id, i, 'admin@example.com');
  const invites: Invite[] = [0, 1].map((i) => ({
    id: stableId('g-invite', size.seed, i),
    organization_id: partner.id,
    organization_name: partner.name,
    invited_by: `owner${i}@partner.example`,
    invited_member_email: 'admin@example.com',
    invited_on: at(-1 - i),
    expires_on: at(6 - i),
    roles: [{ id: stableId('role', 'administrator'), name: 'Administrator', description: 'Full access' }],
    status: 'pending',
  }));
  return { user: { id: stableId('user', 'admin@example.com'), email: 'admin@example.com' }, accounts: [...accounts, partner], zones, invites };
}

function generateZone(seed: number, index: number, account: Account, recordCount: number, now: Date, revision: number): Zone {
  const random = seededRandom(Number.parseInt(stableId('g-zone', seed, index).slice(0, 8), 16));
  const at = (days: number) => formatApiTime(new Date(now.getTime() + days * DAY));
  const name = `z${String(index).padStart(6, '0')}-${pick(random, ['shop', 'api', 'docs', 'mail', 'blog', 'app', 'cdn', 'portal'])}.example`;
  const id = stableId('g-zone', seed, name);
  const plan = planFor(random, account.type === 'enterprise');
  const created = at(-30 - Math.floor(random() * 1500));
  const status = random() < 0.02 ? 'pending' : 'active';
  const zone = newZone({ id, name, status, accountId: account.id, plan, created_on: created, modified_on: created, activated_on: status === 'active' ? created : null }, {
    paused: random() < 0.01,
    dns: new LazyRecordStore(recordCount, (i) => revised(generateRecord(seed, index, name, i, created), revision, at(-1))),
    certificatePacks: generatePacks(random, seed, id, name, at),
    security: generateSecurity(seed, name, created),
  });

  generateFirewall(random, zone, seed);
  if (plan !== 'free') zone.waf = generateWaf(random, zone);
  const r = random();
  const state = r < 0.25 ? 'complete' : r < 0.3 && plan === 'enterprise' ? 'validation' : 'start';
  if (state !== 'start') {
    zone.waf.overrides = [];
    const since = at(-Math.floor(random() * 60));
    zone.migration = { state, since, source: 'api', entrypoint: migratedEntrypoint(zone, since) };
  }
  return zone;
}

/** Where every generated zone's mail goes: a host of the world's mail provider (dns/world.ts). */
const GENERATED_MAIL_HOST = 'mx1.mailhost.example.net';

const SUBDOMAINS = ['www', 'api', 'mail', 'static', 'img', 'app', 'admin', 'vpn', 'dev', 'staging'];

/** The record as edited by revision `revision`: about one in a hundred changes its TTL and comment each revision. */
function revised(record: DnsRecord, revision: number, editedOn: string): DnsRecord {
  for (let r = revision; r > 0; r--) {
    if (mix32(Number.parseInt(record.id.slice(16, 24), 16) ^ mix32(r)) % 100 === 0) return { ...record, ttl: 300 + r, comment: `edited in revision ${r}`, modified_on: editedOn };
  }
  return record;
}

/** Record i of a zone, the same every time it is asked for. */
function generateRecord(seed: number, zoneIndex: number, zone: string, i: number, created: string): DnsRecord {
  const id = fastStableId(seed, zoneIndex, i);
  const bits = mix32(mix32(seed + zoneIndex) ^ i);
  const roll = (bits >>> 16) / 0x10000;
  const octet = bits & 0xff;
  const record = (type: string, name: string, content: string, proxied: boolean, priority?: number): DnsRecord => {
    const r: DnsRecord = { id, type, name, content, proxiable: type === 'A' || type === 'AAAA' || type === 'CNAME', proxied, ttl: 1, comment: null, tags: [], created_on: created, modified_on: created };
    if (priority !== undefined) r.priority = priority;
    return r;
  };
  switch (i) {
    case 0:
      return record('A', zone, `203.0.113.${octet}`, true);
    case 1:
      return record('CNAME', `www.${zone}`, zone, true);
    case 2:
      // At a mail provider whose host exists in the emulator's DNS world: an MX target must resolve
      // to an address (RFC 5321 5.1), and one that does not is what dns-dangling-target reports.
      return record('MX', zone, GENERATED_MAIL_HOST, false, 10);
    case 3:
      return record('TXT', zone, 'v=spf1 include:_spf.example.net ~all', false);
  }
  const host = `${SUBDOMAINS[octet % SUBDOMAINS.length]}-${i}.${zone}`;
  // A few origins sit in private ranges, as misconfigured zones do.
  if (roll < 0.55) return record('A', host, roll < 0.005 ? `10.0.${octet}.${i % 250}` : `198.51.100.${octet}`, roll < 0.4);
  if (roll < 0.7) return record('AAAA', host, `2001:db8::${(octet * 256 + (i % 256)).toString(16)}`, roll < 0.65);
  if (roll < 0.85) return record('CNAME', host, `origin-${octet}.hosting.example.net`, roll < 0.8);
  return record('TXT', host, `verification=${id}`, false);
}

function generatePacks(random: () => number, seed: number, zoneId: string, zone: string, at: (days: number) => string): CertificatePack[] {
  const pack = (i: number, type: string, hosts: string[], status: string, validity: number, expiresIn: number): CertificatePack => {
    const certId = stableUuid('g-cert', seed, zone, i);
    const issued = at(expiresIn - validity);
    return {
      id: stableUuid('g-pack', seed, zone, i),
      type,
      hosts,
      primary_certificate: certId,
      status,
      certificates: [
        {
          id: certId,
          hosts,
          issuer: type === 'universal' ? 'GoogleTrustServices' : 'LetsEncrypt',
          signature: 'ECDSAWithSHA256',
          status,
          bundle_method: 'ubiquitous',
          zone_id: zoneId,
          uploaded_on: issued,
          modified_on: issued,
          expires_on: at(expiresIn),
          priority: 0,
        },
      ],
      created_on: issued,
      validity_days: validity,
      validation_method: 'txt',
      certificate_authority: type === 'universal' ? 'google' : 'lets_encrypt',
    };
  };
  const packs = [pack(0, 'universal', [zone, `*.${zone}`], 'active', 90, 1 + Math.floor(random() * 89))];
  const r = random();
  if (r < 0.2) packs.push(pack(1, 'advanced', [zone, `api.${zone}`], 'active', pick(random, [14, 30, 90, 365]), Math.floor(random() * 30) - 3));
  else if (r < 0.23) packs.push(pack(1, 'advanced', [`*.app.${zone}`], pick(random, ['pending_validation', 'validation_timed_out']), 90, 90));
  return packs;
}

function generateFirewall(random: () => number, zone: Zone, seed: number): void {
  const quota = FIREWALL_RULE_QUOTA[zone.plan];
  const count = random() < 0.01 ? quota : Math.min(quota, Math.floor(random() * 6));
  for (let i = 0; i < count; i++) {
    const filter: Filter = {
      id: stableId('g-filter', seed, zone.name, i),
      expression: i % 2 === 0 ? `ip.src eq 198.51.100.${i % 250}` : `http.request.uri.path contains "/blocked-${i}"`,
      paused: random() < 0.03,
      description: '',
    };
    zone.filters.set(filter.id, filter);
    const rule: FirewallRule = {
      id: stableId('g-rule', seed, zone.name, i),
      action: pick(random, ['block', 'block', 'managed_challenge', 'challenge', 'log', 'allow']),
      priority: null,
      paused: random() < 0.05,
      description: `Generated rule ${i}`,
      filterId: filter.id,
      created_on: zone.created_on,
      modified_on: zone.created_on,
    };
    zone.firewallRules.set(rule.id, rule);
  }
  if (random() < 0.05) {
    const orphan: Filter = { id: stableId('g-filter', seed, zone.name, 'orphan'), expression: 'http.host eq "old.example"', paused: false, description: 'left over' };
    zone.filters.set(orphan.id, orphan);
  }
}

function generateWaf(random: () => number, zone: Zone): LegacyWaf {
  const group = (pkg: WafPackage, name: string, anomaly: boolean, ruleIds: number[]): WafGroup => {
    const id = stableId('waf-group', zone.name, pkg.name, name);
    const default_mode = anomaly ? 'on' : 'block';
    return {
      id,
      name,
      description: '',
      mode: random() < 0.05 ? 'off' : 'on',
      default_mode: 'on',
      allowed_modes: ['on', 'off'],
      package_id: pkg.id,
      rules: ruleIds.map((rid, i) => ({
        id: String(rid),
        description: `${name} rule ${rid}`,
        priority: String(i + 1),
        default_mode,
        mode: random() < 0.03 ? (anomaly ? 'off' : 'simulate') : default_mode,
        allowed_modes: anomaly ? ['on', 'off'] : ['default', 'disable', 'simulate', 'block', 'challenge'],
        group: { id, name },
        package_id: pkg.id,
      })),
    };
  };
  const managed: WafPackage = {
    id: stableId('waf-package', zone.name, 'Cloudflare Managed Ruleset'),
    name: 'Cloudflare Managed Ruleset',
    description: 'Created by the Cloudflare security team, this ruleset is designed to provide fast and effective protection for all your applications.',
    detection_mode: 'traditional',
    zone_id: zone.id,
    status: 'active',
    groups: [],
  };
  managed.groups = [group(managed, 'Cloudflare Specials', false, [100001, 100002, 100003]), group(managed, 'Cloudflare WordPress', false, [100100, 100101])];
  const owasp: WafPackage = {
    id: stableId('waf-package', zone.name, 'OWASP ModSecurity Core Rule Set'),
    name: 'OWASP ModSecurity Core Rule Set',
    description: 'OWASP Core Ruleset is a set of rules to protect against the most common attacks.',
    detection_mode: 'anomaly',
    zone_id: zone.id,
    status: 'active',
    sensitivity: pick(random, ['high', 'high', 'medium', 'low', 'off'] as const),
    action_mode: pick(random, ['challenge', 'block', 'simulate'] as const),
    groups: [],
  };
  owasp.groups = [group(owasp, 'OWASP Bad Robots', true, [990002, 990012]), group(owasp, 'OWASP XSS Attacks', true, [958000, 958001, 958002])];
  const overrides =
    zone.plan === 'enterprise' && random() < 0.05
      ? [{ id: stableId('waf-override', zone.name, 0), description: 'Relax admin paths', urls: [`${zone.name}/admin/*`], priority: 1, paused: false, groups: {}, rules: { '100001': 'disable' }, rewrite_action: {} }]
      : [];
  return { enabled: random() < 0.9, packages: [managed, owasp], overrides };
}

/**
 * Security settings drawn from a hash of the zone (not from the zone's random sequence, so the rest
 * of a generated organisation is what it was): about half the zones hardened with DNSSEC active,
 * a tenth on flexible SSL, the rest on the vendor's defaults.
 */
function generateSecurity(seed: number, name: string, created: string): ZoneSecurity {
  const security = defaultSecurity(created);
  const draw = Number.parseInt(stableId('g-security', seed, name).slice(0, 8), 16) / 2 ** 32;
  if (draw < 0.5) {
    Object.assign(security.settings, {
      ssl: 'strict',
      min_tls_version: '1.2',
      always_use_https: 'on',
      security_header: { strict_transport_security: { enabled: true, max_age: 31_536_000, include_subdomains: true, preload: false, nosniff: true } },
    });
    security.dnssec = { status: 'active', modified_on: created };
  } else if (draw < 0.6) {
    security.settings.ssl = 'flexible';
  }
  return security;
}
