import { basename } from 'node:path';
import { atOrAbove, SEVERITIES, type Severity } from '../../policy/rule.js';
import { PACKAGE } from '../../common/package-info.js';
import { printable, shorten } from '../../common/printable.js';
import type { NoticeFinding, RunNotice } from './notice.js';
import type { NotificationSettings, WebhookTarget } from './settings.js';

export const NOTIFICATION_SCHEMA = 'zonewarden.notification/1';
/** Findings listed in a Slack message: a chat message is read, not processed. */
export const SLACK_LISTED = 20;
/** Findings listed in a JSON document: as many as the notice carries. */
export const JSON_LISTED = 50;
const MAX_TEXT = 200;

/** The findings a target is told about: those at or above its threshold. */
interface Selection {
  total: number;
  bySeverity: Record<Severity, number>;
  findings: NoticeFinding[];
}

/** The JSON to POST to one target for one notice; null when the target does not want it. */
export function webhookBody(notice: RunNotice, target: WebhookTarget, settings: Pick<NotificationSettings, 'reportUrl'>, now: Date = new Date()): string | null {
  if (!target.on.includes(notice.event)) return null;
  const selected = select(notice, target.minSeverity);
  if (notice.event === 'new-findings' && (!selected || selected.total === 0)) return null;
  const reportUrl = reportLink(notice, settings.reportUrl);
  return target.format === 'slack'
    ? JSON.stringify({ text: slackText(notice, target, selected, reportUrl, now), unfurl_links: false, unfurl_media: false })
    : JSON.stringify(jsonDocument(notice, target, selected, reportUrl, now));
}

function select(notice: RunNotice, threshold: Severity): Selection | null {
  if (!notice.newFindings) return null;
  const { bySeverity, worst } = notice.newFindings;
  const total = SEVERITIES.filter((s) => atOrAbove(s, threshold)).reduce((sum, s) => sum + (bySeverity[s] ?? 0), 0);
  return { total, bySeverity, findings: worst.filter((f) => atOrAbove(f.severity, threshold)) };
}

