import type { AuditResult } from '../../policy/audit.js';
import type { Finding } from '../../policy/findings.js';
import { SEVERITIES } from '../../policy/rule.js';
import type { WaiverState } from '../../policy/waivers.js';
import { printable, shorten } from '../../shared/printable.js';

/**
 * The audit as a terminal table: one line per finding that needs attention (failing, unknown,
 * waived; passes only when asked), then the totals, the waivers to look at and rules that could
 * not run. Everything that came from the API goes through `printable`.
 */

const STATUS_LABEL: Record<Finding['status'], string> = { fail: 'FAIL', unknown: 'UNKNOWN', waived: 'WAIVED', pass: 'pass' };

function resourceText(f: Finding): string {
  if (f.resource.type === 'zone') return 'zone';
  return `${f.resource.type} ${f.resource.name ?? f.resource.id}`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length))).join('  ').trimEnd());
}

function waiverLine(w: WaiverState, what: string): string {
  const scope = [w.zone && `zone ${w.zone}`, w.resource && `resource ${w.resource}`].filter(Boolean).join(', ');
  return printable(`  waiver ${w.index} (${w.rule}, ${scope}; owner ${w.owner}) ${what}`);
}

export function auditText(result: AuditResult, options: { passes: boolean; failOn: string }): string {
  const lines: string[] = [];
  const s = result.scan;
  lines.push(`scan ${s.id} · started ${s.startedAt} · ${s.status} · ${result.zones.toLocaleString('en-US')} zones · ${result.rules.length} rules`);
  const shown = result.findings.filter((f) => options.passes || f.status !== 'pass');
  if (shown.length) {
    lines.push('');
    const rows = [['STATUS', 'SEVERITY', 'RULE', 'ZONE', 'RESOURCE', 'MESSAGE']];
    for (const f of shown) {
      rows.push([
        STATUS_LABEL[f.status],
        f.severity,
        f.rule,
        printable(shorten(f.zone?.name ?? f.account?.name ?? '-', 40)),
        printable(shorten(resourceText(f), 48)),
        printable(f.message) + (f.waiver ? printable(` [waived: ${f.waiver.reason}; owner ${f.waiver.owner}; until ${f.waiver.expires}]`) : ''),
      ]);
    }
    lines.push(...table(rows));
  }
  const c = result.counts;
  const bySeverity = SEVERITIES.filter((sev) => c.failBySeverity[sev] > 0).map((sev) => `${c.failBySeverity[sev]} ${sev}`);
  lines.push('');
  lines.push(
    `${c.byStatus.fail} failing${bySeverity.length ? ` (${bySeverity.join(', ')})` : ''}, ${c.byStatus.unknown} unknown, ${c.byStatus.waived} waived, ${c.byStatus.pass} passing` +
      (options.failOn === 'none' ? '' : `; --fail-on ${options.failOn}`),
  );
  if (c.byStatus.unknown > 0) lines.push('unknown: the data these checks need was not read in this scan; see the messages, and rescan');
  const w = result.waivers;
  if (w.expired.length) {
    lines.push(`expired waivers (no longer applied):`);
    for (const x of w.expired) lines.push(waiverLine(x, `ended ${x.expires}${x.matched ? `; ${x.matched} failure(s) it covered fail again` : ''}`));
  }
  if (w.expiring.length) {
    lines.push(`waivers ending within 14 days:`);
    for (const x of w.expiring) lines.push(waiverLine(x, `ends ${x.expires} (${x.daysLeft} days left)`));
  }
  if (w.unused.length) {
    lines.push(`waivers matching no failure (fixed, or a typo):`);
    for (const x of w.unused) lines.push(waiverLine(x, 'matched nothing'));
  }
  if (result.errors.length) {
    lines.push(`rules that failed to run (their verdicts are missing; please report this):`);
    for (const e of result.errors) lines.push(printable(`  ${e.rule}${e.zone ? ` on ${e.zone.name ?? e.zone.id}` : ''}: ${e.message}`));
  }
  return `${lines.join('\n')}\n`;
}
