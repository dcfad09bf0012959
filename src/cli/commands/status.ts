import { resolve } from 'node:path';
import { statusOf, type StatusView } from '../../schedule/status.js';
import { formatDuration, parseDuration } from '../../shared/duration.js';
import { EXIT, UsageError } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';
import { openSnapshot } from '../../snapshot/db.js';

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'the last run, its outcome and the next one; exit 1 when the last complete scan is older than --max-age',
  description: `
Shows the last run of the nightly job (run or schedule) and how it ended, the scheduler and when
it runs next, the last webhook delivery, and how old the last complete scan is. For monitoring
(a Nagios-style check, a systemd timer, a CI job): exit 1 when the last complete scan is older
than --max-age, or there is none yet and the first scan started longer ago than that; else 0.
Exit 2 when there is no database at --db.`,
  options: {
    format: { type: 'string', default: 'text', choices: ['text', 'json'], value: 'FORMAT', help: 'text, or json (schema zonewarden.status/1)' },
    ...commonOptions('db', 'config', 'maxAge'),
  },
  examples: ['zonewarden status', 'zonewarden status --max-age 26h --format json --db /var/lib/zonewarden/zonewarden.db'],
  async run(o, io) {
    if (o.format !== 'text' && o.format !== 'json') throw new UsageError(`--format must be text or json, got "${String(o.format).slice(0, 40)}"`);
    const config = configFrom(o, io);
    const maxAgeMs = parseDuration(config.maxAge);
    if (maxAgeMs === null) throw new UsageError(`--max-age "${config.maxAge.slice(0, 40)}" is not a duration; e.g. 36h, 2d, 90m or 1d12h`);
    const db = openSnapshot(resolve(io.cwd, config.db), { readonly: true });
    try {
      const view = statusOf(db, maxAgeMs);
      io.stdout(o.format === 'json' ? `${JSON.stringify(view, null, 2)}\n` : statusText(view));
      return view.stale ? EXIT.findings : EXIT.ok;
    } finally {
      db.close();
    }
  },
});

function statusText(v: StatusView): string {
  const lines: string[] = [];
  const maxAge = formatDuration(v.maxAgeSeconds * 1000);
  if (v.lastCompleteScan) {
    lines.push(`${v.stale ? 'STALE' : 'fresh'}: last complete scan ${v.lastCompleteScan.id} finished ${v.lastCompleteScan.finishedAt}, ${formatDuration((v.ageSeconds ?? 0) * 1000)} ago (max age ${maxAge})`);
  } else if (v.ageSeconds !== null) {
    lines.push(`${v.stale ? 'STALE' : 'waiting'}: no complete scan yet; the first scan started ${formatDuration(v.ageSeconds * 1000)} ago (max age ${maxAge})`);
  } else lines.push('STALE: nothing has run on this database yet');
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
