import { formatApiTime, resolveTime } from '../clock.js';
import {
  BOT_FIELDS,
  botProduct,
  CHALLENGE_TTLS,
  customRuleset,
  defaultBots,
  defaultSecurity,
  DEVELOPMENT_MODE_SECONDS,
  managedRuleset,
  offers,
  rateLimitRuleset,
  SETTING_CHOICES,
  SETTING_IDS,
  type BotConfig,
  type BotProduct,
  type DatasetRulesetRule,
  type SettingId,
  type ZoneSecurity,
  type PageShieldConfig,
  type SecurityTxtConfig,
} from '../security.js';
import { stableId, stableUuid } from '../ids.js';
import { MEMBER_ROLES, MEMBER_STATUSES, memberOf, type Member } from '../members.js';
import { KNOWN_ACTIONS, KNOWN_PRODUCTS, PROXIABLE_TYPES, RECORD_TYPES, isHostname, issuerFor } from '../vocabulary.js';
import { MANAGED_RULESET_ID, migratedEntrypoint } from '../waf-mapping.js';
import {
  ArrayRecordStore,
  DEFAULT_NAME_SERVERS,
  newZone,
  type Account,
  type CertificatePack,
  type DnsRecord,
  type Filter,
  type FirewallRule,
  type Invite,
  type LegacyWaf,
  type Migration,
  type OrgState,
  type WafGroup,
  type WafOverride,
  type WafPackage,
  type Zone,
  type NotificationPolicy,
} from '../state.js';
import { Fields } from './fields.js';

const MAX_TXT_CONTENT = 2048;
const MAX_RULE_DESCRIPTION = 500;

/**
 * Turns a dataset (parsed JSON of the documented format, untrusted) into the emulator's state,
 * resolving relative times against `now` and deriving stable ids where none are given.
 */
export function loadDataset(json: unknown, now: Date): OrgState {
  return new DatasetLoader(now).load(json);
}

class DatasetLoader {
  private readonly accounts = new Map<string, Account>();
  private readonly zoneIds = new Set<string>();
  private readonly zoneNames = new Set<string>();

  constructor(private readonly now: Date) {}

  time(f: Fields, key: string, fallback: string): string {
    const d = resolveTime(f.str(key, fallback), this.now);
    if (!d) f.fail(key, 'expected an RFC 3339 time or now±N[dhms] (e.g. now-3d)');
    return formatApiTime(d);
  }

  nullableTime(f: Fields, key: string, fallback: string | null): string | null {
    if (f.raw(key) === null) return null;
    return f.has(key) ? this.time(f, key, '') : fallback;
  }

  load(json: unknown): OrgState {
    const f = Fields.of(json, '');
    if (f.raw('version') !== 1) f.fail('version', 'expected 1 (the only dataset format version)');
    const u = f.has('user') ? f.object('user') : Fields.of({}, 'user');
    const email = u.str('email', 'admin@example.com');
    const user = u.done({ id: u.str('id', stableId('user', email)), email });

    const read = f.each('accounts', (item) => this.account(item));
    const accounts = read.map((r) => r.account);
    const zones = read.flatMap((r) => r.accountZones);
    if (accounts.length === 0) f.fail('accounts', 'at least one account is required');
    const invites = f.each('invites', (item, i) => this.invite(item, i, accounts, email));
    f.done();
    return { user, accounts, zones, invites };
  }

  account(f: Fields): { account: Account; accountZones: Zone[] } {
    const name = f.str('name');
    const account: Account = {
      id: f.str('id', stableId('account', name)),
      name,
      type: f.oneOf('type', ['standard', 'enterprise'] as const, 'standard'),
      created_on: this.time(f, 'created_on', 'now-1000d'),
      member: f.bool('member', true),
    };
    addNew(this.accounts, account, f, 'account');
    if (f.has('managed_rules')) {
      // The account-level managed entry point deploys managed rules to zones: an Enterprise feature.
      if (account.type !== 'enterprise') f.fail('managed_rules', 'an account-level managed entry point needs an enterprise account (type: enterprise)');
      const since = this.time(f, 'managed_rules_since', account.created_on);
      account.managedEntrypoint = managedRuleset(account.id, 'root', since, this.managedRules(f));
    } else if (f.has('managed_rules_since')) f.fail('managed_rules_since', 'only with managed_rules');
    if (f.has('members')) account.members = f.each('members', (item) => this.member(item, account));
    const accountZones = f.each('zones', (item) => this.zone(item, account));
    if (f.has('notification_policies')) {
      account.notificationPolicies = f.each('notification_policies', (item) => this.notificationPolicy(item, account, accountZones));
    }
    return f.done({ account, accountZones });
  }

