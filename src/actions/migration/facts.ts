import type { ApiClient } from '../../api/client.js';
import { LIST_ENDPOINTS, type ListEndpoint } from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import type { OwaspGroupChange } from '../../cloudflare/waf-migration/carry.js';
import type { OwaspOutcome } from '../../cloudflare/waf-migration/config.js';
import { migrationStage, type MigrationStage } from '../../cloudflare/waf-migration/preview.js';
import { managedRulesConfigOf, type ManagedRulesConfig } from '../../cloudflare/waf-migration/models.js';
import { parseWafPackageObject, wafSettingOf, type WafPackage, type WafSetting } from '../../cloudflare/legacy-waf/models.js';
import { ZonewardenError } from '../../common/errors.js';
import { IncompleteList, listAll } from '../lists.js';
import { type ZoneTarget } from '../zones.js';
import { arr, obj, str, strings } from '../../cloudflare/fields.js';

/**
 * Migrating a zone's managed rules in the spec's sequence: status, compatibility, configuration, then
 * the PUT. It is irreversible, so every reason to refuse is found by GET requests before that one write.
 */

export const MIGRATION_MODES = ['validation', 'pending'] as const;
export type MigrationMode = (typeof MIGRATION_MODES)[number];

export const ENTRYPOINT_PHASE = 'http_request_firewall_managed';
/** The API's code for an entry point that has never been written. */
const RULESET_NOT_FOUND = 10003;

export type { ManagedRulesConfig };

export type Readout<T> = { known: true; items: T[] } | { known: false; reason: string };

export interface UriOverride {
  id: string;
  urls: string[];
  description: string | null;
  paused: boolean;
}

export interface RuleExpression {
  id: string;
  description: string | null;
  action: string | null;
  products: string[];
  paused: boolean;
  /** Null when the rule's filter was deleted or could not be found. */
  expression: string | null;
}

/** Everything the GET requests said about one zone. */
export interface MigrationFacts {
  zone: ZoneTarget;
  state: string | null;
  oldWaf: string | null;
  newWaf: string | null;
  /** Null when not read (the zone has migrated) or when the check did not say. */
  compatible: boolean | null;
  config: ManagedRulesConfig | null;
  /** `config`: GET waf_migration/config; `entrypoint`: what validation mode already runs. */
  configSource: 'config' | 'entrypoint' | null;
  packages: Readout<WafPackage>;
  groups: Readout<WafSetting>;
  rules: Readout<WafSetting>;
  /** Null where URI-based overrides do not exist (every plan but Enterprise). */
  overrides: Readout<UriOverride> | null;
  firewallRules: Readout<RuleExpression>;
}

export type Stage = MigrationStage;

export interface Blocker {
  kind: 'incompatible' | 'too-many-rules' | 'expression-too-long' | 'unverified';
  message: string;
}

export interface MigrationPlan {
  zone: ZoneTarget;
  state: string | null;
  stage: Stage;
  oldWaf: string | null;
  newWaf: string | null;
  compatible: boolean | null;
  /** What makes the migration fail or needs the vendor's support; empty when none. */
  blockers: Blocker[];
  /** What the OWASP core rule set will be: from the configuration, else the spec's mapping table. */
  owasp: (OwaspOutcome & { known: true }) | { known: false; text: string };
  validationMode: { available: boolean; text: string };
  /** OWASP overrides the migration drops, and the vendor-package rule overrides it carries. */
  overrides: { known: true; lost: OwaspGroupChange[]; carried: WafSetting[] } | { known: false; reason: string };
  /** All firewall rules, and the bypass rules among them the migration carries (the only ones the limits apply to). */
  firewallRules: {
    count: number | null;
    bypass: Array<{ id: string; description: string | null; paused: boolean; bytes: number | null }>;
    longExpressions: Array<{ id: string; description: string | null; bytes: number; characters: number }>;
  };
  config: ManagedRulesConfig | null;
  configSource: 'config' | 'entrypoint' | null;
}

export class MigrationRefused extends ZonewardenError {
  constructor(message: string) {
    super('ZW_MIGRATION_REFUSED', message);
  }
}

