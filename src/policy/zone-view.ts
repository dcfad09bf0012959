import type { DnsRecordFields, FilterRow, FirewallRuleRow, RawRow, Readout } from '../snapshot/reader.js';
import type { SnapshotReader, ZoneObjectPartition, ZoneRow } from '../snapshot/reader.js';

// A DNS record as dnsRecords() hands it to the rules: part of the view's vocabulary.
export type { DnsRecordFields };
import { parseCertificatePack, type CertificatePack } from '../cloudflare/ssl/certificate-pack.js';
import { parseFilterDescription, parseFirewallRuleDetail, type FirewallRuleDetail } from '../cloudflare/firewall/firewall-rule.js';
import { parseMigrationCheck, parseManagedRulesConfig, parseMigrationStatus, type ManagedRulesConfig, type MigrationCheck, type MigrationStatus } from '../cloudflare/waf-migration/models.js';
import { parseWafGroup, parseWafOverride, parseWafPackage, parseWafRule, type WafOverride, type WafPackage, type WafSetting } from '../cloudflare/legacy-waf/models.js';
import type { Named, ResourceRef } from './resource-ref.js';
import { parseJson } from '../cloudflare/fields.js';
import { parsePageShield, type PageShieldSettings } from '../cloudflare/page-shield/client-side.js';
import { parseSecurityTxt, type SecurityTxt } from '../cloudflare/security-center/security-txt.js';
import type { ZoneSetting } from '../api/endpoints.js';
import { parseBotManagement, type BotManagement } from '../cloudflare/bot-management/bot-management.js';
import { parseDnssec, type Dnssec } from '../cloudflare/dns/dnssec.js';
import { parseEntrypoint, type Entrypoint } from '../cloudflare/rulesets/entrypoint.js';
import { parseOriginPulls, parseUniversalSsl } from '../cloudflare/ssl/switches.js';
import { parseZoneSetting, type ZoneSettingValue } from '../cloudflare/zone-settings/setting.js';
import { migratesAsBypass } from '../cloudflare/waf-migration/carry.js';
import { migrationOf, type Migration } from '../cloudflare/waf-migration/preview.js';
import { isDnsTargetItem, type DnsTargetItem } from '../common/dns-target-answer.js';
import { originAnsweredAs, publicDnsIsHere } from '../cloudflare/zones/zone-setup.js';

/** One zone of a scan as the rules see it: each list read at most once, shared by the zone's rules, dropped with the view. */

export type FirewallRule = FirewallRuleRow & FirewallRuleDetail;
export type Filter = FilterRow & { description: string | null };

export function mapReadout<A, B>(r: Readout<A>, f: (a: A) => B): Readout<B> {
  return r.known ? { known: true, items: r.items.map(f) } : r;
}

/** The single object of a readout, or null when the API answered "there is none". */
export type ObjectReadout<T> = { known: true; value: T | null } | { known: false; state: string; reason: string };

function single<A, B>(r: Readout<A>, f: (a: A) => B): ObjectReadout<B> {
  if (!r.known) return r;
  const first = r.items[0];
  return { known: true, value: first === undefined ? null : f(first) };
}

export class ZoneView {
  private readonly cache = new Map<string, unknown>();
  readonly resource: ResourceRef;

  constructor(
    private readonly reader: SnapshotReader,
    readonly zone: ZoneRow,
    readonly account: Named | null,
    /** Where the audit keeps every zone's client-side security settings (SnapshotView.pageShieldOf), read once for its zone and organisation rules alike. */
    private readonly pageShieldOf?: (zoneId: string) => ObjectReadout<PageShieldSettings>,
  ) {
    this.resource = { type: 'zone', id: zone.id, name: zone.name };
  }

  get id(): string {
    return this.zone.id;
  }

  get name(): string {
    return this.zone.name;
  }

  /** The plan's legacy id (free, pro, business, enterprise), or null. */
  get plan(): string | null {
    return this.zone.plan;
  }

  /** Why the zone's DNS answers proxied records with their origin (paused, pending...); null when the proxy serves them. */
  get originAnsweredAs(): string | null {
    return originAnsweredAs(this.zone.status, this.zone.paused);
  }

  private memo<T>(key: string, load: () => T): T {
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const value = load();
    this.cache.set(key, value);
    return value;
  }

  /** A single-object read of the zone, parsed once. */
  private object<T>(partition: ZoneObjectPartition, parse: (raw: string) => T): ObjectReadout<T> {
    return this.memo(partition, () => single(this.reader.zoneObject(this.zone.id, partition), (r) => parse(r.raw)));
  }

  dnsRecords(): Readout<DnsRecordFields> {
    return this.memo('dns', () => this.reader.dnsRecordFields(this.zone.id));
  }