  /** A member of the account (`members[]`): an e-mail, its roles by the vendor's names, whether it has two-factor. */
  member(f: Fields, account: Account): Member {
    const email = f.str('email');
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) f.fail('email', 'expected an e-mail address');
    const roles = f.strArray('roles', ['Administrator']);
    for (const name of roles) if (!MEMBER_ROLES.has(name)) f.fail('roles', `no role "${name.slice(0, 80)}"; one of ${[...MEMBER_ROLES.keys()].join(', ')}`);
    const twoFactor = f.raw('two_factor') === null ? null : f.bool('two_factor', true);
    const status = f.oneOf('status', MEMBER_STATUSES, 'accepted');
    const names = { first: f.nullableStr('first_name', null), last: f.nullableStr('last_name', null) };
    const member = memberOf(account.id, email, roles.map((r) => MEMBER_ROLES.get(r)!), twoFactor, status, names);
    member.id = f.str('id', member.id);
    return f.done(member);
  }

  zone(f: Fields, account: Account): Zone {
    const name = f.str('name');
    if (!isHostname(name) || name !== name.toLowerCase()) f.fail('name', 'expected a lower-case domain name');
    if (this.zoneNames.has(name)) f.fail('name', `duplicate zone name ${name}`);
    this.zoneNames.add(name);
    const id = f.str('id', stableId('zone', name));
    if (this.zoneIds.has(id)) f.fail('id', `duplicate zone id ${id}`);
    this.zoneIds.add(id);
    const status = f.oneOf('status', ['initializing', 'pending', 'active', 'moved'] as const, 'active');
    const created_on = this.time(f, 'created_on', 'now-900d');
    const paused = f.bool('paused', false);
    const type = f.oneOf('type', ['full', 'partial', 'secondary'] as const, 'full');
    const plan = f.oneOf('plan', ['free', 'pro', 'business', 'enterprise'] as const, 'free');
    const name_servers = f.strArray('name_servers', DEFAULT_NAME_SERVERS);
    const modified_on = this.time(f, 'modified_on', created_on);
    const activated_on = this.nullableTime(f, 'activated_on', status === 'active' || status === 'moved' ? created_on : null);
    const zone = newZone({ id, name, status, accountId: account.id, plan, created_on, modified_on, activated_on }, { paused, type, name_servers });
    zone.dns = new ArrayRecordStore(f.each('dns_records', (item, i) => this.dnsRecord(item, zone, i)));
    zone.certificatePacks = f.each('certificate_packs', (item, i) => this.certificatePack(item, zone, i));
    f.each('filters', (item) => addNew(zone.filters, this.filter(item, zone, zone.filters.size), item, 'filter'));
    f.each('firewall_rules', (item, i) => addNew(zone.firewallRules, this.firewallRule(item, zone, i), item, 'firewall rule'));
    if (f.has('waf')) zone.waf = this.waf(f.object('waf'), zone);
    if (f.has('migration')) zone.migration = this.migration(f.object('migration'), zone);
    if (f.has('security')) zone.security = this.security(f.object('security'), zone);
    else zone.security.universalSslCa = universalCa(zone);
    return f.done(zone);
  }

  /** A notification policy; its zone filter names zones of the account, served as their ids. */
  notificationPolicy(f: Fields, account: Account, zones: Zone[]): NotificationPolicy {
    const name = f.str('name');
    const created = this.time(f, 'created', account.created_on);
    const zoneIds = f.strArray('zones', []).map((zoneName, i) => zones.find((z) => z.name === zoneName)?.id ?? f.fail(`zones[${i}]`, `no zone ${zoneName} in account ${account.name}`));
    return f.done<NotificationPolicy>({
      id: stableId('policy', `${account.id}/${name}`),
      name,
      description: '',
      alert_type: f.str('alert_type'),
      enabled: f.bool('enabled', true),
      mechanisms: { email: [{ id: f.str('email', `security@${zones[0]?.name ?? 'example.com'}`) }] },
      filters: zoneIds.length ? { zones: zoneIds } : {},
      created,
      modified: created,
    });
  }

  /** Client-side security settings over the defaults (security.ts). */
  pageShield(f: Fields, zone: Zone): PageShieldConfig {
    const d = defaultSecurity(zone.created_on).pageShield;
    return f.done<PageShieldConfig>({
      enabled: f.bool('enabled', d.enabled),
      use_cloudflare_reporting_endpoint: f.bool('use_cloudflare_reporting_endpoint', d.use_cloudflare_reporting_endpoint),
      use_connection_url_path: f.bool('use_connection_url_path', d.use_connection_url_path),
      updated_at: this.time(f, 'updated_at', zone.created_on),
    });
  }

  /** A security.txt; `expires` may be in the past (an expired file is what the rule looks for). */
  securityTxt(f: Fields): SecurityTxtConfig {
    return f.done<SecurityTxtConfig>({
      enabled: f.bool('enabled', true),
      contact: f.strArray('contact', []),
      expires: f.has('expires') ? this.time(f, 'expires', formatApiTime(this.now)) : null,
      encryption: f.strArray('encryption', []),
      policy: f.strArray('policy', []),
      acknowledgments: [],
      canonical: [],
      hiring: [],
      preferred_languages: f.str('preferred_languages', 'en'),
    });
  }

  /** A zone's security settings over the vendor's defaults for a new zone (see security.ts). */
  security(f: Fields, zone: Zone): ZoneSecurity {
    const security = defaultSecurity(zone.created_on);
    if (f.has('settings')) {
      const s = f.object('settings');
      if (s.has('waf')) s.fail('waf', 'the legacy WAF switch is the zone\'s waf.enabled');
      for (const id of SETTING_IDS) {
        if (id === 'waf' || !s.has(id)) continue;
        const choices = SETTING_CHOICES[id];
        if (choices) security.settings[id] = s.oneOf(id, choices);
        else if (id === 'challenge_ttl') {
          const ttl = s.raw(id);
          if (typeof ttl !== 'number' || !CHALLENGE_TTLS.includes(ttl)) s.fail(id, `expected one of ${CHALLENGE_TTLS.join(', ')} (seconds)`);
          security.settings[id] = ttl;
        } else security.settings[id] = { strict_transport_security: this.hsts(s.object(id)) };
      }
      s.done();
    }
    if (f.has('settings_modified_on')) {
      const m = f.object('settings_modified_on');
      for (const id of SETTING_IDS) if (m.has(id)) security.modified[id] = this.time(m, id, zone.created_on);
      m.done();
    }
    for (const [i, id] of f.strArray('settings_locked', []).entries()) {
      const at = `settings_locked[${i}]`;
      if (!(SETTING_IDS as readonly string[]).includes(id)) f.fail(at, `unknown setting "${id}"; expected one of ${SETTING_IDS.join(', ')}`);
      if (!offers(zone.plan, id as SettingId)) f.fail(at, `${id} is not offered on the ${zone.plan} plan: its answer says editable false already`);
      if (security.locked.includes(id as SettingId)) f.fail(at, `${id} is listed twice`);
      security.locked.push(id as SettingId);
    }
    if (security.settings.development_mode === 'on') {
      // Development mode turns itself off 3 hours after it is entered (vendor's API reference): entered
      // `now` unless the dataset says when; a time longer ago than that cannot still be on.
      const since = security.modified.development_mode ?? formatApiTime(this.now);
      if (Date.parse(since) + DEVELOPMENT_MODE_SECONDS * 1000 <= this.now.getTime()) {
        f.fail('settings_modified_on', 'development_mode: development mode turns itself off 3 hours after it is entered; give a time within the last 3 hours (e.g. now-1h)');
      }
      security.modified.development_mode = since;
    }
    if (f.has('bot_management')) security.bots = this.bots(f.object('bot_management'), zone);
    security.originPulls = f.bool('origin_pulls', false);
    if (f.has('page_shield')) security.pageShield = this.pageShield(f.object('page_shield'), zone);
    if (f.has('security_txt')) security.securityTxt = this.securityTxt(f.object('security_txt'));
    if (f.has('ratelimit_rules')) {
      const since = this.time(f, 'ratelimit_rules_since', zone.created_on);
      security.rateLimitRules = rateLimitRuleset(zone.name, since, f.each('ratelimit_rules', (item) => this.rateLimitRule(item)));
    } else if (f.has('ratelimit_rules_since')) f.fail('ratelimit_rules_since', 'only with ratelimit_rules');
    security.dnssec = {
      status: f.oneOf('dnssec', ['active', 'pending', 'disabled', 'pending-disabled', 'error'] as const, 'disabled'),
      modified_on: this.time(f, 'dnssec_since', zone.created_on),
    };
    security.universalSsl = f.bool('universal_ssl', true);
    security.universalSslCa = f.str('universal_ssl_ca', universalCa(zone));
    if (f.has('managed_rules')) {
      const since = this.time(f, 'managed_rules_since', zone.created_on);
      const rules = this.managedRules(f);
      const state = zone.migration.state;
      if ((state === 'start' || state === 'default') && rules.some((r) => r.enabled)) {
        f.fail('managed_rules', `a zone still at migration state ${state} may hold disabled rules only (the API refuses enabled ones before the migration)`);
      }
      const ruleset = managedRuleset(zone.name, 'zone', since, rules);
      zone.migration.entrypoint = { ...ruleset, id: zone.migration.entrypoint?.id ?? stableId('entrypoint', zone.name) };
    } else if (f.has('managed_rules_since')) f.fail('managed_rules_since', 'only with managed_rules');
    if (f.has('custom_rules')) {
      const since = this.time(f, 'custom_rules_since', zone.created_on);
      const rules = f.each('custom_rules', (r) => {
        const rule: DatasetRulesetRule = ruleHead(r, ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip']);
        if (r.has('action_parameters')) rule.action_parameters = r.raw('action_parameters') as Record<string, unknown>;
        if (rule.action === 'skip' && !rule.action_parameters) r.fail('action_parameters', 'a skip rule names what it skips ({ruleset: "current"}, {phases: [...]} or {products: [...]})');
        return r.done(rule);
      });
      security.customRules = customRuleset(zone.name, since, rules);
    }
    if (f.bool('managed_ruleset_disabled', false)) {
      const entrypoint = zone.migration.entrypoint;
      const execute = entrypoint?.rules.find((r) => r.action === 'execute' && r.action_parameters?.['id'] === MANAGED_RULESET_ID);
      if (!execute) f.fail('managed_ruleset_disabled', 'only a zone whose managed entry point executes the managed ruleset can have it disabled');
      execute.enabled = false;
    }
    return f.done(security);
  }

  /** The rules of a managed-phase entry point (`managed_rules` of a zone's security or an account). */
  managedRules(f: Fields): DatasetRulesetRule[] {
    return f.each('managed_rules', (r) => {
      const rule = ruleHead(r, ['execute', 'skip', 'log']);
      const action = rule.action;
      if (r.has('action_parameters')) {
        const params = r.raw('action_parameters');
        if (params === null || typeof params !== 'object' || Array.isArray(params)) r.fail('action_parameters', 'expected an object');
        rule.action_parameters = params as Record<string, unknown>;
      }
      const params = rule.action_parameters ?? {};
      if (action === 'execute' && typeof params['id'] !== 'string') r.fail('action_parameters', 'an execute rule names the managed ruleset it runs ({id: "<ruleset id>"})');
      if (action === 'skip' && !['ruleset', 'rulesets', 'rules'].some((k) => params[k] !== undefined)) {
        r.fail('action_parameters', 'a skip rule names what it skips ({ruleset: "current"}, {rulesets: [ids]} or {rules: {<ruleset id>: [rule ids]}})');
      }
      return r.done(rule);
    });
  }

  /**
   * The zone's bot settings (`security.bot_management`): only the fields of the zone's bot product
   * (security.ts BOT_FIELDS), so that a dataset cannot set what the plan's answer never shows.
   */
  bots(f: Fields, zone: Zone): BotConfig {
    const bots = defaultBots();
    bots.subscription = f.bool('subscription', false);
    if (bots.subscription && zone.plan !== 'enterprise') f.fail('subscription', 'Bot Management for Enterprise is an add-on of Enterprise zones');
    const product = botProduct(zone.plan, bots.subscription);
    const allowed = new Set<string>(BOT_FIELDS[product]);
    const choices: Partial<Record<keyof BotConfig, readonly string[]>> = {
      ai_bots_protection: ['block', 'disabled', 'only_on_ad_pages'],
      crawler_protection: ['enabled', 'disabled'],
      cf_robots_variant: ['off', 'policy_only'],
      sbfm_definitely_automated: ['allow', 'block', 'managed_challenge'],
      sbfm_likely_automated: ['allow', 'block', 'managed_challenge'],
      sbfm_verified_bots: ['allow', 'block'],
    };
    const record = bots as unknown as Record<string, unknown>;
    for (const field of Object.keys(record)) {
      if (field === 'subscription' || field === 'using_latest_model' || !f.has(field)) continue;
      if (!allowed.has(field)) f.fail(field, `not a setting of ${BOT_PRODUCT_NAMES[product]} (the ${zone.plan} plan's bot product): expected some of ${[...allowed].join(', ')}`);
      const values = choices[field as keyof BotConfig];
      record[field] = values ? f.oneOf(field, values) : f.bool(field, false);
    }
    // vendor docs (JavaScript detections): with Bot Fight Mode they are always on and cannot be disabled.
    if (product === 'bot_fight_mode' && bots.enable_js === false) f.fail('enable_js', 'JavaScript detections cannot be disabled on the Free plan (Bot Fight Mode)');
    if (bots.ai_bots_protection === 'only_on_ad_pages' && zone.plan === 'enterprise') f.fail('ai_bots_protection', 'only_on_ad_pages is not available to Enterprise zones');
    // vendor docs (machine learning models): only a Bot Management zone with auto-updates off can stay on an older model.
    if (f.has('using_latest_model')) {
      bots.using_latest_model = f.bool('using_latest_model', true);
      if (product !== 'bot_management') f.fail('using_latest_model', `only Bot Management for Enterprise zones choose their model: ${BOT_PRODUCT_NAMES[product]} always runs the latest`);
      else if (!bots.using_latest_model && bots.auto_update_model) f.fail('using_latest_model', 'a zone with auto_update_model on runs the latest model: set auto_update_model to false as well');
    }
    return f.done(bots);
  }

  /** A rate limiting rule (`security.ratelimit_rules[]`), in the shape of the vendor's rulesets API. */
  rateLimitRule(r: Fields): DatasetRulesetRule {
    const rule = ruleHead(r, ['block', 'challenge', 'managed_challenge', 'js_challenge', 'log']);
    const l = r.object('ratelimit');
    // vendor docs (rate limiting parameters): cf.colo.id is a mandatory characteristic.
    const characteristics = l.strArray('characteristics', ['cf.colo.id', 'ip.src']);
    if (!characteristics.includes('cf.colo.id')) l.fail('characteristics', 'must include cf.colo.id (mandatory in every rate limiting rule)');
    rule.ratelimit = {
      characteristics,
      period: l.int('period', 60, 1),
      requests_per_period: l.int('requests_per_period', 0, 1),
      mitigation_timeout: l.int('mitigation_timeout', 60, 0),
    };
    if (!l.has('requests_per_period')) l.fail('requests_per_period', 'is required');
    l.done();
    return r.done(rule);
  }

  hsts(f: Fields) {
    return f.done({
      enabled: f.bool('enabled', false),
      max_age: f.int('max_age', 0, 0),
      include_subdomains: f.bool('include_subdomains', false),
      preload: f.bool('preload', false),
      nosniff: f.bool('nosniff', false),
    });
  }

  dnsRecord(f: Fields, zone: Zone, index: number): DnsRecord {
    const type = f.str('type').toUpperCase();
    if (!RECORD_TYPES.includes(type)) f.fail('type', `unknown record type; expected one of ${RECORD_TYPES.join(', ')}`);
    // `@` is the apex, `x.@` is `x.<zone>`.
    const name = f.str('name').replace(/^@$|(?<=\.)@$/, () => zone.name);
    if (name !== zone.name && !name.endsWith(`.${zone.name}`)) f.fail('name', `must be ${zone.name} or end in .${zone.name}`);
    // A structured record (CAA, SRV, ...) may come with `data` and no `content`, as in the wild.
    const content = f.has('data') && !f.has('content') ? undefined : f.str('content');
    if (type === 'TXT' && content !== undefined && content.length > MAX_TXT_CONTENT) f.fail('content', `TXT content is at most ${MAX_TXT_CONTENT} characters`);
    const proxiable = PROXIABLE_TYPES.has(type);
    const proxied = f.bool('proxied', false);
    if (proxied && !proxiable) f.fail('proxied', `${type} records cannot be proxied`);
    const created_on = this.time(f, 'created_on', zone.created_on);
    const record: DnsRecord = {
      id: f.str('id', stableId('dns', zone.name, index)),
      type,
      name,
      ...(content === undefined ? {} : { content }),
      proxiable,
      proxied,
      ttl: f.int('ttl', 1, 1, 86_400),
      comment: f.nullableStr('comment', null),
      tags: f.strArray('tags', []),
      created_on,
      modified_on: this.time(f, 'modified_on', created_on),
    };
    if (f.has('priority') || ['MX', 'SRV', 'URI'].includes(type)) {
      record.priority = f.nullableInt('priority', type === 'MX' ? 10 : null, 0, 65_535);
    }
    if (f.has('data')) {
      const data = f.raw('data');
      if (data === null || typeof data !== 'object' || Array.isArray(data)) f.fail('data', 'expected an object');
      record.data = data as Record<string, unknown>;
    }
    return f.done(record);
  }

  certificatePack(f: Fields, zone: Zone, index: number): CertificatePack {
    const hosts = f.strArray('hosts', []);
    if (hosts.length === 0) f.fail('hosts', 'at least one host is required');
    const status = f.str('status', 'active');
    const validity_days = f.int('validity_days', 90, 1, 3650);
    // null: a pack still initializing, served without created_on (its certificates date from now).
    const created_on = f.raw('created_on') === null ? null : this.time(f, 'created_on', 'now-30d');
    const issuedFrom = created_on ?? formatApiTime(this.now);
    const certificate_authority = f.str('certificate_authority', 'lets_encrypt');
    const id = f.str('id', stableUuid('pack', zone.name, index));
    const defaultExpiry = formatApiTime(new Date(Date.parse(issuedFrom) + validity_days * 86_400_000));
    const certs = f.has('certificates') ? f.array('certificates') : [{ value: {}, path: f.at('certificates[0]') }];
    const certificates = certs.map(({ value, path }, i) => {
      const c = Fields.of(value, path);
      const uploaded_on = this.time(c, 'uploaded_on', issuedFrom);
      const cert = {
        id: c.str('id', stableUuid('certificate', zone.name, index, i)),
        hosts: c.strArray('hosts', hosts),
        issuer: c.str('issuer', issuerFor(certificate_authority)),
        signature: c.str('signature', 'ECDSAWithSHA256'),
        status: c.str('status', status),
        bundle_method: c.str('bundle_method', 'ubiquitous'),
        zone_id: zone.id,
        uploaded_on,
        modified_on: this.time(c, 'modified_on', uploaded_on),
        priority: c.nullableInt('priority', i, 0, 1000),
      } as CertificatePack['certificates'][number];
      const expires = this.nullableTime(c, 'expires_on', defaultExpiry);
      if (expires !== null) cert.expires_on = expires;
      return c.done(cert);
    });
    const pack: CertificatePack = {
      id,
      type: f.str('type', 'universal'),
      hosts,
      primary_certificate: certificates[0]?.id ?? '',
      status,
      certificates,
      ...(created_on === null ? {} : { created_on }),
      validity_days,
      validation_method: f.str('validation_method', 'txt'),
      certificate_authority,
    };
    if (f.has('validation_errors')) {
      pack.validation_errors = f.each('validation_errors', (e) => e.done({ message: e.str('message') }));
    }
    return f.done(pack);
  }

  filter(f: Fields, zone: Zone, index: number): Filter {
    const ref = f.has('ref') ? f.str('ref') : undefined;
    const filter = filterOf(f, f.str('id', stableId('filter', zone.name, ref ?? String(index))));
    return f.done<Filter>(ref === undefined ? filter : { ...filter, ref });
  }

  firewallRule(f: Fields, zone: Zone, index: number): FirewallRule {
    const action = f.oneOf('action', KNOWN_ACTIONS);
    const created_on = this.time(f, 'created_on', 'now-60d');
    const raw = f.raw('filter');
    let filterId: string;
    if (typeof raw === 'string') {
      const found = [...zone.filters.values()].find((x) => x.ref === raw || x.id === raw);
      if (!found) f.fail('filter', `no filter with ref or id "${raw}" in zone ${zone.name}`);
      filterId = found.id;
    } else {
      const inline = Fields.of(raw, f.at('filter'));
      if (inline.bool('deleted', false)) {
        filterId = stableId('deleted-filter', zone.name, index);
      } else {
        const filter = filterOf(inline, stableId('inline-filter', zone.name, index));
        zone.filters.set(filter.id, filter);
        filterId = filter.id;
      }
      inline.done();
    }
    const rule: FirewallRule = {
      id: f.str('id', stableId('firewall-rule', zone.name, index)),
      action,
      priority: f.nullableInt('priority', null, 0, 2_147_483_647),
      paused: f.bool('paused', false),
      description: f.str('description', ''),
      filterId,
      created_on,
      modified_on: this.time(f, 'modified_on', created_on),
    };
    if ([...rule.description].length > MAX_RULE_DESCRIPTION) f.fail('description', `at most ${MAX_RULE_DESCRIPTION} characters`);
    if (f.has('ref')) rule.ref = f.str('ref');
    const products = f.strArray('products', []);
    if (products.some((p) => !KNOWN_PRODUCTS.includes(p))) f.fail('products', `expected some of ${KNOWN_PRODUCTS.join(', ')}`);
    if (action === 'bypass' && products.length === 0) f.fail('products', 'bypass rules need at least one product');
    if (products.length > 0) rule.products = products;
    return f.done(rule);
  }

  waf(f: Fields, zone: Zone): LegacyWaf {
    const packages = f.each('packages', (item) => this.wafPackage(item, zone));
    const overrides = f.each('overrides', (item, i) => this.wafOverride(item, zone, i));
    if (overrides.length > 0 && zone.plan !== 'enterprise') f.fail('overrides', 'URI-based overrides exist on Enterprise zones only');
    return f.done({ enabled: f.bool('enabled', true), packages, overrides });
  }

  wafPackage(f: Fields, zone: Zone): WafPackage {
    const name = f.str('name');
    const id = f.str('id', stableId('waf-package', zone.name, name));
    const detection_mode = f.oneOf('detection_mode', ['anomaly', 'traditional'] as const, 'traditional');
    const pkg: WafPackage = {
      id,
      name,
      description: f.str('description', ''),
      detection_mode,
      zone_id: zone.id,
      status: 'active',
      groups: [],
    };
    if (f.has('sensitivity')) pkg.sensitivity = f.oneOf('sensitivity', ['high', 'medium', 'low', 'off'] as const);
    if (f.has('action_mode')) pkg.action_mode = f.oneOf('action_mode', ['simulate', 'block', 'challenge'] as const);
    if (detection_mode === 'anomaly') {
      pkg.sensitivity ??= 'high';
      pkg.action_mode ??= 'challenge';
    }
    pkg.groups = f.each('groups', (item) => this.wafGroup(item, zone, pkg));
    return f.done(pkg);
  }

  wafGroup(f: Fields, zone: Zone, pkg: WafPackage): WafGroup {
    const name = f.str('name');
    const id = f.str('id', stableId('waf-group', zone.name, pkg.name, name));
    const anomaly = pkg.detection_mode === 'anomaly';
    return f.done<WafGroup>({
      id,
      name,
      description: f.str('description', ''),
      mode: f.oneOf('mode', ['on', 'off'] as const, 'on'),
      default_mode: f.oneOf('default_mode', ['on', 'off'] as const, 'on'),
      allowed_modes: ['on', 'off'],
      package_id: pkg.id,
      rules: f.each('rules', (r, i) => {
        const default_mode = r.str('default_mode', anomaly ? 'on' : 'block');
        const rule = {
          id: r.str('id', stableId('waf-rule', zone.name, pkg.name, name, i)),
          description: r.str('description'),
          priority: r.str('priority', String(i + 1)),
          default_mode,
          mode: r.str('mode', default_mode),
          allowed_modes: r.strArray('allowed_modes', anomaly ? ['on', 'off'] : ['default', 'disable', 'simulate', 'block', 'challenge']),
          group: { id, name },
          package_id: pkg.id,
        };
        if (!rule.allowed_modes.includes(rule.mode) && rule.mode !== rule.default_mode) {
          r.fail('mode', `expected one of ${rule.allowed_modes.join(', ')}`);
        }
        return r.done(rule);
      }),
    });
  }

  wafOverride(f: Fields, zone: Zone, index: number): WafOverride {
    const urls = f.strArray('urls', []);
    if (urls.length === 0) f.fail('urls', 'at least one URL pattern is required');
    return f.done<WafOverride>({
      id: f.str('id', stableId('waf-override', zone.name, index)),
      description: f.str('description', ''),
      urls,
      priority: f.int('priority', index + 1, -1_000_000_000, 1_000_000_000),
      paused: f.bool('paused', false),
      groups: f.stringMap('groups'),
      rules: f.stringMap('rules'),
      rewrite_action: f.stringMap('rewrite_action'),
    });
  }

  migration(f: Fields, zone: Zone): Migration {
    const state = f.oneOf('state', ['default', 'start', 'validation', 'complete', 'none'] as const);
    const since = this.time(f, 'since', 'now-30d');
    const begun = state === 'validation' || state === 'complete';
    if (begun && zone.waf.overrides.length > 0) {
      f.fail('state', 'a zone with URI-based overrides cannot have started its migration');
    }
    if (state === 'validation' && zone.plan !== 'enterprise') f.fail('state', 'validation mode is for Enterprise zones only');
    if (state === 'none' && zone.waf.packages.length + zone.waf.overrides.length > 0) {
      f.fail('state', 'a zone that never had the previous WAF (none) cannot have its packages or overrides (waf)');
    }
    const migration: Migration = { state, since, source: f.str('source', 'api'), entrypoint: null };
    if (state === 'none' && zone.plan !== 'free') {
      // Emulator: a zone created with the new managed rules on a paid plan has the managed ruleset
      // deployed on every request, as the migration deploys it; a Free zone has no entry point.
      const execute: DatasetRulesetRule = { action: 'execute', expression: 'true', description: '', enabled: true, action_parameters: { id: MANAGED_RULESET_ID, version: 'latest' } };
      migration.entrypoint = managedRuleset(zone.name, 'zone', zone.created_on, [execute]);
    }
    // A zone that has started migrating got its entry point from the migration's PUT.
    if (begun) migration.entrypoint = migratedEntrypoint(zone, since);
    return f.done(migration);
  }

  invite(f: Fields, index: number, accounts: Account[], userEmail: string): Invite {
    const accountName = f.str('account');
    const account = accounts.find((a) => a.name === accountName);
    if (!account) f.fail('account', `no account named "${accountName}" in this dataset`);
    const invited_on = this.time(f, 'invited_on', 'now-2d');
    const roles = f.has('roles')
      ? f.each('roles', (r, i) =>
          r.done({ id: r.str('id', stableId('role', index, i)), name: r.str('name'), description: r.str('description', '') }),
        )
      : [{ id: stableId('role', 'administrator'), name: 'Administrator', description: 'Can access the full account, except for membership management and billing.' }];
    return f.done<Invite>({
      id: f.str('id', stableId('invite', accountName, index)),
      organization_id: account.id,
      organization_name: account.name,
      invited_by: f.str('invited_by'),
      invited_member_email: f.str('invited_member_email', userEmail),
      invited_on,
      expires_on: this.time(f, 'expires_on', formatApiTime(new Date(Date.parse(invited_on) + 7 * 86_400_000))),
      roles,
      status: f.oneOf('status', ['pending', 'accepted', 'rejected', 'expired'] as const, 'pending'),
    });
  }
}