export class MigrationFailed extends ZonewardenError {
  constructor(message: string) {
    super('ZW_MIGRATION_FAILED', message);
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
export const n = (x: number): string => x.toLocaleString('en-US');

export function entrypointPath(zoneId: string): string {
  return `/zones/${encodeURIComponent(zoneId)}/rulesets/phases/${ENTRYPOINT_PHASE}/entrypoint`;
}

// Reading.

/** API failures become "not known, because"; anything else is a bug and is thrown. */
async function readout<T>(read: () => Promise<T[]>): Promise<Readout<T>> {
  try {
    return { known: true, items: await read() };
  } catch (err) {
    if (err instanceof ApiError || err instanceof IncompleteList) return { known: false, reason: err.message };
    throw err;
  }
}

/** The entry point as a PUT body: server-managed fields (version, last_updated) left out. */
function configFromEntrypoint(raw: unknown): ManagedRulesConfig {
  const o = obj(raw);
  const rules = arr(o['rules']).filter(isObject).map((r) => {
    const { version: _version, last_updated: _updated, ...rest } = r;
    return rest;
  });
  return { name: str(o['name']) ?? 'default', rules };
}

async function firewallExpressions(client: ApiClient, zoneId: string): Promise<RuleExpression[]> {
  const params = { zone_id: zoneId };
  const rules = (await listAll(client, LIST_ENDPOINTS.firewallRules, params)).map(obj);
  // Rules usually carry their filter's expression; the filters are read only when one does not.
  const unresolved = rules.some((r) => {
    const f = obj(r['filter']);
    return str(f['expression']) === null && f['deleted'] !== true && str(f['id']) !== null;
  });
  const byId = new Map<string, string>();
  if (unresolved) {
    for (const f of (await listAll(client, LIST_ENDPOINTS.filters, params)).map(obj)) {
      const id = str(f['id']);
      const expression = str(f['expression']);
      if (id !== null && expression !== null) byId.set(id, expression);
    }
  }
  return rules.map((r) => {
    const f = obj(r['filter']);
    const filterId = str(f['id']);
    return {
      id: str(r['id']) ?? '',
      description: str(r['description']),
      action: str(r['action']),
      products: strings(r['products']),
      paused: r['paused'] === true,
      expression: str(f['expression']) ?? (filterId === null ? null : (byId.get(filterId) ?? null)),
    };
  });
}

async function legacyWaf(client: ApiClient, zoneId: string): Promise<Pick<MigrationFacts, 'packages' | 'groups' | 'rules'>> {
  const packages = await readout(async () =>
    (await listAll(client, LIST_ENDPOINTS.wafPackages, { zone_id: zoneId })).map((raw): WafPackage => parseWafPackageObject(str(obj(raw)['id']) ?? '', obj(raw))),
  );
  if (!packages.known) {
    const reason = `the packages of the previous managed rules could not be read (${packages.reason})`;
    return { packages, groups: { known: false, reason }, rules: { known: false, reason } };
  }
  const each = (endpoint: ListEndpoint, nameKey: 'name' | 'description') =>
    readout(async () => {
      const out: WafSetting[] = [];
      for (const p of packages.items) {
        for (const raw of await listAll(client, endpoint, { zone_id: zoneId, package_id: p.id })) out.push(wafSettingOf(obj(raw), nameKey, p.id));
      }
      return out;
    });
  return { packages, groups: await each(LIST_ENDPOINTS.wafGroups, 'name'), rules: await each(LIST_ENDPOINTS.wafRules, 'description') };
}

/** The GET requests of a plan: status first (nothing more once migrated); status, check and configuration required. */
export async function gatherFacts(client: ApiClient, zone: ZoneTarget): Promise<MigrationFacts> {
  const base = `/zones/${encodeURIComponent(zone.id)}`;
  const status = obj((await client.get<unknown>(`${base}/waf_migration/status`)).result);
  const state = str(status['migration_state']);
  const head = { zone, state, oldWaf: str(status['old_waf_status']), newWaf: str(status['new_waf_status']) };
  if (migrationStage(state) === 'complete') {
    const gone = { known: false as const, reason: 'the zone has migrated: the previous managed rules no longer exist' };
    return { ...head, compatible: null, config: null, configSource: null, packages: gone, groups: gone, rules: gone, overrides: null, firewallRules: gone };
  }
  const check = obj((await client.get<unknown>(`${base}/waf_migration/check`, { query: { phase_two: '1' } })).result);
  const compatible = typeof check['compatible'] === 'boolean' ? check['compatible'] : null;

  let config: ManagedRulesConfig | null = null;
  let configSource: MigrationFacts['configSource'] = null;
  if (migrationStage(state) === 'validation') {
    // Validation mode runs the configuration PUT when it began, perhaps adjusted since: finishing
    // the migration keeps it rather than going back to the one derived from the previous rules.
    try {
      config = configFromEntrypoint((await client.get<unknown>(entrypointPath(zone.id))).result);
      configSource = 'entrypoint';
    } catch (err) {
      if (!(err instanceof ApiError && err.hasCode(RULESET_NOT_FOUND))) throw err;
    }
  }
  if (config === null) {
    config = managedRulesConfigOf((await client.get<unknown>(`${base}/waf_migration/config`, { query: { phase_two: '1' } })).result);
    configSource = 'config';
  }

  const legacy = await legacyWaf(client, zone.id);
  const overrides =
    zone.plan === 'enterprise'
      ? await readout(async () =>
          (await listAll(client, LIST_ENDPOINTS.wafOverrides, { zone_id: zone.id })).map((raw): UriOverride => {
            const o = obj(raw);
            return { id: str(o['id']) ?? '', urls: strings(o['urls']), description: str(o['description']), paused: o['paused'] === true };
          }),
        )
      : null;
  const firewallRules = await readout(() => firewallExpressions(client, zone.id));
  return { ...head, compatible, config, configSource, ...legacy, overrides, firewallRules };
}

// Planning.

/** One meaning of the API's states everywhere: `default` is a zone that has not started, like `start`. */
export const stageOf = migrationStage;