  /** The names the zone's CNAME, MX, NS and SRV records point at, as the scan resolved them (one each; see crawler/reads/dns-targets.ts). */
  dnsTargets(): Readout<DnsTargetItem> {
    return this.memo('dnsTargets', () => {
      const r = this.reader.zoneObject(this.zone.id, 'dns_targets');
      return r.known ? { known: true, items: r.items.map((i) => JSON.parse(i.raw) as unknown).filter(isDnsTargetItem) } : r;
    });
  }

  /** Another zone's DNS records in this scan, for a rule that follows a name into it (read on each call: the caller keeps them). */
  dnsRecordsOf(zoneId: string): Readout<DnsRecordFields> {
    return zoneId === this.zone.id ? this.dnsRecords() : this.reader.dnsRecordFields(zoneId);
  }

  certificatePacks(): Readout<CertificatePack> {
    return this.memo('packs', () => mapReadout(this.reader.certificatePacks(this.zone.id), (r) => parseCertificatePack(r.id, r.raw)));
  }

  firewallRules(): Readout<FirewallRule> {
    return this.memo('rules', () => mapReadout(this.reader.firewallRules(this.zone.id), (r) => ({ ...r, ...parseFirewallRuleDetail(r.raw) })));
  }

  filters(): Readout<Filter> {
    return this.memo('filters', () => mapReadout(this.reader.filters(this.zone.id), (f) => ({ ...f, description: parseFilterDescription(f.raw) })));
  }

  /** Each firewall rule with the expression it runs: its filter's, else the copy inline in the rule. */
  ruleExpressions(): Readout<{ rule: FirewallRule; filter: Filter | null; expression: string | null }> {
    return this.memo('expressions', () => {
      const rules = this.firewallRules();
      if (!rules.known) return rules;
      const filters = this.filters();
      const byId = new Map(filters.known ? filters.items.map((f) => [f.id, f]) : []);
      return {
        known: true,
        items: rules.items.map((rule) => {
          const filter = rule.filterId ? (byId.get(rule.filterId) ?? null) : null;
          return { rule, filter, expression: filter?.expression ?? rule.inlineExpression };
        }),
      };
    });
  }

  /** The firewall rules the migration carries (bypass of the previous managed rules), with their expressions. */
  bypassRulesToMigrate(): ReturnType<ZoneView['ruleExpressions']> {
    return this.memo('bypass', () => {
      const all = this.ruleExpressions();
      return all.known ? { known: true, items: all.items.filter((e) => migratesAsBypass(e.rule)) } : all;
    });
  }

  /** The new configuration GET waf_migration/config answered: what the migration would deploy. */
  migrationConfig(): ObjectReadout<ManagedRulesConfig> { return this.object('migration_config', parseManagedRulesConfig); }

  migrationStatus(): ObjectReadout<MigrationStatus> { return this.object('migration_status', parseMigrationStatus); }

  migrationCheck(): ObjectReadout<MigrationCheck> { return this.object('migration_check', parseMigrationCheck); }

  wafPackages(): Readout<WafPackage> { return this.legacyWaf('wafPackages', (r) => parseWafPackage(r.id, r.raw)); }
  wafGroups(): Readout<WafSetting> { return this.legacyWaf('wafGroups', (r) => parseWafGroup(r.raw)); }
  wafRules(): Readout<WafSetting> { return this.legacyWaf('wafRules', (r) => parseWafRule(r.raw)); }
  wafOverrides(): Readout<WafOverride> { return this.legacyWaf('wafOverrides', (r) => parseWafOverride(r.id, r.raw)); }

  /** A list of the previous managed rules, which come with Pro and above: a Free zone's, not asked for, are known to be none. */
  private legacyWaf<T>(list: 'wafPackages' | 'wafGroups' | 'wafRules' | 'wafOverrides', parse: (r: RawRow) => T): Readout<T> {
    return this.memo(list, () => {
      const read = this.reader[list](this.zone.id);
      return !read.known && read.state === 'skipped' && this.zone.plan === 'free' ? { known: true, items: [] } : mapReadout(read, parse);
    });
  }

  /** The zone's settings that were read, by id (the scan reads those the rules declare). */
  private settings(): Readout<ZoneSettingValue> {
    return this.memo('settings', () => mapReadout(this.reader.zoneObject(this.zone.id, 'zone_settings'), (r) => parseZoneSetting(r.raw)));
  }

  /** One security setting (`offered: false`: the plan does not offer it); unknown when not read or not asked for. */
  setting(id: ZoneSetting): { known: true; value: ZoneSettingValue } | { known: false; state: string; reason: string } {
    const all = this.settings();
    if (!all.known) return all;
    const found = all.items.find((s) => s.id === id);
    if (!found) return { known: false, state: 'missing', reason: `the scan did not read the zone setting ${id}` };
    return { known: true, value: found };
  }

  dnssec(): ObjectReadout<Dnssec> { return this.object('dnssec', parseDnssec); }

