import { zoneChange, type AuditActor, type Change } from './audit-log.js';
import { formatApiTime } from './clock.js';
import { seededRandom } from './http/faults.js';
import { mix32, stableId, stableUuid } from './ids.js';
import { botManagementAnswer, botProduct, customRuleset, type SettingId } from './security.js';
import * as serialize from './serialize.js';
import { newZone, type Organisation, type Plan, type Zone } from './state.js';

/**
 * The night control, for tests of incremental scans: the clock moves a day ahead and a share of the
 * zones changes as through the dashboard, each change in the audit log, so that every kind of read
 * a night can carry forward sees one. Certificate renewals are not logged (api-facts: assume they
 * are not). Deterministic: the same dataset, seed and night number make the same changes.
 */

export interface NightOptions {
  /** Share of the zones changed during the night, 0 to 1. Default 0.02. */
  share?: number;
  /** Picks which zones change and how. Default 1. */
  seed?: number;
  /** Only these kinds of change, each as often as the others. Default: every kind, by WEIGHTS. */
  kinds?: NightChangeKind[];
}

export const NIGHT_CHANGES = ['dns_record', 'bot_management', 'origin_pulls', 'certificate_pack', 'setting', 'custom_rules', 'paused', 'plan', 'zone_added', 'zone_removed'] as const;
export type NightChangeKind = (typeof NIGHT_CHANGES)[number];

export interface NightChange {
  zone_id: string;
  zone_name: string;
  account_id: string;
  change: NightChangeKind;
  description: string;
}

export interface NightRenewal {
  zone_id: string;
  zone_name: string;
  pack_id: string;
  certificate_id: string;
  expires_on: string;
}

export interface NightReport {
  night: number;
  share: number;
  seed: number;
  /** The day that passed: [from, to). */
  from: string;
  to: string;
  /** Zones there were when the night began. */
  zones: number;
  /** One per changed zone, in the order of the changes (a zone added counts as the zone changed). */
  changed: NightChange[];
  /** Certificates the vendor renewed: no audit log entry. */
  renewed: NightRenewal[];
}

export class NightOptionError extends Error {}

const DAY_MS = 86_400_000;

/**
 * How often each change is drawn (out of 100); one a zone cannot take falls back to a DNS edit. The
 * kinds added later took part of the DNS edits' range and draw as many numbers, so seeds keep their zones.
 */
const WEIGHTS: Array<[NightChangeKind, number]> = [
  ['dns_record', 28],
  ['bot_management', 4],
  ['origin_pulls', 4],
  ['certificate_pack', 4],
  ['setting', 20],
  ['custom_rules', 15],
  ['paused', 8],
  ['plan', 7],
  ['zone_added', 5],
  ['zone_removed', 5],
];

/** Settings the night flips, between the values owners move them to. */
const SETTING_FLIPS: Array<[Exclude<SettingId, 'waf' | 'security_header'>, (v: unknown) => string]> = [
  ['always_use_https', (v) => (v === 'on' ? 'off' : 'on')],
  ['min_tls_version', (v) => (v === '1.2' ? '1.0' : '1.2')],
  ['security_level', (v) => (v === 'high' ? 'medium' : 'high')],
  ['browser_check', (v) => (v === 'on' ? 'off' : 'on')],
  ['ssl', (v) => (v === 'strict' ? 'full' : 'strict')],
];

const PLAN_STEPS: Record<Plan, Plan> = { free: 'pro', pro: 'business', business: 'enterprise', enterprise: 'business' };

const NIGHT_OPTIONS: ReadonlySet<string> = new Set(['share', 'seed', 'kinds']);

function readOptions(options: NightOptions): { share: number; seed: number; weights: Array<[NightChangeKind, number]> } {
  // A misspelt option would otherwise run a default night that the caller did not ask for.
  const unknown = Object.keys(options).find((key) => !NIGHT_OPTIONS.has(key));
  if (unknown !== undefined) throw new NightOptionError(`unknown option "${unknown.slice(0, 40)}": a night takes share (0 to 1), seed (a whole number) and kinds (a list of changes)`);
  const share = options.share ?? 0.02;
  const seed = options.seed ?? 1;
  if (typeof share !== 'number' || !Number.isFinite(share) || share < 0 || share > 1) throw new NightOptionError(`share must be a number from 0 to 1; got ${String(share)}`);
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) throw new NightOptionError(`seed must be a whole number; got ${String(seed)}`);
  return { share, seed, weights: readKinds(options.kinds) };
}