/** Adds an object read from `item` under its id, which must be new (to the dataset, or the zone). */
function addNew<T extends { id: string }>(map: Map<string, T>, value: T, item: Fields, what: string): void {
  if (map.has(value.id)) item.fail('id', `duplicate ${what} id ${value.id}`);
  map.set(value.id, value);
}

/** A filter's expression, switch and description, standalone or inline in a firewall rule. */
function filterOf(f: Fields, id: string): Filter {
  return { id, expression: f.str('expression'), paused: f.bool('paused', false), description: f.str('description', '') };
}

/** A ruleset rule's action (one of `actions`), expression, description and switch, as every phase's rules have them. */
function ruleHead(r: Fields, actions: readonly string[]): DatasetRulesetRule {
  return { action: r.oneOf('action', actions), expression: r.str('expression'), description: r.str('description', ''), enabled: r.bool('enabled', true) };
}

/**
 * Emulator: the universal CA a zone reports when the dataset does not say: its universal pack's
 * (the certificate the CA issued), else Let's Encrypt, the value seen in the wild.
 */
function universalCa(zone: Zone): string {
  return zone.certificatePacks.find((p) => p.type === 'universal')?.certificate_authority ?? 'lets_encrypt';
}

const BOT_PRODUCT_NAMES: Record<BotProduct, string> = {
  bot_fight_mode: 'Bot Fight Mode',
  sbfm_pro: 'Super Bot Fight Mode (Pro)',
  sbfm_business: 'Super Bot Fight Mode (Business)',
  bot_management: 'Bot Management for Enterprise',
};
