import pLimit from 'p-limit';
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { UsageError } from '../../common/errors.js';
import { failureOf, type ActionLog } from '../log.js';
import { type ZoneTarget } from '../zones.js';
import { type MigrationMode, type ManagedRulesConfig, type Stage, type MigrationPlan, isObject, gatherFacts, stageOf } from './facts.js';
import { obj, str } from '../../cloudflare/fields.js';
import { planMigration, refusalsFor, type MigrationRequest, type AdjustedConfig, migrationRequest } from './plan.js';

/** Carrying a decision out: one zone or every eligible one, each write logged whatever its outcome. */

export interface Prepared {
  plan: MigrationPlan;
  refusals: string[];
  /** Null when refused. */
  request: MigrationRequest | null;
}

/** The GETs and the decision for one zone; nothing is written. */
export async function prepareMigration(client: ApiClient, zone: ZoneTarget, mode: MigrationMode, adjusted?: AdjustedConfig): Promise<Prepared> {
  const plan = planMigration(await gatherFacts(client, zone));
  const refusals = refusalsFor(plan, mode, adjusted?.config);
  return { plan, refusals, request: refusals.length ? null : migrationRequest(plan, mode, adjusted) };
}

export interface MigrationOutcome {
  request: MigrationRequest;
  ok: boolean;
  httpStatus: number | null;
  apiCodes: number[];
  /** The API's or the transport's error, one line; null on success. */
  error: string | null;
}

/** The one write: PUT the entry point, recorded in the audit log whatever happens. */
export async function executeMigration(client: ApiClient, log: ActionLog, request: MigrationRequest, command: string): Promise<MigrationOutcome> {
  const entry = {
    command,
    action: `migration.${request.mode}`,
    target: { type: 'zone', id: request.zone.id, name: request.zone.name },
    zone: { id: request.zone.id, name: request.zone.name },
    detail: { query: request.query, rules: request.body.rules.length, configSource: request.configSource, stateBefore: request.stateBefore, plan: request.zone.plan },
  };
  try {
    const answer = await client.request<unknown>(request.method, request.path, { query: request.query, body: request.body });
    log.record({ ...entry, outcome: 'ok', httpStatus: answer.status });
    return { request, ok: true, httpStatus: answer.status, apiCodes: [], error: null };
  } catch (err) {
    log.recordFailure(entry, err);
    const { httpStatus, apiCodes, message } = failureOf(err);
    return { request, ok: false, httpStatus, apiCodes, error: message };
  }
}

// The user's adjusted configuration (--config FILE).

/** Checks the shape of an adjusted configuration; the API checks the rules themselves. */
export function parseAdjustedConfig(text: string, source: string): ManagedRulesConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${source} is not valid JSON (${(err as Error).message})`);
  }
  const shape = `a managed-rules configuration {"name": "default", "rules": [...]}, such as the "config" object of zonewarden migrate plan --format json`;
  if (!isObject(parsed)) throw new UsageError(`${source} must hold ${shape}`);
  if (!('rules' in parsed) && isObject(parsed['config'])) throw new UsageError(`${source} holds a whole plan: save only its "config" object (e.g. jq .config) and pass that`);
  if (typeof parsed['name'] !== 'string' || parsed['name'] === '') throw new UsageError(`${source}: "name" must be a non-empty string (the configuration's name, e.g. "default")`);
  const rules = parsed['rules'];
  if (!Array.isArray(rules)) throw new UsageError(`${source}: "rules" must be an array; the file must hold ${shape}`);
  if (rules.length === 0) throw new UsageError(`${source}: "rules" is empty, which would leave the zone with no managed rules once the previous ones are disabled`);
  rules.forEach((rule, i) => {
    if (!isObject(rule)) throw new UsageError(`${source}: rules[${i}] must be an object`);
    if (typeof rule['action'] !== 'string' || typeof rule['expression'] !== 'string') {
      throw new UsageError(`${source}: rules[${i}] needs "action" and "expression" strings`);
    }
  });
  return { name: parsed['name'], rules: rules as Array<Record<string, unknown>> };
}

// Many zones (--all-eligible).

/** `requested`: the API took the PUT but its status did not show the new state within --wait. */
export type BulkOutcome = 'migrated' | 'requested' | 'would migrate' | 'skipped' | 'failed' | 'error' | 'not attempted';

export interface BulkRow {
  zone: ZoneTarget;
  outcome: BulkOutcome;
  reason: string;
  request: MigrationRequest | null;
  httpStatus: number | null;
  apiCodes: number[];
}