/** The kinds a night draws from: every kind by its weight, or the ones asked for, alike. */
function readKinds(kinds: unknown): Array<[NightChangeKind, number]> {
  if (kinds === undefined) return WEIGHTS;
  const known: ReadonlySet<string> = new Set(NIGHT_CHANGES);
  if (!Array.isArray(kinds) || kinds.length === 0 || !kinds.every((k) => typeof k === 'string' && known.has(k))) {
    throw new NightOptionError(`kinds must be a non-empty list of ${NIGHT_CHANGES.join(', ')}`);
  }
  return [...new Set(kinds as NightChangeKind[])].map((k) => [k, 1]);
}

/** The dataset's user, at the dashboard: who makes the night's changes. */
export function dashboardActor(org: Organisation): AuditActor {
  const { user } = org.state;
  // Emulator: an address of the documentation range (RFC 5737), the office the owner works from.
  return { id: user.id, context: 'dash', email: user.email, ip_address: '198.51.100.23', token_id: '', token_name: '', type: 'user' };
}

/** Logs a change as the dashboard's write of it, answered 200. */
export function logDashboardWrite(org: Organisation, change: Change, method: string, path: string, at: Date): void {
  org.audit.append(org, change, { actor: dashboardActor(org), method, uri: `/client/v4${path}`, userAgent: 'Mozilla/5.0 (zonewarden emulator dashboard)', statusCode: 200 }, at);
}

/** A plan move the zone can take: Enterprise-only state (validation mode, URI overrides) keeps Enterprise. */
function nextPlan(zone: Zone): Plan | null {
  if (zone.plan === 'enterprise' && (zone.migration.state === 'validation' || zone.waf.overrides.length > 0)) return null;
  return PLAN_STEPS[zone.plan];
}

function drawKind(random: () => number, zone: Zone, weights: Array<[NightChangeKind, number]>): NightChangeKind {
  let roll = random() * weights.reduce((sum, [, w]) => sum + w, 0);
  for (const [kind, weight] of weights) {
    roll -= weight;
    if (roll < 0) return kind === 'plan' && !nextPlan(zone) ? 'dns_record' : kind;
  }
  return 'dns_record';
}

class Night {
  readonly changed: NightChange[] = [];
  /** The change being applied, for the report. */
  private kind: NightChangeKind = 'dns_record';

  constructor(
    readonly org: Organisation,
    readonly number: number,
    readonly seed: number,
    readonly random: () => number,
  ) {}

  log(change: Change, method: string, path: string, at: Date): void {
    logDashboardWrite(this.org, change, method, path, at);
    const zone = change.zone!;
    this.changed.push({ zone_id: zone.id, zone_name: zone.name, account_id: zone.accountId, change: this.kind, description: change.description });
  }

  apply(zone: Zone, kind: NightChangeKind, index: number, at: Date): void {
    this.kind = kind;
    const iso = formatApiTime(at);
    switch (kind) {
      case 'dns_record':
        return this.dnsRecord(zone, at, iso);
      case 'setting':
        return this.setting(zone, at, iso);
      case 'bot_management':
        return this.botSettings(zone, at);
      case 'origin_pulls':
        return this.originPulls(zone, at);
      case 'certificate_pack':
        return this.certificatePack(zone, at);
      case 'custom_rules':
        return this.customRules(zone, at, iso);
      case 'paused':
        zone.paused = !zone.paused;
        return this.zonePatched(zone, `Zone ${zone.paused ? 'paused' : 'unpaused'}`, { paused: zone.paused }, at);
      case 'plan':
        zone.plan = nextPlan(zone)!;
        return this.zonePatched(zone, `Zone plan changed to ${zone.plan}`, { plan: { id: serialize.planId(zone) } }, at);
      case 'zone_removed':
        this.log(zoneChange(zone, { type: 'delete', product: 'zones', resourceType: 'zone', resourceId: zone.id, description: 'Zone deleted', request: null, response: { id: zone.id } }), 'DELETE', `/zones/${zone.id}`, at);
        return this.org.removeZone(zone);
      case 'zone_added': {
        const added = this.newZone(zone.accountId, index, iso);
        this.org.addZone(added);
        const request = { name: added.name, account: { id: added.accountId }, type: added.type };
        return this.log(zoneChange(added, { type: 'create', product: 'zones', resourceType: 'zone', resourceId: added.id, description: 'Zone created', request, response: serialize.zone(added, this.org) }), 'POST', '/zones', at);
      }
    }
  }