/** A string from the API, the database or a host path shown as one line of plain text. */
export function plainText(text: string): string {
  return shorten(printable(text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')), MAX_TEXT);
}

/** The one escaping for Slack mrkdwn: with `&`, `<` and `>` escaped, `<!channel>` and `<url|text>` are inert. */
export function slackEscape(text: string): string {
  return plainText(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

type Escape = (text: string) => string;

/** What happened, in one line; `esc` is applied to every string not of our own making. */
function summary(notice: RunNotice, threshold: Severity, selected: Selection | null, now: Date, esc: Escape): string {
  const scan = notice.scan ? `scan ${notice.scan.id}` : 'the scan';
  switch (notice.event) {
    case 'new-findings': {
      const total = selected?.total ?? 0;
      const parts = SEVERITIES.filter((s) => atOrAbove(s, threshold) && (selected?.bySeverity[s] ?? 0) > 0).map((s) => `${selected?.bySeverity[s]} ${s}`);
      const where = notice.scan ? ` in scan ${notice.scan.id}` : '';
      return `zonewarden: ${plural(total, 'new failing finding')} at or above ${threshold}${where} (${parts.join(', ')})`;
    }
    case 'failed': {
      const run = notice.run ? `run ${notice.run.id}` : 'a run';
      const how = notice.run?.outcome === 'aborted' ? 'was aborted' : 'failed';
      return `zonewarden: ${run} ${how}${notice.run?.error ? `: ${esc(notice.run.error)}` : ''}`;
    }
    case 'incomplete': {
      const how = notice.scan?.status === 'aborted' ? 'was aborted' : 'is incomplete';
      const unread = notice.scan?.unreadPartitions ?? 0;
      const why = unread > 0 ? `: ${plural(unread, 'partition')} could not be read` : '';
      return `zonewarden: ${scan} ${how}${why}`;
    }
    case 'stale': {
      const maxAge = `max age ${duration(notice.maxAgeSeconds)}`;
      const last = notice.lastCompleteScan;
      if (!last) return `zonewarden: there has been no complete scan yet (${maxAge})`;
      const ageSeconds = Math.max(0, (now.getTime() - Date.parse(last.finishedAt)) / 1000);
      const age = Number.isFinite(ageSeconds) ? `for ${duration(ageSeconds)} ` : '';
      return `zonewarden: no complete scan ${age}(${maxAge}); last complete scan ${last.id} at ${esc(last.finishedAt)}`;
    }
  }
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A whole-unit age, coarse enough to read: `45 seconds`, `20 minutes`, `36 hours`, `2 days 4 hours`. */
export function duration(totalSeconds: number): string {
  const s = Math.floor(totalSeconds);
  if (s < 60) return plural(s, 'second');
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  // Up to two days, hours read better than days: "36 hours", not "1 day 12 hours".
  if (hours < 48) return minutes % 60 === 0 ? plural(hours, 'hour') : `${plural(hours, 'hour')} ${plural(minutes % 60, 'minute')}`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? plural(days, 'day') : `${plural(days, 'day')} ${plural(hours % 24, 'hour')}`;
}

/** The report page under reportUrl: report.html when the run wrote one, else report.md. */
function reportLink(notice: RunNotice, reportUrl: string | null): string | null {
  if (!reportUrl || !notice.report) return null;
  return `${reportUrl}/${encodeURIComponent(basename(notice.report.dir))}/${reportPage(notice.report.files) ?? ''}`;
}

function reportPage(files: readonly string[]): string | null {
  const names = files.map((f) => basename(f));
  return names.includes('report.html') ? 'report.html' : names.includes('report.md') ? 'report.md' : null;
}

function slackText(notice: RunNotice, target: WebhookTarget, selected: Selection | null, reportUrl: string | null, now: Date): string {
  const lines = [summary(notice, target.minSeverity, selected, now, slackEscape)];
  if (notice.event === 'new-findings' && selected) {
    const listed = selected.findings.slice(0, SLACK_LISTED);
    for (const f of listed) {
      const where = f.zone !== null ? ` on ${slackEscape(f.zone)}` : f.account !== null ? ` in account ${slackEscape(f.account)}` : '';
      const waiver = f.change === 'unwaived' ? ' (its waiver ended)' : '';
      lines.push(`• *${f.severity}* ${slackEscape(f.rule)}${where}: ${slackEscape(f.message)}${waiver}`);
    }
    if (selected.total > listed.length) lines.push(`and ${selected.total - listed.length} more`);
  }
  if (reportUrl) {
    // Our own markup: the URL was checked at load and its path is percent-encoded, but `|` and
    // `>` would still end the link early, so they are encoded too.
    lines.push(`<${reportUrl.replace(/\|/g, '%7C').replace(/>/g, '%3E').replace(/</g, '%3C')}|report>`);
  } else if (notice.report) {
    const page = reportPage(notice.report.files);
    lines.push(`report: ${slackEscape(page ? `${notice.report.dir.replace(/[\\/]+$/, '')}/${page}` : notice.report.dir)}`);
  }
  return lines.join('\n');
}

function jsonDocument(notice: RunNotice, target: WebhookTarget, selected: Selection | null, reportUrl: string | null, now: Date) {
  const listed = selected ? selected.findings.slice(0, JSON_LISTED) : [];
  return {
    schema: NOTIFICATION_SCHEMA,
    tool: { name: PACKAGE.name, version: PACKAGE.version },
    event: notice.event,
    summary: summary(notice, target.minSeverity, selected, now, plainText),
    run: notice.run,
    scan: notice.scan,
    counts: notice.counts,
    newFindings:
      selected && notice.newFindings
        ? {
            comparedWithScan: notice.newFindings.comparedWithScan,
            threshold: target.minSeverity,
            total: selected.total,
            bySeverity: Object.fromEntries(SEVERITIES.map((s) => [s, selected.bySeverity[s] ?? 0])),
            findings: listed,
            more: Math.max(0, selected.total - listed.length),
          }
        : null,
    lastCompleteScan: notice.lastCompleteScan,
    maxAgeSeconds: notice.maxAgeSeconds,
    report: notice.report ? { dir: notice.report.dir, files: notice.report.files, url: reportUrl } : null,
  };
}
