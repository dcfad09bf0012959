import { controlLabel, controlsOfRule } from '../../policy/compliance.js';
import { optionSources, sourceName, type AnyRule } from '../../policy/rule.js';

/** The rule catalogue in three shapes; the Markdown table is the one in docs/rules.md. */

function optionsText(rule: AnyRule): string[] {
  return Object.entries(rule.defaultOptions).map(([k, v]) => `${k} = ${JSON.stringify(v)}: ${rule.meta.optionHelp?.[k] ?? ''}`);
}

export function rulesText(rules: readonly AnyRule[]): string {
  const blocks = rules.map((r) => {
    const m = r.meta;
    const lines = [`${m.id}  [${m.severity}, ${m.category}]`, `  checks: ${m.title}`, `  why: ${m.description}`, `  fix: ${m.remediation}`];
    const options = optionsText(r);
    if (options.length) lines.push('  options:', ...options.map((o) => `    ${o}`));
    const controls = controlsOfRule(m);
    if (controls.length) lines.push('  controls:', ...controls.map((c) => `    ${controlLabel(c)}: ${c.title}`));
    // What the rule costs every scan: one call per zone for each.
    if (m.reads?.length) lines.push(`  reads: ${m.reads.join(', ')} (one call each per zone)`);
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function rulesMarkdown(rules: readonly AnyRule[]): string {
  const rows = rules.map((r) => {
    const sources = optionSources(r.meta);
    const own = Object.entries(r.defaultOptions).filter(([k]) => !sources.some((from) => from.options.includes(k)));
    const options = own.map(([k, v]) => `\`${k}\` = \`${JSON.stringify(v)}\``);
    // Options taken from another rule are set there: the table names it rather than a default of their own.
    for (const from of sources) options.push(`${from.options.map((k) => (sourceName(from, k) === k ? `\`${k}\`` : `\`${k}\` (its \`${sourceName(from, k)}\`)`)).join(', ')} as \`${from.rule}\` sets them`);
    const controls = controlsOfRule(r.meta).map(controlLabel);
    // The anchor lets other pages link to a rule's row (docs/from-vendor-insights.md does).
    return `| <a id="${r.meta.id}"></a>\`${r.meta.id}\` | ${r.meta.category} | ${r.meta.severity} | ${cell(r.meta.title)} | ${cell(options.join(', ') || '')} | ${cell(controls.join(', '))} |`;
  });
  return ['| rule | category | severity | checks that | options | controls |', '|---|---|---|---|---|---|', ...rows].join('\n') + '\n';
}

export function rulesJson(rules: readonly AnyRule[]): string {
  return `${JSON.stringify(
    rules.map((r) => ({ ...r.meta, controls: controlsOfRule(r.meta), defaultOptions: r.defaultOptions })),
    null,
    2,
  )}\n`;
}