  /** The owner's PATCH of the zone itself (paused, plan), modified now. */
  private zonePatched(zone: Zone, description: string, request: unknown, at: Date): void {
    zone.modified_on = formatApiTime(at);
    const change = { type: 'update', product: 'zones', resourceType: 'zone', resourceId: zone.id, description, request, response: serialize.zone(zone, this.org) } as const;
    this.log(zoneChange(zone, change), 'PATCH', `/zones/${zone.id}`, at);
  }

  private dnsRecord(zone: Zone, at: Date, iso: string): void {
    if (zone.dns.size === 0) {
      const record = { id: stableId('night-record', this.seed, this.number, zone.id), type: 'A', name: `night-${this.number}.${zone.name}`, content: '192.0.2.80', proxiable: true, proxied: true, ttl: 1, comment: null, tags: [], created_on: iso, modified_on: iso };
      this.org.addDnsRecord(zone, record);
      const request = { type: record.type, name: record.name, content: record.content, proxied: true };
      return this.log(zoneChange(zone, { type: 'create', product: 'dns_records', resourceType: 'dns_record', resourceId: record.id, description: 'DNS record created', request, response: record }), 'POST', `/zones/${zone.id}/dns_records`, at);
    }
    const index = Math.floor(this.random() * zone.dns.size);
    const before = zone.dns.at(index);
    const record = { ...before, ttl: before.ttl === 300 ? 3600 : 300, comment: `changed on night ${this.number}`, modified_on: iso };
    this.org.replaceDnsRecord(zone, index, record);
    const request = { ttl: record.ttl, comment: record.comment };
    this.log(zoneChange(zone, { type: 'update', product: 'dns_records', resourceType: 'dns_record', resourceId: record.id, description: 'DNS record updated', request, response: record }), 'PATCH', `/zones/${zone.id}/dns_records/${record.id}`, at);
  }

  private setting(zone: Zone, at: Date, iso: string): void {
    const [id, flip] = SETTING_FLIPS[Math.floor(this.random() * SETTING_FLIPS.length)]!;
    const value = flip(zone.security.settings[id]);
    zone.security.settings[id] = value;
    zone.security.modified[id] = iso;
    const response = { id, value, editable: true, modified_on: iso };
    this.log(zoneChange(zone, { type: 'update', product: 'zone_settings', resourceType: 'zone_setting', resourceId: id, description: `Zone setting ${id} changed to ${value}`, request: { value }, response }), 'PATCH', `/zones/${zone.id}/settings/${id}`, at);
  }

  /** The bot product's main switch or AI bots blocking, in one `PUT /bot_management` (vendor's API reference). */
  private botSettings(zone: Zone, at: Date): void {
    const bots = zone.security.bots;
    const product = botProduct(zone.plan, bots.subscription);
    let request: Record<string, unknown>;
    if (this.random() < 0.5) {
      bots.ai_bots_protection = bots.ai_bots_protection === 'block' ? 'disabled' : 'block';
      request = { ai_bots_protection: bots.ai_bots_protection };
    } else if (product === 'bot_fight_mode') {
      bots.fight_mode = !bots.fight_mode;
      request = { fight_mode: bots.fight_mode };
    } else if (product === 'bot_management') {
      bots.auto_update_model = !bots.auto_update_model;
      // vendor docs (machine learning models): turning auto-updates on moves the zone to the latest model at once.
      if (bots.auto_update_model) bots.using_latest_model = true;
      request = { auto_update_model: bots.auto_update_model };
    } else {
      bots.sbfm_definitely_automated = bots.sbfm_definitely_automated === 'block' ? 'allow' : 'block';
      request = { sbfm_definitely_automated: bots.sbfm_definitely_automated };
    }
    const response = botManagementAnswer(zone.plan, bots);
    const description = `Bot management settings updated (${Object.keys(request).join(', ')})`;
    this.log(zoneChange(zone, { type: 'update', product: 'bot_management', resourceType: 'bot_management', resourceId: zone.id, description, request, response }), 'PUT', `/zones/${zone.id}/bot_management`, at);
  }

