import type { BulkRow, Confirmation, MigrationMode, MigrationPlan, MigrationRequest } from '../../actions/migration/index.js';
import { printable, shorten } from '../../common/printable.js';
import { plural } from './migration-plan.js';

/** What `migrate apply` prints: the request, what the status said after it, the table of --all-eligible, their JSON. */

export const MIGRATION_APPLY_SCHEMA = 'zonewarden.migration-apply/2';

export const SOURCES: Record<MigrationRequest['configSource'], string> = {
  config: 'GET waf_migration/config',
  entrypoint: 'the entry point validation mode runs',
  file: 'your file',
};

export function lostSummary(p: MigrationPlan): string {
  if (!p.overrides.known) return 'OWASP group and rule overrides are not migrated (they could not be read)';
  const { lost, carried } = p.overrides;
  const dropped = lost.length ? `rule overrides in ${plural(lost.length, 'OWASP group')} not migrated; zonewarden migrate plan lists them` : 'no OWASP overrides';
  return `${dropped}; ${plural(carried.length, 'vendor rule override')} carried`;
}

/** What the status said after the PUT, for the user: only a confirmed state is called done. */
export function confirmationText(name: string, mode: MigrationMode, c: Confirmation | undefined, waitMs: number): string {
  if (c?.confirmed) {
    return mode === 'validation'
      ? `${name} is in validation mode: both versions run, the new managed rules first; finish with zonewarden migrate apply --zone ${name} --mode pending --yes`
      : `${name} has migrated: the new managed rules run and the previous ones are disabled`;
  }
  const seen = c?.error ? `the status could not be read (${c.error})` : `the status still says ${c?.state ?? 'nothing'}`;
  return `${name}: ${seen} after ${waitMs / 1000} s; the switch can take up to an hour to show: check with zonewarden migrate plan --zone ${name}`;
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

const OUTCOME_ORDER: ReadonlyArray<BulkRow['outcome']> = ['migrated', 'requested', 'would migrate', 'failed', 'error', 'not attempted', 'skipped'];

export function bulkText(rows: readonly BulkRow[], mode: MigrationMode, dryRun: boolean): string {
  const table = [['zone', 'plan', 'outcome', 'reason'], ...rows.map((r) => [shorten(r.zone.name, 40), r.zone.plan ?? '-', r.outcome, r.reason])];
  const widths = [0, 1, 2].map((c) => Math.max(...table.map((t) => t[c]!.length)));
  const lines = table.map((t) => t.map((cell, c) => (c < 3 ? cell.padEnd(widths[c]!) : cell)).join('  ').trimEnd());
  const tally = new Map<BulkRow['outcome'], number>(OUTCOME_ORDER.map((o) => [o, 0]));
  for (const r of rows) tally.set(r.outcome, (tally.get(r.outcome) ?? 0) + 1);
  const summary = [...tally].filter(([, v]) => v > 0).map(([k, v]) => `${v} ${k}`).join(', ');
  lines.push('', `${rows.length} zone(s), mode ${mode}: ${summary || 'nothing in scope'}`);
  const eligible = tally.get('would migrate') ?? 0;
  const requested = tally.get('requested') ?? 0;
  if (requested) lines.push(`${requested} zone(s) requested whose status did not show the new state within --wait: the switch can take up to an hour; check them later with zonewarden migrate plan`);
  if (dryRun) lines.push(eligible ? `dry run: nothing was written; add --yes to migrate the ${eligible} eligible zone(s)` : 'dry run: no zone is eligible, nothing would be written');
  return `${lines.map(printable).join('\n')}\n`;
}
