import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  assessZones,
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
  type MigrationPlan,
  type MigrationRequest,
} from '../../actions/migration/index.js';
import { resolveZone, zonesInScope } from '../../actions/zones.js';
import type { ApiClient } from '../../api/client.js';
import type { Config } from '../../config/load.js';
import { EXIT, UsageError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { printable, shorten } from '../../shared/printable.js';
import { defineCommand, type CommandIO } from '../command.js';
import { clientFor, commonOptions, configFrom, loggerFor } from '../common.js';
import { openWriteSession } from '../write-session.js';

export const MIGRATION_PLAN_SCHEMA = 'zonewarden.migration-plan/1';
export const MIGRATION_APPLY_SCHEMA = 'zonewarden.migration-apply/1';
const COMMAND = 'migrate apply';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'plan or carry out the migration to the new managed rules (dry run unless --yes)',
  description: `
'zonewarden migrate plan --zone Z' reads the zone's migration status, compatibility check and the
equivalent new configuration, its previous managed rules and its firewall rules (GET requests
only), and shows what blocks the migration (URI-based overrides, more than 200 firewall rules, an
expression over 4 KB), the sensitivity mapping, the action, whether validation mode is available
(Enterprise only), what is lost (group and rule overrides are not migrated) and the resulting
configuration. --format json prints it all; its "config" object can be saved, edited and given
to apply with --config FILE.

'zonewarden migrate apply --zone Z --mode validation|pending --yes' follows the spec's sequence:
check, configuration (or yours from --config FILE), then PUT the entry point with
waf_migration=validation (Enterprise zones: both versions run, the new first) or pending (the new
managed rules only; the previous ones are disabled). A zone in validation mode finishes with
--mode pending and keeps the configuration validation mode runs. Zones that are not compatible,
have more than 200 firewall rules or a longer expression, have migrated already, or ask for
validation off Enterprise are refused before anything is written. --all-eligible migrates every
eligible zone in scope (--account, --zone) and prints a table of what happened to each.

THE MIGRATION IS IRREVERSIBLE. Without --yes, apply is a dry run: it shows the PUT it would send
and writes nothing. Every write is recorded in the database's audit log, and the zones written
are rescanned. Note: --config here is the adjusted managed-rules configuration, not the zonewarden
config file, which this command reads from ./zonewarden.config.json only.

Exit 0: done (or a dry run). Exit 2: a usage error, a refusal, or a write the API refused (with
--all-eligible: any zone that failed or could not be read).`,
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
    format: { type: 'string', default: 'text', choices: ['text', 'json'], help: 'output: text, or JSON (schemas zonewarden.migration-plan/1, zonewarden.migration-apply/1)' },
    ...commonOptions('baseUrl', 'db', 'account', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: [
    'zonewarden migrate plan --zone example.com',
    'zonewarden migrate plan --zone example.com --format json | jq .config > managed.json',
    'zonewarden migrate apply --zone example.com --mode validation --config managed.json --yes',
    'zonewarden migrate apply --zone example.com --mode pending --yes',
    'zonewarden migrate apply --all-eligible --account 023e105f4ecef8ad9ca31a8372d0c353 --mode pending',
  ],
  async run(o, io, args) {
    const action = args[0];
    if (action !== 'plan' && action !== 'apply') {
      throw new UsageError(`unknown action "${shorten(action ?? '', 40)}"; use plan (read only) or apply, e.g. zonewarden migrate plan --zone example.com`);
    }
    const all = o['all-eligible'];
    if (action === 'plan') {
      const misplaced = (['mode', 'config', 'yes', 'all-eligible'] as const).find((k) => o[k] !== undefined && o[k] !== false);
      if (misplaced) throw new UsageError(`--${misplaced} belongs to migrate apply; migrate plan only reads`);
    }
    if (!all) {
      if (o.zone.length !== 1) throw new UsageError(`name exactly one zone with --zone NAME|ID${action === 'apply' ? ', or use --all-eligible' : ''}`);
      if ((o.account as string[] | undefined)?.length) throw new UsageError('--account selects zones for --all-eligible; with one zone, name it with --zone only');
    } else if (o.config !== undefined) {
      throw new UsageError('--config is one zone\'s configuration, so it does not go with --all-eligible; migrate that zone on its own');
    }
    let mode: MigrationMode | null = null;
    if (action === 'apply') {
      if (o.mode === undefined) throw new UsageError('apply needs --mode: validation (Enterprise zones; both versions run) or pending (the new managed rules only)');
      mode = o.mode as MigrationMode;
    }
    const adjusted = o.config === undefined ? undefined : readAdjusted(o.config, io.cwd);
    // --config is this command's configuration file, so it must not reach the config loader.
    const { config: _adjustedFile, ...rest } = o;
    const config = configFrom(rest, io);

    if (action === 'plan') return plan(config, io, o.zone[0]!, o.format);
    if (all) return applyAll(config, io, mode!, o.yes, o.format);
    return applyOne(config, io, { ref: o.zone[0]!, mode: mode!, yes: o.yes, format: o.format, ...(adjusted ? { adjusted } : {}) });
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

// plan

async function plan(config: Config, io: CommandIO, ref: string, format: string): Promise<number> {
  const logger = loggerFor(config, io);
  const client = clientFor(config, io, logger);
  try {
    const zone = await resolveZone(client, ref);
    const p = planMigration(await gatherFacts(client, zone));
    io.stdout(format === 'json' ? `${JSON.stringify(planJson(p), null, 2)}\n` : planText(p));
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

export function planJson(p: MigrationPlan): Record<string, unknown> {
  return {
    schema: MIGRATION_PLAN_SCHEMA,
    zone: p.zone,
    state: p.state,
    stage: p.stage,
    oldWaf: p.oldWaf,
    newWaf: p.newWaf,
    compatible: p.compatible,
    blockers: p.blockers,
    sensitivity: p.sensitivity,
    action: p.action,
    validationMode: p.validationMode,
    lost: p.lost,
    firewallRules: p.firewallRules,
    configSource: p.configSource,
    config: p.config,
  };
}

function settingName(s: { id: string; name: string | null }): string {
  return s.name ? `${s.name}${/^\d+$/.test(s.id) ? ` (${s.id})` : ''}` : s.id;
}

export function planText(p: MigrationPlan): string {
  const lines: string[] = [`migration plan for ${p.zone.name} (${p.zone.plan ?? 'unknown'} plan, zone ${p.zone.id})`];
  if (p.stage === 'complete') {
    lines.push('already migrated (state complete): the new managed rules run and the previous ones are gone; the migration is irreversible, so there is nothing to plan');
    return `${lines.map(printable).join('\n')}\n`;
  }
  const wafs = `previous managed rules ${p.oldWaf ?? 'unknown'}, new ${p.newWaf ?? 'unknown'}`;
  lines.push(`state: ${p.state ?? 'unknown'}${p.stage === 'validation' ? ' (validation mode: both versions run, the new first)' : ''}; ${wafs}`);
  lines.push(p.blockers.length ? 'blockers:' : 'blockers: none');
  for (const b of p.blockers) lines.push(`  - ${b.message}`);
  lines.push(p.sensitivity.text, p.action.text, p.validationMode.text);
  if (!p.lost.known) lines.push(`lost: not known, the groups and rules of the previous managed rules could not be read (${p.lost.reason})`);
  else if (!p.lost.groupOverrides.length && !p.lost.ruleOverrides.length && !p.lost.groupsOff.length) lines.push('lost: nothing, the zone has no group or rule overrides');
  else {
    lines.push('lost (group and rule overrides of the previous managed rules are not migrated):');
    for (const g of p.lost.groupOverrides) lines.push(`  - group override: ${settingName(g)} ${g.mode} (default ${g.defaultMode})`);
    for (const r of p.lost.ruleOverrides) lines.push(`  - rule override: ${settingName(r)} ${r.mode} (default ${r.defaultMode})`);
    for (const g of p.lost.groupsOff) lines.push(`  - group switched off, perhaps by default: ${settingName(g)}`);
  }
  const fw = p.firewallRules;
  if (fw.count !== null) lines.push(`firewall rules: ${fw.count} (the migration carries at most 200, with expressions of at most 4,096 bytes)`);
  if (p.config) {
    const from = p.configSource === 'entrypoint' ? 'what validation mode runs now, kept when it finishes' : 'GET waf_migration/config';
    lines.push(`resulting configuration "${p.config.name}" (${p.config.rules.length} rule(s), from ${from}):`);
    p.config.rules.forEach((rule, i) => lines.push(ruleLine(rule, i)));
    if (!p.config.rules.some((r) => r['enabled'] !== false)) lines.push('  note: every rule is disabled, so the zone would run no managed rules after the migration');
    lines.push('  the full configuration: --format json; its "config" object, saved and edited, goes to apply --config FILE');
  }
  lines.push(nextStep(p));
  return `${lines.map(printable).join('\n')}\n`;
}

function ruleLine(rule: Record<string, unknown>, i: number): string {
  const action = str(rule['action']) ?? '?';
  const params = obj(rule['action_parameters']);
  const target = action === 'execute' && str(params['id']) ? ` ruleset ${str(params['id'])}` : '';
  const overrides = obj(params['overrides']);
  const parts = [count(overrides['categories']) ? `${count(overrides['categories'])} category override(s)` : '', count(overrides['rules']) ? `${count(overrides['rules'])} rule override(s)` : ''].filter(Boolean);
  const expression = str(rule['expression']);
  const when = expression === 'true' ? 'all traffic' : `when ${shorten(expression ?? '?', 80)}`;
  const description = str(rule['description']);
  return `  ${i + 1}. ${action}${target} (${rule['enabled'] === false ? 'disabled' : 'enabled'}), ${when}${parts.length ? `; ${parts.join(', ')}` : ''}${description ? `: "${shorten(description, 60)}"` : ''}`;
}

function nextStep(p: MigrationPlan): string {
  if (p.stage === 'unknown') return `next: the migration state "${p.state ?? 'none'}" is not one zonewarden knows; check the zone in the dashboard`;
  if (p.blockers.length) return 'next: remove the blockers above, then plan again';
  const mode = p.stage === 'start' && p.validationMode.available ? 'validation' : 'pending';
  return `next: zonewarden migrate apply --zone ${p.zone.name} --mode ${mode} (a dry run; add --yes to migrate)`;
}

// apply, one zone

function queryText(r: MigrationRequest): string {
  return new URLSearchParams(r.query).toString();
}

const SOURCES: Record<MigrationRequest['configSource'], string> = {
  config: 'GET waf_migration/config',
  entrypoint: 'the entry point validation mode runs',
  file: 'your file',
};

function lostSummary(p: MigrationPlan): string {
  if (!p.lost.known) return 'group and rule overrides are not migrated (they could not be read)';
  const { groupOverrides: g, ruleOverrides: r, groupsOff } = p.lost;
  const parts = [g.length ? `${g.length} group override(s)` : '', r.length ? `${r.length} rule override(s)` : ''].filter(Boolean);
  const off = groupsOff.length ? ` (and ${groupsOff.length} group(s) switched off, perhaps by default)` : '';
  return parts.length ? `${parts.join(' and ')} not migrated${off}; zonewarden migrate plan lists them` : `no group or rule overrides${off}`;
}

function warnIrreversible(logger: Logger, what: string, mode: MigrationMode): void {
  const first = mode === 'validation' ? ' (validation mode is its first step: from there the only way is on, with --mode pending)' : '';
  logger.warn(`migrating ${what} to the new managed rules is irreversible: once finished, the previous managed rules and their APIs are gone${first}`);
}

interface OneOptions {
  ref: string;
  mode: MigrationMode;
  yes: boolean;
  format: string;
  adjusted?: AdjustedConfig;
}

async function applyOne(config: Config, io: CommandIO, opts: OneOptions): Promise<number> {
  // A dry run opens no database, so it writes nothing at all, not even an empty file.
  const session = opts.yes ? openWriteSession(config, io) : null;
  const logger = session?.logger ?? loggerFor(config, io);
  const client = session?.client ?? clientFor(config, io, logger);
  const say = (text: string) => opts.format === 'text' && io.stdout(`${printable(text)}\n`);
  try {
    const zone = await resolveZone(client, opts.ref);
    const prepared = await prepareMigration(client, zone, opts.mode, opts.adjusted);
    if (prepared.request === null) throw new MigrationRefused(`will not migrate ${zone.name}, nothing was written: ${prepared.refusals.join('; ')}`);
    const request = prepared.request;
    const p = prepared.plan;
    say(`zone ${zone.name} (${zone.plan ?? 'unknown'} plan, state ${p.state ?? 'unknown'})`);
    say(`${session ? 'sending' : 'would send'} PUT ${request.path}?${queryText(request)}`);
    say(`  body: configuration "${request.body.name}" with ${request.body.rules.length} rule(s), from ${SOURCES[request.configSource]}`);
    say(`  effect: ${describeMode(opts.mode, p.stage)}; ${p.sensitivity.text}; ${p.action.text}`);
    say(`  lost: ${lostSummary(p)}`);
    warnIrreversible(logger, zone.name, opts.mode);
    if (!session) {
      say('dry run: nothing was written; add --yes to migrate');
      if (opts.format === 'json') io.stdout(applyJson(opts.mode, true, [row(request, 'would migrate', describeMode(opts.mode, p.stage))], null));
      return EXIT.ok;
    }
    const outcome = await executeMigration(session.client, session.log, request, COMMAND);
    // Rescanned even after a failure: a write that failed in transit may still have happened.
    const scanId = await session.rescan([zone.name]);
    if (!outcome.ok) {
      if (opts.format === 'json') io.stdout(applyJson(opts.mode, false, [{ ...row(request, 'failed', outcome.error ?? ''), httpStatus: outcome.httpStatus, apiCodes: outcome.apiCodes }], scanId));
      throw new MigrationFailed(`the API refused the migration of ${zone.name}: ${outcome.error ?? 'no reason given'} (recorded in the audit log)`);
    }
    say(opts.mode === 'validation' ? `${zone.name} is in validation mode: both versions run, the new managed rules first; finish with zonewarden migrate apply --zone ${zone.name} --mode pending --yes` : `${zone.name} has migrated: the new managed rules run and the previous ones are disabled`);
    if (opts.format === 'json') io.stdout(applyJson(opts.mode, false, [{ ...row(request, 'migrated', describeMode(opts.mode, p.stage)), httpStatus: outcome.httpStatus }], scanId));
    return EXIT.ok;
  } finally {
    if (session) await session.close();
    else await client.close();
  }
}

function row(request: MigrationRequest, outcome: BulkRow['outcome'], reason: string): BulkRow {
  return { zone: request.zone, outcome, reason, request, httpStatus: null, apiCodes: [] };
}

export function applyJson(mode: MigrationMode, dryRun: boolean, rows: readonly BulkRow[], rescanId: number | null): string {
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
  return `${JSON.stringify(
    {
      schema: MIGRATION_APPLY_SCHEMA,
      mode,
      dryRun,
      counts,
      zones: rows.map((r) => ({
        zone: r.zone,
        outcome: r.outcome,
        reason: r.reason,
        request: r.request ? { method: r.request.method, path: r.request.path, query: r.request.query, rules: r.request.body.rules.length, configSource: r.request.configSource } : null,
        httpStatus: r.httpStatus,
        apiCodes: r.apiCodes,
      })),
      rescan: rescanId,
    },
    null,
    2,
  )}\n`;
}

// apply, every eligible zone

async function applyAll(config: Config, io: CommandIO, mode: MigrationMode, yes: boolean, format: string): Promise<number> {
  const session = yes ? openWriteSession(config, io) : null;
  const logger = session?.logger ?? loggerFor(config, io);
  const client: ApiClient = session?.client ?? clientFor(config, io, logger);
  let stoppedBy: string | null = null;
  void io.stopSignal.then((signal) => {
    stoppedBy = signal;
  });
  try {
    const zones = await zonesInScope(client, { accounts: config.account, zones: config.zone });
    let rows = await assessZones(client, zones, mode, config.concurrency);
    const eligible = rows.filter((r) => r.outcome === 'would migrate').length;
    if (eligible) warnIrreversible(logger, `${eligible} zone(s)`, mode);
    let scanId: number | null = null;
    if (session && eligible) {
      rows = await migrateAssessed(session.client, session.log, rows, COMMAND, () => stoppedBy);
      scanId = await session.rescan(rows.filter((r) => r.outcome === 'migrated' || r.outcome === 'failed').map((r) => r.zone.name));
    }
    if (format === 'json') io.stdout(applyJson(mode, !session, rows, scanId));
    else io.stdout(bulkText(rows, mode, !session));
    return rows.some((r) => r.outcome === 'failed' || r.outcome === 'error' || r.outcome === 'not attempted') ? EXIT.usage : EXIT.ok;
  } finally {
    if (session) await session.close();
    else await client.close();
  }
}

const OUTCOME_ORDER: ReadonlyArray<BulkRow['outcome']> = ['migrated', 'would migrate', 'failed', 'error', 'not attempted', 'skipped'];

export function bulkText(rows: readonly BulkRow[], mode: MigrationMode, dryRun: boolean): string {
  const table = [['zone', 'plan', 'outcome', 'reason'], ...rows.map((r) => [shorten(r.zone.name, 40), r.zone.plan ?? '-', r.outcome, r.reason])];
  const widths = [0, 1, 2].map((c) => Math.max(...table.map((t) => t[c]!.length)));
  const lines = table.map((t) => t.map((cell, c) => (c < 3 ? cell.padEnd(widths[c]!) : cell)).join('  ').trimEnd());
  const tally = new Map<BulkRow['outcome'], number>(OUTCOME_ORDER.map((o) => [o, 0]));
  for (const r of rows) tally.set(r.outcome, (tally.get(r.outcome) ?? 0) + 1);
  const summary = [...tally].filter(([, v]) => v > 0).map(([k, v]) => `${v} ${k}`).join(', ');
  lines.push('', `${rows.length} zone(s), mode ${mode}: ${summary || 'nothing in scope'}`);
  const eligible = tally.get('would migrate') ?? 0;
  if (dryRun) lines.push(eligible ? `dry run: nothing was written; add --yes to migrate the ${eligible} eligible zone(s)` : 'dry run: no zone is eligible, nothing would be written');
  return `${lines.map(printable).join('\n')}\n`;
}