  /** Zone-level authenticated origin pulls turned on or off (vendor's API reference). */
  private originPulls(zone: Zone, at: Date): void {
    // One draw, as a DNS edit makes, whatever it is used for: the nights after draw as before.
    this.random();
    zone.security.originPulls = !zone.security.originPulls;
    const body = { enabled: zone.security.originPulls };
    const description = `Zone-level authenticated origin pulls ${body.enabled ? 'enabled' : 'disabled'}`;
    this.log(zoneChange(zone, { type: 'update', product: 'ssl', resourceType: 'origin_tls_client_auth', resourceId: zone.id, description, request: body, response: body }), 'PUT', `/zones/${zone.id}/origin_tls_client_auth/settings`, at);
  }

  /**
   * An advanced certificate pack deleted, or else one ordered for the zone and its wildcard, which
   * starts `initializing` without certificates (vendor's API reference; a captured answer).
   */
  private certificatePack(zone: Zone, at: Date): void {
    const advanced = zone.certificatePacks.filter((p) => p.type === 'advanced');
    const roll = this.random();
    if (advanced.length > 0) {
      const pack = advanced[Math.floor(roll * advanced.length)]!;
      zone.certificatePacks = zone.certificatePacks.filter((p) => p !== pack);
      const change = zoneChange(zone, { type: 'delete', product: 'ssl', resourceType: 'certificate_pack', resourceId: pack.id, description: 'Certificate pack deleted', request: null, response: { id: pack.id } });
      return this.log(change, 'DELETE', `/zones/${zone.id}/ssl/certificate_packs/${pack.id}`, at);
    }
    const ca = roll < 0.5 ? 'lets_encrypt' : 'google';
    const hosts = [zone.name, `*.${zone.name}`];
    const pack = { id: stableUuid('night-pack', this.seed, this.number, zone.id), type: 'advanced', hosts, primary_certificate: '', status: 'initializing', certificates: [], validity_days: 90, validation_method: 'txt', certificate_authority: ca };
    zone.certificatePacks = [...zone.certificatePacks, pack];
    const request = { type: 'advanced', hosts, validation_method: 'txt', validity_days: 90, certificate_authority: ca, cloudflare_branding: false };
    const response = { id: pack.id, type: 'advanced', hosts, status: 'initializing', validation_method: 'txt', validity_days: 90, certificate_authority: ca, cloudflare_branding: false };
    this.log(zoneChange(zone, { type: 'create', product: 'ssl', resourceType: 'certificate_pack', resourceId: pack.id, description: 'Advanced certificate pack ordered', request, response }), 'POST', `/zones/${zone.id}/ssl/certificate_packs/order`, at);
  }

