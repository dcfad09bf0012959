import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  assessZones,
  confirmRows,
  confirmStates,
  describeMode,
  executeMigration,
  gatherFacts,
  MIGRATION_MODES,
  MigrationFailed,
  migrateAssessed,
  MigrationRefused,
  parseAdjustedConfig,
  planMigration,
  prepareMigration,
  type AdjustedConfig,
  type BulkRow,
  type MigrationMode,
  type MigrationRequest,
} from '../../actions/migration/index.js';
import { resolveZone, zonesInScope } from '../../actions/zones.js';
import type { ApiClient } from '../../api/client.js';
import type { Config } from '../../config/load.js';
import { EXIT, UsageError } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import { printable, shorten } from '../../common/printable.js';
import { defineCommand, type CommandIO } from '../command.js';
import { applyJson, bulkText, confirmationText, lostSummary, MIGRATION_APPLY_SCHEMA, SOURCES } from '../output/migration-apply.js';
import { MIGRATION_PLAN_SCHEMA, planJson, planText } from '../output/migration-plan.js';
import { commonOptions, configFrom, loggerFor } from '../common.js';
import { clientFor } from '../../jobs/clients.js';
import { openWriteSession, type WriteSession } from '../write-session.js';

/** How long apply waits, by default, for the status to show the new state (the vendor: up to an hour). */
export const DEFAULT_WAIT_SECONDS = 120;
const COMMAND = 'migrate apply';