  universalSsl(): ObjectReadout<{ enabled: boolean | null }> { return this.object('universal_ssl', parseUniversalSsl); }

  /** The custom-rules phase's entry point (`http_request_firewall_custom`); null: no custom rules yet. */
  customRules(): ObjectReadout<Entrypoint> { return this.object('custom_entrypoint', parseEntrypoint); }

  /** The rate limiting rules phase's entry point (`http_ratelimit`); null: no rate limiting rules yet. */
  rateLimitRules(): ObjectReadout<Entrypoint> { return this.object('ratelimit_entrypoint', parseEntrypoint); }

  /** The zone's bot settings (Bot Fight Mode, Super Bot Fight Mode or Bot Management). */
  botManagement(): ObjectReadout<BotManagement> { return this.object('bot_management', parseBotManagement); }

  /** Zone-level authenticated origin pulls. */
  originPulls(): ObjectReadout<{ enabled: boolean | null }> { return this.object('origin_pulls', parseOriginPulls); }

  /** Client-side security (formerly Page Shield) settings. */
  pageShield(): ObjectReadout<PageShieldSettings> {
    return this.pageShieldOf ? this.pageShieldOf(this.zone.id) : this.object('page_shield', parsePageShield);
  }

  /** The security.txt the edge serves for the zone; null: the API answered none. */
  securityTxt(): ObjectReadout<SecurityTxt> { return this.object('security_txt', parseSecurityTxt); }

  /** Whether the edge serves the zone's pages: active, not paused, and a proxied A, AAAA or CNAME (vendor docs: proxy status). */
  servesPages(): { known: true; value: boolean } | { known: false; state: string; reason: string } {
    if (this.zone.status !== 'active' || this.zone.paused === true) return { known: true, value: false };
    const records = this.proxiedWebRecords();
    return records.known ? { known: true, value: records.items.length > 0 } : records;
  }

  /** The proxied A, AAAA and CNAME records: the names whose pages the edge serves (when the zone is active). */
  proxiedWebRecords(): Readout<DnsRecordFields> {
    const records = this.dnsRecords();
    if (!records.known) return records;
    return { known: true, items: records.items.filter((r) => r.proxied === true && (r.type === 'A' || r.type === 'AAAA' || r.type === 'CNAME')) };
  }

  /** Whether any record is proxied: the edge's protections see proxied requests only (vendor docs: proxy status). */
  proxiesTraffic(): { known: true; value: boolean } | { known: false; state: string; reason: string } {
    const records = this.dnsRecords();
    return records.known ? { known: true, value: records.items.some((r) => r.proxied === true) } : records;
  }

  /** The account's managed-phase entry point (Enterprise); null: none; unknown: not read (skipped off Enterprise) or refused. */
  accountManagedEntrypoint(): ObjectReadout<Entrypoint> { return this.object('account_entrypoint', parseEntrypoint); }

  /** Development Mode's seconds left as the zone list gave them (vendor's API reference, zones); null: not in the list. */
  get listedDevelopmentMode(): number | null {
    const v = parseJson(this.zone.raw)['development_mode'];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  }

  /** When the zone list was read (listedDevelopmentMode counts from then): that scan's start, or null. */
  listedAt(): string | null {
    return this.reader.readStartedAt('zone', this.zone.id, 'zone');
  }

  /** When the zone's settings were read: the start of the scan that read them (an incremental night carries them forward); null when not read. */
  settingsReadAt(): string | null {
    return this.reader.readStartedAt('zone', this.zone.id, 'zone_settings');
  }

  /** The zone's DNS setup: `full`, `partial` (CNAME setup: the vendor's DNS does not answer for it), `secondary` or `internal` (not in public DNS); null when not said. */
  get setupType(): string | null {
    return this.zone.type;
  }

  /** Whether public resolvers get the zone's records from the vendor's DNS (not a partial, secondary or internal zone). */
  get publicDnsIsHere(): boolean {
    return publicDnsIsHere(this.zone.type);
  }

  /** The managed phase's entry point (`http_request_firewall_managed`); null: none written yet. */
  managedEntrypoint(): ObjectReadout<Entrypoint> { return this.object('entrypoint', parseEntrypoint); }

  /** Where the zone stands in the managed-rules migration, from the status endpoint. */
  migration(): ObjectReadout<Migration> {
    return this.memo('migration', () => {
      const status = this.migrationStatus();
      if (!status.known) return status;
      return { known: true, value: status.value && migrationOf(status.value) };
    });
  }

  // --- Snapshot history (read-only): what earlier scans of this database saw ---

  /** When a scan first saw this certificate pack (a lower bound on the age of one without `created_on`); null: none says. */
  certificatePackFirstSeen(packId: string): Date | null {
    const seen = this.memo('packsFirstSeen', () => this.reader.certificatePackFirstSeen(this.zone.id)).get(packId);
    return seen === undefined ? null : new Date(seen);
  }
}