  private customRules(zone: Zone, at: Date, iso: string): void {
    const path = `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    const current = zone.security.customRules;
    if (!current) {
      const rule = { action: 'block', expression: `ip.src eq 192.0.2.${(this.number % 250) + 1}`, description: `Blocked on night ${this.number}`, enabled: true };
      const ruleset = customRuleset(zone.name, iso, [rule]);
      zone.security.customRules = ruleset;
      return this.log(zoneChange(zone, { type: 'create', product: 'rulesets', resourceType: 'ruleset', resourceId: ruleset.id, description: 'Ruleset http_request_firewall_custom entry point created', request: { rules: [rule] }, response: ruleset }), 'PUT', path, at);
    }
    const version = String(Number(current.version) + 1);
    const first = current.rules[0];
    const rules = first
      ? [{ ...first, enabled: !first.enabled, version, last_updated: iso }, ...current.rules.slice(1)]
      : [{ id: stableId('night-rule', this.seed, this.number, zone.id), ref: stableId('night-ref', this.seed, this.number, zone.id), action: 'block', expression: 'ip.src eq 192.0.2.1', description: `Blocked on night ${this.number}`, enabled: true, version, last_updated: iso }];
    const ruleset = { ...current, version, last_updated: iso, rules };
    zone.security.customRules = ruleset;
    this.log(zoneChange(zone, { type: 'update', product: 'rulesets', resourceType: 'ruleset', resourceId: ruleset.id, description: 'Ruleset http_request_firewall_custom entry point updated', request: { rules: rules.map(({ action, expression, description, enabled }) => ({ action, expression, description, enabled })) }, response: ruleset }), 'PUT', path, at);
  }

  /** A zone just added: pending until its name servers change, on the Free plan, born on the new managed rules. */
  private newZone(accountId: string, index: number, iso: string): Zone {
    const id = stableId('night-zone', this.seed, this.number, index);
    const head = { id, name: `added-${id.slice(0, 10)}.example`, status: 'pending', accountId, plan: 'free', created_on: iso, modified_on: iso, activated_on: null } as const;
    return newZone(head, { migration: { state: 'none', since: iso, source: 'api', entrypoint: null } });
  }
}

/** The vendor renews active universal and advanced certificates near their expiry. Not logged. */
function renewCertificates(org: Organisation, at: Date): NightRenewal[] {
  const renewed: NightRenewal[] = [];
  const iso = formatApiTime(at);
  for (const zone of org.state.zones) {
    for (const pack of zone.certificatePacks) {
      if ((pack.type !== 'universal' && pack.type !== 'advanced') || pack.status !== 'active') continue;
      // Emulator: renewed within 30 days of expiry, or a third of the validity if shorter (not a 14-day one every night).
      const windowMs = Math.min(30 * DAY_MS, (pack.validity_days * DAY_MS) / 3);
      for (const cert of pack.certificates) {
        if (cert.expires_on === undefined || Date.parse(cert.expires_on) - at.getTime() > windowMs) continue;
        cert.expires_on = formatApiTime(new Date(at.getTime() + pack.validity_days * DAY_MS));
        cert.uploaded_on = iso;
        cert.modified_on = iso;
        renewed.push({ zone_id: zone.id, zone_name: zone.name, pack_id: pack.id, certificate_id: cert.id, expires_on: cert.expires_on });
      }
    }
  }
  return renewed;
}

/** Advances the emulator by one night (see the file's comment) and says what changed. */
export function advanceNight(org: Organisation, options: NightOptions = {}): NightReport {
  const { share, seed, weights } = readOptions(options);
  const fromMs = org.clock.now().getTime();
  org.clock.advance(DAY_MS);
  const number = ++org.nights;
  const random = seededRandom(mix32(seed >>> 0) ^ mix32(Math.imul(number, 0x9e3779b1)));
  // By id, so the pick does not depend on the order zones were added or listed in.
  const zones = [...org.state.zones].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const count = Math.round(share * zones.length);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (zones.length - i));
    [zones[i], zones[j]] = [zones[j]!, zones[i]!];
  }
  const night = new Night(org, number, seed, random);
  // Spread over the day, in order, each strictly inside [from, from + 1 day).
  const step = DAY_MS / (count + 2);
  zones.slice(0, count).forEach((zone, k) => night.apply(zone, drawKind(random, zone, weights), k, new Date(fromMs + Math.floor((k + 1) * step))));
  const renewed = renewCertificates(org, new Date(fromMs + Math.floor((count + 1) * step)));
  org.touch();
  return {
    night: number,
    share,
    seed,
    from: formatApiTime(new Date(fromMs)),
    to: formatApiTime(new Date(fromMs + DAY_MS)),
    zones: zones.length,
    changed: night.changed,
    renewed,
  };
}
