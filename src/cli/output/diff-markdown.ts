import type { DriftResult, FindingChange, ResourceChange } from '../../drift/result.js';
import { resourceText } from '../../policy/findings.js';
import { markdownText as md } from '../../common/markdown.js';
import { configurationSummary, contentsText, FINDING_LABEL, findingSummary, label, scanLine, SCOPES_DIFFER, valueText } from '../../drift/words.js';
import { sameScope } from '../../snapshot/scope.js';

/** A diff in Markdown. All API text goes through `markdownText`: a hostile name cannot add markup, links, HTML or mentions. */
export function diffMarkdown(d: DriftResult, options: { limit: number }): string {
  const lines: string[] = [];
  const add = (...l: string[]) => lines.push(...l);
  add(`## zonewarden drift: scan ${d.from.id} to scan ${d.to.id}`, '');
  add(`- From: ${md(scanLine(d.from))}`, `- To: ${md(scanLine(d.to))}`);
  if (d.baseline) add(`- Baseline ${d.baseline.id}, accepted ${md(d.baseline.acceptedAt)}${d.baseline.note ? `: ${md(d.baseline.note)}` : ''}`);
  if (!sameScope(d.from.scope, d.to.scope)) add(`- ${md(SCOPES_DIFFER)}`);
  add(`- Findings: ${md(findingSummary(d))}`, `- Configuration: ${md(configurationSummary(d))}`, '');

  if (d.findings.changes.length) {
    add('### Findings', '');
    table(add, ['change', 'severity', 'rule', 'zone', 'resource', 'message'], d.findings.changes, options.limit, findingRow);
  }
  if (d.findings.rulesNotCompared.length) add(`Rules that ran in only one audit, not compared: ${d.findings.rulesNotCompared.map(md).join(', ')}`, '');

  if (d.configuration.changes.length) {
    add('### Configuration', '');
    table(add, ['change', 'zone', 'resource', 'what changed'], d.configuration.changes, options.limit, changeRow);
  }
  if (d.configuration.unknown.length) {
    add('### Not compared', '', 'One of the scans could not read these: their resources are unknown, not removed.', '');
    table(add, ['what', 'zone', 'unread in scan', 'why', 'resources'], d.configuration.unknown, options.limit, (u) =>
      `| ${md(label(u.type))} | ${md(u.zone?.name ?? u.zone?.id ?? '-')} | ${u.scan} | ${md(u.reason)} | ${u.resources.length} |`,
    );
  }
  if (d.configuration.zonesOutsideScope.length) add(`${d.configuration.zonesOutsideScope.length} zone(s) were outside one scan's scope and were not compared.`, '');
  if (d.configuration.ignoredChanges) add(`${d.configuration.ignoredChanges} resource(s) changed only in ignored fields (${d.configuration.ignore.map((p) => `\`${p}\``).join(', ')}).`, '');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Adds a table, its rows capped at `limit`, with a line saying how many were left out. */
function table<T>(add: (...l: string[]) => void, header: string[], items: readonly T[], limit: number, row: (item: T) => string): void {
  add(`| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`);
  const shown = limit === 0 ? items : items.slice(0, limit);
  for (const item of shown) add(row(item));
  add('');
  if (shown.length < items.length) add(`_Showing ${shown.length} of ${items.length}: \`--limit 0\` shows all, \`--format json\` gives everything._`, '');
}

function findingRow(c: FindingChange): string {
  const severity = c.previousSeverity ? `${c.previousSeverity} → ${c.severity}` : c.severity;
  return `| ${FINDING_LABEL[c.change]} | ${severity} | \`${c.rule}\` | ${md(c.zone?.name ?? c.account?.name ?? '-')} | ${md(resourceText(c.resource))} | ${md(c.message)} |`;
}

function changeRow(c: ResourceChange): string {
  const resource = `${label(c.type)} ${c.name ?? c.id}`;
  const what =
    c.change === 'changed'
      ? (c.fields ?? []).map((f) => `${md(f.field)}: ${md(valueText(f.before))} → ${md(valueText(f.after))}`).join('<br>')
      : md(`${c.change}${contentsText(c.contents)}`);
  return `| ${c.change} | ${md(c.zone?.name ?? c.zone?.id ?? '-')} | ${md(resource)} | ${what} |`;
}
