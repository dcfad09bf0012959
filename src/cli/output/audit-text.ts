import type { AuditResult } from '../../audit/audit.js';
import { resourceText, type Finding } from '../../policy/findings.js';
import { SEVERITIES } from '../../policy/rule.js';
import type { WaiverState } from '../../policy/waivers.js';
import { printable, shorten } from '../../common/printable.js';
import { chunkedWriter } from '../../common/chunked-write.js';

/** The audit as a terminal table, then the totals, waivers and rule errors; all API text goes through `printable`. */

const STATUS_LABEL: Record<Finding['status'], string> = { fail: 'FAIL', unknown: 'UNKNOWN', waived: 'WAIVED', pass: 'pass' };

const width = (text: string): number => [...text].length;

function cells(f: Finding): string[] {
  return [
    STATUS_LABEL[f.status],
    f.severity,
    f.rule,
    printable(shorten(f.zone?.name ?? f.account?.name ?? '-', 40)),
    printable(shorten(resourceText(f.resource), 48)),
    printable(f.message) + (f.waiver ? printable(` [waived: ${f.waiver.reason}; owner ${f.waiver.owner}; until ${f.waiver.expires}]`) : ''),
  ];
}

/**
 * An aligned table. Under a limit, the rows shown are held; with `--limit 0` the findings are read twice (widths,
 * then rows) instead, since an audit can have 100,000s. Lines go out in chunks: a write per line costs more than the
 * table. `total`, when known, spares reading the rows past the limit only to count them.
 */
function writeTable(header: string[], rows: () => Iterable<Finding>, limit: number, write: (text: string) => void, total?: number): number {
  const widths = header.map(width);
  const measure = (r: string[]) => r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, width(c))));
  const line = (r: string[]) => r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - width(cell)))).join('  ').trimEnd();
  const out = chunkedWriter(write);
  if (limit > 0) {
    const shown: string[][] = [];
    let counted = 0;
    for (const f of rows()) {
      counted++;
      if (shown.length < limit) {
        const c = cells(f);
        shown.push(c);
        measure(c);
      } else if (total !== undefined) break;
    }
    out.push(`${line(header)}\n`);
    for (const r of shown) out.push(`${line(r)}\n`);
    out.flush();
    return (total ?? counted) - shown.length;
  }
  for (const f of rows()) measure(cells(f));
  out.push(`${line(header)}\n`);
  let written = 0;
  for (const f of rows()) {
    out.push(`${line(cells(f))}\n`);
    written++;
  }
  out.flush();
  return (total ?? written) - written;
}

function waiverLine(w: WaiverState, what: string): string {
  const scope = [w.zone && `zone ${w.zone}`, w.resource && `resource ${w.resource}`].filter(Boolean).join(', ');
  return printable(`  waiver ${w.index} (${w.rule}, ${scope}; owner ${w.owner}) ${what}`);
}

/** `findings` gives the findings to list, worst first, each time it is called; `total`, how many (see writeTable). */
export function writeAuditText(result: AuditResult, findings: () => Iterable<Finding>, options: { failOn: string; limit: number; total?: number }, out: (text: string) => void): void {
  const lines: string[] = [];
  const s = result.scan;
  out(`scan ${s.id} · started ${s.startedAt} · ${s.status} · ${result.zones.toLocaleString('en-US')} zones · ${result.rules.length} rules\n`);
  const probe = findings()[Symbol.iterator]();
  const empty = probe.next().done === true;
  // Close the probe at once: an open database cursor would keep its statement busy.
  probe.return?.();
  if (!empty) {
    out('\n');
    const more = writeTable(['STATUS', 'SEVERITY', 'RULE', 'ZONE', 'RESOURCE', 'MESSAGE'], findings, options.limit, out, options.total);
    if (more > 0) out(`… and ${more.toLocaleString('en-US')} more, less severe (--limit 0 lists all; --format json gives every finding)\n`);
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
  const ended = (x: WaiverState) => `ended ${x.expires}${x.matched ? `; ${x.matched} failure(s) it covered fail again` : ''}`;
  const waiverSections: Array<[string, WaiverState[], (x: WaiverState) => string]> = [
    ['expired waivers (no longer applied):', w.expired, ended],
    ['waivers ending within 14 days:', w.expiring, (x) => `ends ${x.expires} (${x.daysLeft} days left)`],
    ['waivers matching no failure (fixed, or a typo):', w.unused, () => 'matched nothing'],
  ];
  for (const [title, list, what] of waiverSections) if (list.length) lines.push(title, ...list.map((x) => waiverLine(x, what(x))));
  if (result.errors.length) {
    lines.push(`rules that failed to run (their verdicts are missing; please report this):`);
    for (const e of result.errors) lines.push(printable(`  ${e.rule}${e.zone ? ` on ${e.zone.name ?? e.zone.id}` : ''}: ${e.message}`));
  }
  out(`${lines.join('\n')}\n`);
}
