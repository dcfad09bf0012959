import { resolve } from 'node:path';
import { printable } from '../../common/printable.js';
import { openSnapshot } from '../../snapshot/db.js';
import { latestCoveringScan } from '../../snapshot/scan-choice.js';
import { listScans, type ScanListing } from '../../audit/scan-list.js';
import { describeScope } from '../../snapshot/scope.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom, configScope } from '../common.js';

export const scansCommand = defineCommand({
  name: 'scans',
  summary: 'list the scans in the database: id, time, scope, status and counts',
  description: `
Lists the scans in the database, newest first: when each started, how it ended (complete,
incomplete, aborted or running), its scope (the whole organisation, or the --account and --zone
filter it was limited to), how many accounts and zones it read and how many parts it could not
read, and the verdicts of its official audit (the one reports, diff and notifications use: the
nightly run's, or the scan's first) with its id. Trial audits, made with other rules, settings or
waivers, are listed under their scan with why they are trials (report --audit ID shows one). The
scan that audit, report and diff use by default (the latest complete scan holding --account and
--zone, else the config file's, else the whole organisation's latest) is marked "default"; a scan
of another scope, such as a write command's rescan, is used only when named with --scan.`,
  options: {
    limit: { type: 'integer', default: 50, min: 0, max: 1_000_000, value: 'N', help: 'how many scans, newest first (0: all)' },
    format: { type: 'string', default: 'text', choices: ['text', 'json'], help: 'output: a table, or JSON' },
    ...commonOptions('account', 'zone', 'db', 'config'),
  },
  examples: ['zonewarden scans', 'zonewarden scans --limit 0 --format json'],
  async run(o, io) {
    const config = configFrom(o, io);
    const path = resolve(io.cwd, config.db);
    return closing(openSnapshot(path, { readonly: true }), (db) => {
      const rows = listScans(db, o.limit);
      const chosen = latestCoveringScan(db, configScope(config));
      if (o.format === 'json') {
        io.stdout(`${JSON.stringify(rows.map((r) => ({ ...r, default: r.id === chosen })), null, 2)}\n`);
        return 0;
      }
      if (rows.length === 0) io.stdout(`no scans in ${path}: run zonewarden scan\n`);
      for (const r of rows) {
        io.stdout(`${printable(scanLine(r, r.id === chosen))}\n`);
        for (const t of r.trials) io.stdout(`${printable(`  trial audit ${t.id}  ${t.evaluatedAt}  ${t.fail} failing, ${t.waived} waived, ${t.unknown} unknown, ${t.pass} passing  (${t.why})`)}\n`);
      }
      return 0;
    });
  },
});

function scanLine(r: ScanListing, isDefault: boolean): string {
  const read = r.counts ? `${r.counts.accounts} accounts, ${r.counts.zones} zones${r.counts.missing ? `, ${r.counts.missing} parts unread` : ''}` : null;
  const audit = r.audit ? `audit ${r.auditId}: ${r.audit.fail} failing, ${r.audit.waived} waived, ${r.audit.unknown} unknown, ${r.audit.pass} passing` : 'not audited';
  const marks = [isDefault ? 'default' : null, r.baseline ? 'baseline' : null].filter(Boolean);
  const parts = [`scan ${r.id}`, r.startedAt, r.status, describeScope(r.scope), read, r.error ? `error: ${r.error}` : audit];
  return `${parts.filter(Boolean).join('  ')}${marks.length ? `  [${marks.join(', ')}]` : ''}`;
}
