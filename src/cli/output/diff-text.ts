import type { DriftResult, FindingChange, ResourceChange, UnreadPartition } from '../../drift/result.js';
import { kindOf } from '../../drift/resources.js';
import { resourceText } from '../../policy/findings.js';
import { printable, shorten } from '../../common/printable.js';
import { sameScope } from '../../snapshot/scope.js';
import { configurationSummary, SCOPES_DIFFER, contentsText, fieldText, FINDING_LABEL, findingSummary, label, resourceTitle, scanLine, SIGN } from '../../drift/words.js';

/** A diff for the terminal; all API text goes through `printable`, and `limit` caps the lines of each list. */
export function writeDiffText(d: DriftResult, options: { limit: number }, write: (text: string) => void): void {
  const out = (line = '') => write(`${printable(line)}\n`);
  out(`Drift from ${scanLine(d.from)}`);
  out(`        to ${scanLine(d.to)}`);
  if (d.baseline) out(`Baseline ${d.baseline.id}, accepted ${d.baseline.acceptedAt}${d.baseline.note ? `: ${d.baseline.note}` : ''}`);
  if (!sameScope(d.from.scope, d.to.scope)) out(SCOPES_DIFFER);
  out();
  out(`Findings: ${findingSummary(d)}`);
  capped(d.findings.changes, options.limit, (c) => out(`  ${findingLine(c)}`), out);
  if (d.findings.rulesNotCompared.length) out(`  not compared (the rule ran in only one of the audits): ${d.findings.rulesNotCompared.join(', ')}`);
  out();
  out(`Configuration: ${configurationSummary(d)}`);
  let zone: string | undefined;
  capped(
    d.configuration.changes,
    options.limit,
    (c) => {
      const where = c.zone ? (c.zone.name ?? c.zone.id) : '(accounts and invites)';
      if (where !== zone) out(`  ${(zone = where)}`);
      for (const line of changeLines(c)) out(`    ${line}`);
    },
    out,
  );
  if (d.configuration.unknown.length) {
    out();
    out('Not compared: data one scan could not read (unknown, not removed):');
    capped(d.configuration.unknown, options.limit, (u) => out(`  ? ${unreadLine(u)}`), out);
  }
  if (d.configuration.zonesOutsideScope.length) {
    const names = d.configuration.zonesOutsideScope.map((z) => z.name ?? z.id);
    out();
    out(`Zones outside one scan's scope, not compared: ${names.length} (${shorten(names.join(', '), 200)})`);
  }
  if (d.configuration.ignoredChanges) {
    out();
    out(`${d.configuration.ignoredChanges} resource(s) changed only in ignored fields (${d.configuration.ignore.join(', ')}; the config file's drift.ignore sets the list)`);
  }
}

function capped<T>(items: readonly T[], limit: number, each: (item: T) => void, out: (line: string) => void): void {
  const shown = limit > 0 ? items.slice(0, limit) : items;
  shown.forEach(each);
  if (shown.length < items.length) out(`  ... and ${items.length - shown.length} more (--limit 0 shows all; --format json gives everything)`);
}

function findingLine(c: FindingChange): string {
  const where = c.zone?.name ?? c.account?.name ?? '-';
  const severity = c.previousSeverity ? `${c.previousSeverity} -> ${c.severity}` : c.severity;
  return `${FINDING_LABEL[c.change].toUpperCase().padEnd(16)} ${severity.padEnd(8)} ${c.rule}  ${shorten(where, 40)}  ${shorten(resourceText(c.resource), 48)}: ${c.message}`;
}

function changeLines(c: ResourceChange): string[] {
  // Single objects of a zone (migration status, entry point) are named by their type alone.
  const title = resourceTitle(c.type, c.name, c.id === kindOf(c.type)?.partition ? undefined : c.id);
  const parent = c.parent ? ` in ${label(c.parent.type)} ${c.parent.id}` : '';
  if (c.change !== 'changed') return [`${SIGN[c.change]} ${title}${parent}${contentsText(c.contents)}`];
  return [`~ ${title}${parent}`, ...(c.fields ?? []).map((f) => `    ${fieldText(f)}`)];
}

function unreadLine(u: UnreadPartition): string {
  const where = u.zone ? ` of ${u.zone.name ?? u.zone.id}` : '';
  const notCompared = u.resources.length ? `; ${u.resources.length} ${label(u.type)}(s) not compared: ${shorten(u.resources.map((r) => r.name ?? r.id).join(', '), 160)}` : '';
  return `${label(u.type)}s${where}: ${u.reason}${notCompared}`;
}
