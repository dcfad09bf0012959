import { resolve } from 'node:path';
import { interruptedText, statusOf, type StatusView } from '../../schedule/status.js';
import { formatDuration } from '../../common/duration.js';
import { EXIT } from '../../common/errors.js';
import { printable } from '../../common/printable.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom, configScope, maxAgeOf } from '../common.js';
import { describeScope } from '../../snapshot/scope.js';
import { openSnapshot } from '../../snapshot/db.js';

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'the last run, its outcome and the next one; exit 1 when the scans are stale or the last run or scan failed',
  description: `
Shows the last run of the nightly job (run or schedule) and how it ended, the scheduler and when
it runs next, the last webhook delivery, and how old the last complete scan is. Scans are those of
the scope (--account and --zone, else the config file's, else the whole organisation): a one-zone
rescan keeps nothing fresh. For monitoring (a Nagios-style check, a systemd timer, a CI job):

  exit 0  the last complete scan is younger than --max-age and the last run and scan ended well
          (complete, or with findings); or no scan has completed yet, none has failed, and the
          first started less than --max-age ago (a first scan still running)
  exit 1  stale: the last complete scan is older than --max-age, or there is none and the first
          scan started longer ago, or nothing has run at all; or the last run ended failed,
          aborted or incomplete (a run whose process is gone counts as aborted); or a scan newer
          than the last complete one ended incomplete or aborted, or was interrupted (it is
          recorded as running but its process is gone: killed, crashed; shown with the time it was
          last heard from). Each reason is printed (JSON: "problems").
  exit 2  no database at --db, or a usage or database error.`,
  options: {
    format: { type: 'string', default: 'text', choices: ['text', 'json'], value: 'FORMAT', help: 'text, or json (schema zonewarden.status/1)' },
    ...commonOptions('account', 'zone', 'db', 'config', 'maxAge', 'verbose'),
  },
  examples: ['zonewarden status', 'zonewarden status --max-age 26h --format json --db /var/lib/zonewarden/zonewarden.db'],
  async run(o, io) {
    const config = configFrom(o, io);
    const maxAgeMs = maxAgeOf(config);
    return closing(openSnapshot(resolve(io.cwd, config.db), { readonly: true }), (db) => {
      const view = statusOf(db, maxAgeMs, new Date(), configScope(config));
      io.stdout(o.format === 'json' ? `${JSON.stringify(view, null, 2)}\n` : statusText(view));
      return view.exitCode === 0 ? EXIT.ok : EXIT.findings;
    });
  },
});

function statusText(v: StatusView): string {
  const lines: string[] = [];
  const maxAge = formatDuration(v.maxAgeSeconds * 1000);
  if (v.lastCompleteScan) {
    lines.push(`${v.stale ? 'STALE' : v.problems.length ? 'PROBLEM' : 'fresh'}: last complete scan ${v.lastCompleteScan.id} finished ${v.lastCompleteScan.finishedAt}, ${formatDuration((v.ageSeconds ?? 0) * 1000)} ago (max age ${maxAge})`);
  } else if (v.ageSeconds !== null) {
    lines.push(`${v.stale ? 'STALE' : v.problems.length ? 'PROBLEM' : 'waiting'}: no complete scan yet; the first scan started ${formatDuration(v.ageSeconds * 1000)} ago (max age ${maxAge})`);
  } else lines.push('STALE: nothing has run on this database yet');
  const scan = v.lastScan && v.lastScan.id !== v.lastCompleteScan?.id ? v.lastScan : null;
  const scanText = scan === null ? '' : scan.status === 'interrupted' ? `; last scan ${scan.id} was interrupted (${interruptedText(scan)})` : `; last scan ${scan.id} is ${scan.status}`;
  lines.push(`scope: ${describeScope(v.scope)}${scanText}`);
  // Said on the scope line already.
  for (const p of v.problems.filter((p) => !p.startsWith('stale:') && !(scan?.status === 'interrupted' && p.startsWith(`the last scan (${scan.id}) was interrupted`)))) lines.push(`problem: ${printable(p)}`);
  const r = v.lastRun;
  if (r) {
    const how = r.running ? 'still running' : `${r.outcome} (exit ${r.exitCode})`;
    const extra = [r.scanId !== null ? `scan ${r.scanId}` : null, r.newFailures !== null ? `${r.newFailures} new failures` : null, r.error ? `error: ${printable(r.error)}` : null].filter(Boolean).join(', ');
    lines.push(`last run: ${r.id} (${r.trigger}) started ${r.startedAt}${r.finishedAt ? `, ended ${r.finishedAt}` : ''}: ${how}${extra ? `; ${extra}` : ''}`);
    if (r.reportDir) lines.push(`reports: ${printable(r.reportDir)}`);
  } else lines.push('last run: none recorded');
  const s = v.scheduler;
  if (s && s.running) lines.push(`scheduler: running (pid ${s.pid} on ${printable(s.host)} since ${s.startedAt}), cron "${s.cron}" in ${s.timezone}; next run ${v.nextRun ?? 'unknown'}`);
  else if (s) lines.push(`scheduler: not running (${s.stoppedAt ? `stopped ${s.stoppedAt}` : `pid ${s.pid} on ${printable(s.host)} is gone`}); it ran "${s.cron}" in ${s.timezone}`);
  else lines.push('scheduler: never started on this database');
  const n = v.lastNotification;
  if (n) lines.push(`last notification: ${n.event} to ${printable(n.target)} at ${n.at}: ${n.ok ? 'delivered' : `failed after ${n.attempts} attempts (${printable(n.error ?? '')})`}`);
  return `${lines.join('\n')}\n`;
}