export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'plan or carry out the migration to the new managed rules (dry run unless --yes)',
  description: `
'zonewarden migrate plan --zone Z' reads the zone's migration status, compatibility check and the
equivalent new configuration, its previous managed rules and its firewall rules (GET requests
only), and shows: what blocks the migration (URI-based overrides; more than 200 bypass rules to
migrate; a bypass rule's expression over 4 KB), the firewall rules that bypass the previous
managed rules, which the migration carries (other firewall rules are not migrated and do not
count), the overrides of the previous OWASP core rule set it drops and the vendor-package rule
overrides it carries, what the OWASP rule set becomes (from the API's configuration; the spec's
sensitivity table only when that is silent), whether validation mode is available (Enterprise
only) and the resulting configuration. --format json prints it all; its "config" object can be
saved, edited and given to apply with --config FILE.

'zonewarden migrate apply --zone Z --mode validation|pending --yes' follows the spec's sequence:
check, configuration (or yours from --config FILE), then PUT the entry point with
waf_migration=validation (Enterprise zones: both versions run, the new first) or pending (the new
managed rules only; the previous ones are disabled). A zone in validation mode finishes with
--mode pending, keeps the configuration validation mode runs, and is not held to the eligibility
checks again. Refused before anything is written: zones that are not compatible, have more than
200 bypass rules to migrate or a longer expression, have migrated already, ask for validation off
Enterprise, or whose configuration has no rule enabled (the zone must stay protected throughout).
After the PUT, apply says "requested" and reads the status until it shows the new state, for at
most --wait SECONDS (default ${DEFAULT_WAIT_SECONDS}; the switch can take up to an hour; 0 reads it once):
a zone is reported migrated only once the API says so.

--all-eligible migrates every eligible zone in scope (--account, --zone) and prints a table of what
happened to each. With --mode pending --yes and neither --zone nor --account, it is every zone the
token can see, irreversibly: it then also needs --confirm-zones N, N being the number of zones the
dry run said would migrate, and writes nothing if that number differs.

THE MIGRATION IS IRREVERSIBLE. Without --yes, apply is a dry run: it shows the PUT it would send
and writes nothing. Every write is recorded in the database's audit log, and the zones written
are rescanned. Note: --config here is the adjusted managed-rules configuration, not the zonewarden
config file, which this command reads from ./zonewarden.config.json only.

Exit 0: done, a dry run, or requested and not yet shown within --wait. Exit 2: a usage error, a
refusal, or a write the API refused (with --all-eligible: any zone that failed or could not be
read).`,
  args: [{ name: 'action', help: 'plan (read only) or apply' }],
  options: {
    zone: { type: 'list', value: 'NAME|ID', help: 'the zone to plan or migrate; with --all-eligible, limits the zones considered' },
    mode: { type: 'string', choices: MIGRATION_MODES, value: 'MODE', help: 'apply: validation (Enterprise only: both versions run) or pending (new managed rules only)' },
    config: {
      type: 'string',
      value: 'FILE',
      help: 'apply: your adjusted managed-rules configuration, JSON {"name", "rules"} (the "config" of plan --format json); not the zonewarden config file',
    },
    yes: { type: 'boolean', help: 'apply: do it; without it nothing is written' },
    'all-eligible': { type: 'boolean', help: 'apply: every eligible zone in scope (--account, --zone), with a summary' },
    wait: {
      type: 'integer',
      default: DEFAULT_WAIT_SECONDS,
      min: 0,
      max: 3600,
      value: 'SECONDS',
      help: 'apply --yes: how long to read the status until it shows the new state (0: read it once)',
    },
    'confirm-zones': {
      type: 'integer',
      min: 0,
      value: 'N',
      help: 'apply --all-eligible --mode pending --yes without --zone/--account: the number of zones the dry run said would migrate',
    },
    format: { type: 'string', default: 'text', choices: ['text', 'json'], help: `output: text, or JSON (schemas ${MIGRATION_PLAN_SCHEMA}, ${MIGRATION_APPLY_SCHEMA})` },
    ...commonOptions('baseUrl', 'db', 'account', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: [
    'zonewarden migrate plan --zone example.com',
    'zonewarden migrate plan --zone example.com --format json | jq .config > managed.json',
    'zonewarden migrate apply --zone example.com --mode validation --config managed.json --yes',
    'zonewarden migrate apply --zone example.com --mode pending --yes',
    'zonewarden migrate apply --all-eligible --account 023e105f4ecef8ad9ca31a8372d0c353 --mode pending',
    'zonewarden migrate apply --all-eligible --mode pending --yes --confirm-zones 37 --wait 600',
  ],
  async run(o, io, args) {
    const action = args[0];
    if (action !== 'plan' && action !== 'apply') {
      throw new UsageError(`unknown action "${shorten(action ?? '', 40)}"; use plan (read only) or apply, e.g. zonewarden migrate plan --zone example.com`);
    }
    const all = o['all-eligible'];
    if (action === 'plan') {
      const misplaced = (['mode', 'config', 'yes', 'all-eligible', 'confirm-zones'] as const).find((k) => o[k] !== undefined && o[k] !== false);
      if (misplaced) throw new UsageError(`--${misplaced} belongs to migrate apply; migrate plan only reads`);
    }
    if (!all) {
      if (o.zone.length !== 1) throw new UsageError(`name exactly one zone with --zone NAME|ID${action === 'apply' ? ', or use --all-eligible' : ''}`);
      if ((o.account as string[] | undefined)?.length) throw new UsageError('--account selects zones for --all-eligible; with one zone, name it with --zone only');
    } else if (o.config !== undefined) {
      throw new UsageError('--config is one zone\'s configuration, so it does not go with --all-eligible; migrate that zone on its own');
    }
    if (o['confirm-zones'] !== undefined && !all) throw new UsageError('--confirm-zones goes with --all-eligible; one zone named with --zone needs no count');
    if (action === 'apply' && o.mode === undefined) {
      throw new UsageError('apply needs --mode: validation (Enterprise zones; both versions run) or pending (the new managed rules only)');
    }
    const mode = o.mode as MigrationMode;
    const adjusted = o.config === undefined ? undefined : readAdjusted(o.config, io.cwd);
    // --config is this command's configuration file, so it must not reach the config loader.
    const { config: _adjustedFile, ...rest } = o;
    const config = configFrom(rest, io);

    if (action === 'plan') return plan(config, io, o.zone[0]!, o.format);
    const waitMs = o.wait * 1000;
    if (all) {
      const everything = o.zone.length === 0 && !(o.account as string[] | undefined)?.length;
      return applyAll(config, io, { mode, yes: o.yes, format: o.format, waitMs, confirmZones: o['confirm-zones'] ?? null, everything });
    }
    return applyOne(config, io, { ref: o.zone[0]!, mode, yes: o.yes, format: o.format, waitMs, ...(adjusted ? { adjusted } : {}) });
  },
});