/** Reads and decides for every zone, a few at a time; a zone that cannot be read is an error row, not the end. */
export async function assessZones(client: ApiClient, zones: readonly ZoneTarget[], mode: MigrationMode, concurrency: number): Promise<BulkRow[]> {
  const limit = pLimit(Math.max(1, concurrency));
  return Promise.all(
    zones.map((zone) =>
      limit(async (): Promise<BulkRow> => {
        const base = { zone, request: null, httpStatus: null, apiCodes: [] };
        try {
          const prepared = await prepareMigration(client, zone, mode);
          if (prepared.request === null) return { ...base, outcome: 'skipped', reason: prepared.refusals.join('; ') };
          return { ...base, outcome: 'would migrate', reason: describeMode(mode, prepared.plan.stage), request: prepared.request };
        } catch (err) {
          const api = err instanceof ApiError ? err : null;
          if (!api) throw err;
          return { ...base, outcome: 'error', reason: `could not read the zone's migration state: ${api.message}`, httpStatus: api.status, apiCodes: failureOf(api).apiCodes };
        }
      }),
    ),
  );
}

/** The writes of the eligible rows, one after another so the log reads in order; `stopped` ends them early. */
export async function migrateAssessed(client: ApiClient, log: ActionLog, rows: readonly BulkRow[], command: string, stopped: () => string | null): Promise<BulkRow[]> {
  const out: BulkRow[] = [];
  for (const row of rows) {
    if (row.outcome !== 'would migrate' || row.request === null) {
      out.push(row);
      continue;
    }
    const signal = stopped();
    if (signal) {
      out.push({ ...row, outcome: 'not attempted', reason: `stopped by ${signal} before this zone` });
      continue;
    }
    const result = await executeMigration(client, log, row.request, command);
    out.push(
      result.ok
        ? { ...row, outcome: 'requested', reason: 'the API took the request; its status has not shown the new state yet', httpStatus: result.httpStatus }
        : { ...row, outcome: 'failed', reason: result.error ?? 'the API refused the migration', httpStatus: result.httpStatus, apiCodes: result.apiCodes },
    );
  }
  return out;
}

// Confirming: the API takes the PUT at once but the switch can take up to an hour to show (vendor).

/** The stage the status shows once a PUT of this mode has taken effect. */
export const TARGET_STAGE: Record<MigrationMode, Stage> = { validation: 'validation', pending: 'complete' };

export interface Confirmation {
  /** True once the status shows the target stage. */
  confirmed: boolean;
  /** The state the status showed last; null when it could not be read. */
  state: string | null;
  /** Why the last status read failed, when it did. */
  error: string | null;
}

export interface WaitOptions {
  /** How long to wait in all, in milliseconds; 0 reads the status once. */
  waitMs: number;
  /** First pause between reads; doubles up to `maxPollMs`. */
  pollMs?: number;
  maxPollMs?: number;
  /** Ends the wait early (a stop signal): the rows not yet confirmed stay unconfirmed. */
  stopped?: () => string | null;
  sleep?: (ms: number) => Promise<void>;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls the zones' migration statuses in one loop until each shows its stage or time is up; never throws. */
export async function confirmStates(client: ApiClient, zones: ReadonlyArray<{ id: string; mode: MigrationMode }>, options: WaitOptions): Promise<Map<string, Confirmation>> {
  const sleep = options.sleep ?? delay;
  const deadline = Date.now() + options.waitMs;
  let pause = options.pollMs ?? 2000;
  const out = new Map<string, Confirmation>(zones.map((z) => [z.id, { confirmed: false, state: null, error: null }]));
  for (;;) {
    for (const z of zones) {
      if (out.get(z.id)!.confirmed) continue;
      try {
        const state = str(obj((await client.get<unknown>(`/zones/${encodeURIComponent(z.id)}/waf_migration/status`)).result)['migration_state']);
        out.set(z.id, { confirmed: stageOf(state) === TARGET_STAGE[z.mode], state, error: null });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        out.set(z.id, { ...out.get(z.id)!, error: err.message });
      }
    }
    const left = deadline - Date.now();
    if ([...out.values()].every((c) => c.confirmed) || left <= 0 || options.stopped?.()) return out;
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, options.maxPollMs ?? 15_000);
  }
}

/** What a PUT of this mode does from this stage, for the user. */
export function describeMode(mode: MigrationMode, stage: Stage): string {
  if (mode === 'validation') return 'to validation mode: both versions run, the new managed rules first';
  return stage === 'validation' ? 'from validation mode to the new managed rules only: the previous ones are disabled' : 'to the new managed rules only: the previous ones are disabled at once';
}