function readAdjusted(file: string, cwd: string): AdjustedConfig {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --config ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}); it is the adjusted managed-rules configuration`);
  }
  return { config: parseAdjustedConfig(text, `--config ${file}`), file };
}

function plan(config: Config, io: CommandIO, ref: string, format: string): Promise<number> {
  return withApi(config, io, false, async (_session, _logger, client) => {
    const zone = await resolveZone(client, ref);
    const p = planMigration(await gatherFacts(client, zone));
    io.stdout(format === 'json' ? `${JSON.stringify(planJson(p), null, 2)}\n` : planText(p));
    return EXIT.ok;
  });
}

function warnIrreversible(logger: Logger, what: string, mode: MigrationMode): void {
  const first = mode === 'validation' ? ' (validation mode is its first step: from there the only way is on, with --mode pending)' : '';
  logger.warn(`migrating ${what} to the new managed rules is irreversible: once finished, the previous managed rules and their APIs are gone${first}`);
}

interface ApplyOptions {
  mode: MigrationMode;
  yes: boolean;
  format: string;
  waitMs: number;
}

/** A pause between status reads that a stop signal (Ctrl-C) ends at once. */
function sleepUntilStopped(stop: Promise<string>): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      void stop.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
}

/**
 * Runs with a write session (apply --yes) or a client alone: a plan or a dry run opens no database, so it writes
 * nothing at all, not even an empty file. `stopped`: the stop signal received, if any.
 */
type ApiWork = (session: WriteSession | null, logger: Logger, client: ApiClient, stopped: () => string | null) => Promise<number>;
async function withApi(config: Config, io: CommandIO, yes: boolean, work: ApiWork): Promise<number> {
  const session = yes ? openWriteSession(config, io) : null;
  const logger = session?.logger ?? loggerFor(config, io);
  const client = session?.client ?? clientFor(config, io, logger);
  let stoppedBy: string | null = null;
  void io.stopSignal.then((signal) => {
    stoppedBy = signal;
  });
  try {
    return await work(session, logger, client, () => stoppedBy);
  } finally {
    if (session) await session.close();
    else await client.close();
  }
}

function applyOne(config: Config, io: CommandIO, opts: ApplyOptions & { ref: string; adjusted?: AdjustedConfig }): Promise<number> {
  const say = (text: string) => opts.format === 'text' && io.stdout(`${printable(text)}\n`);
  return withApi(config, io, opts.yes, async (session, logger, client, stopped) => {
    const zone = await resolveZone(client, opts.ref);
    const prepared = await prepareMigration(client, zone, opts.mode, opts.adjusted);
    if (prepared.request === null) throw new MigrationRefused(`will not migrate ${zone.name}, nothing was written: ${prepared.refusals.join('; ')}`);
    const request = prepared.request;
    const p = prepared.plan;
    say(`zone ${zone.name} (${zone.plan ?? 'unknown'} plan, state ${p.state ?? 'unknown'})`);
    say(`${session ? 'sending' : 'would send'} PUT ${request.path}?${new URLSearchParams(request.query)}`);
    say(`  body: configuration "${request.body.name}" with ${request.body.rules.length} rule(s), from ${SOURCES[request.configSource]}`);
    say(`  effect: ${describeMode(opts.mode, p.stage)}; after it, ${p.owasp.text}`);
    say(`  lost: ${lostSummary(p)}`);
    warnIrreversible(logger, zone.name, opts.mode);
    if (!session) {
      say('dry run: nothing was written; add --yes to migrate');
      if (opts.format === 'json') io.stdout(applyJson(opts.mode, true, [row(request, 'would migrate', describeMode(opts.mode, p.stage))], null));
      return EXIT.ok;
    }
    const outcome = await executeMigration(session.client, session.log, request, COMMAND);
    if (!outcome.ok) {
      // Rescanned even after a failure: a write that failed in transit may still have happened.
      const scanId = await session.rescan([zone.name]);
      if (opts.format === 'json') io.stdout(applyJson(opts.mode, false, [{ ...row(request, 'failed', outcome.error ?? ''), httpStatus: outcome.httpStatus, apiCodes: outcome.apiCodes }], scanId));
      throw new MigrationFailed(`the API refused the migration of ${zone.name}: ${outcome.error ?? 'no reason given'} (recorded in the audit log)`);
    }
    say(`requested: the API took the PUT (HTTP ${outcome.httpStatus ?? '?'}); reading the status until it shows ${opts.mode === 'validation' ? 'validation mode' : 'the migration complete'} (at most ${opts.waitMs / 1000} s)`);
    const confirmation = (await confirmStates(session.client, [{ id: zone.id, mode: opts.mode }], { waitMs: opts.waitMs, stopped, sleep: sleepUntilStopped(io.stopSignal) })).get(zone.id);
    say(confirmationText(zone.name, opts.mode, confirmation, opts.waitMs));
    const scanId = await session.rescan([zone.name]);
    const done = confirmation?.confirmed === true;
    const reason = done ? describeMode(opts.mode, p.stage) : confirmationText(zone.name, opts.mode, confirmation, opts.waitMs);
    if (opts.format === 'json') io.stdout(applyJson(opts.mode, false, [{ ...row(request, done ? 'migrated' : 'requested', reason), httpStatus: outcome.httpStatus }], scanId));
    return EXIT.ok;
  });
}

function row(request: MigrationRequest, outcome: BulkRow['outcome'], reason: string): BulkRow {
  return { zone: request.zone, outcome, reason, request, httpStatus: null, apiCodes: [] };
}

interface AllOptions extends ApplyOptions {
  /** --confirm-zones: the count the user typed, or null. */
  confirmZones: number | null;
  /** Neither --zone nor --account: every zone the token can see. */
  everything: boolean;
}

/** --mode pending on every zone is irreversible for all: the user must give the dry run's count, or nothing is written. */
function checkCount(opts: AllOptions, eligible: number): void {
  if (!opts.yes || opts.mode !== 'pending' || !opts.everything) return;
  const again = `run the dry run (without --yes) to see them, then add --confirm-zones ${eligible}, or limit the scope with --account or --zone`;
  if (opts.confirmZones === null) {
    throw new UsageError(`--all-eligible --mode pending without --zone or --account migrates every zone the token can see, irreversibly (${eligible} eligible now); nothing was written: ${again}`);
  }
  if (opts.confirmZones !== eligible) throw new UsageError(`--confirm-zones ${opts.confirmZones} does not match the ${eligible} zone(s) eligible now; nothing was written: ${again}`);
}

function applyAll(config: Config, io: CommandIO, opts: AllOptions): Promise<number> {
  const { mode, format } = opts;
  return withApi(config, io, opts.yes, async (session, logger, client, stopped) => {
    const zones = await zonesInScope(client, { accounts: config.account, zones: config.zone });
    let rows = await assessZones(client, zones, mode, config.concurrency);
    const eligible = rows.filter((r) => r.outcome === 'would migrate').length;
    checkCount(opts, eligible);
    if (eligible) warnIrreversible(logger, `${eligible} zone(s)`, mode);
    let scanId: number | null = null;
    if (session && eligible) {
      rows = await migrateAssessed(session.client, session.log, rows, COMMAND, stopped);
      const wait = { waitMs: opts.waitMs, stopped, sleep: sleepUntilStopped(io.stopSignal) };
      rows = await confirmRows(session.client, rows, mode, wait, (r, c) => confirmationText(r.zone.name, mode, c, opts.waitMs));
      scanId = await session.rescan(rows.filter((r) => r.outcome === 'migrated' || r.outcome === 'requested' || r.outcome === 'failed').map((r) => r.zone.name));
    }
    if (format === 'json') io.stdout(applyJson(mode, !session, rows, scanId));
    else io.stdout(bulkText(rows, mode, !session));
    return rows.some((r) => r.outcome === 'failed' || r.outcome === 'error' || r.outcome === 'not attempted') ? EXIT.usage : EXIT.ok;
  });
}

