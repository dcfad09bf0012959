import { catalogue } from '../policy/catalogue.js';
import { controlLabel, controlsOfId, FRAMEWORKS, type Control } from '../policy/compliance.js';
import { keptCounts, type ComplianceFilter } from '../audit/compliance-filter.js';
import type { Finding, Status } from '../policy/findings.js';
import { noFindingCounts, STEADY_OF, type DriftResult } from '../drift/result.js';
import { categoryRows, TOP_RISKS, topFailures, type ReportData } from './report-data.js';

/**
 * The audit by control of a compliance framework: each control the audit's rules map to, with their
 * verdicts summed. The evidence an auditor asks for ("what shows that 4.2.1 holds?") at a glance.
 */
export interface ControlRow {
  control: Control;
  /** As reports cite it: `PCI DSS 4.2.1`. */
  label: string;
  /** The rules of the audit mapped to it, in the audit's order. */
  rules: string[];
  counts: Record<Status, number>;
}

/** Framework order, then the control's number read as numbers (`SC-8` before `SC-13`). */
const byControl = (a: Control, b: Control) =>
  FRAMEWORKS.indexOf(a.framework) - FRAMEWORKS.indexOf(b.framework) || a.id.localeCompare(b.id, 'en', { numeric: true });

export function controlRows(byRule: Readonly<Record<string, Readonly<Record<Status, number>>>>): ControlRow[] {
  const rules = catalogue();
  const rows = new Map<string, ControlRow>();
  for (const [rule, counts] of Object.entries(byRule)) {
    for (const control of controlsOfId(rule, rules)) {
      const label = controlLabel(control);
      let row = rows.get(label);
      if (!row) rows.set(label, (row = { control, label, rules: [], counts: { fail: 0, unknown: 0, waived: 0, pass: 0 } }));
      row.rules.push(rule);
      for (const s of Object.keys(row.counts) as Status[]) row.counts[s] += counts[s] ?? 0;
    }
  }
  return [...rows.values()].sort((a, b) => byControl(a.control, b.control));
}

/**
 * Drift narrowed to the kept rules: the listed changes filtered and counted again; the steady counts
 * (`still-*`, not listed) are the later audit's verdicts on kept rules both ran that no change ends in.
 */
function narrowDrift(drift: DriftResult, filter: ComplianceFilter, byRule: Readonly<Record<string, Readonly<Record<Status, number>>>>): DriftResult {
  const notCompared = new Set(drift.findings.rulesNotCompared);
  const changes = drift.findings.changes.filter((c) => filter.matches(c.rule));
  const counts = noFindingCounts();
  for (const c of changes) counts[c.change]++;
  for (const [rule, c] of Object.entries(byRule)) {
    if (notCompared.has(rule)) continue;
    for (const s of ['fail', 'waived', 'unknown'] as const) counts[STEADY_OF[s]] += c[s] ?? 0;
  }
  for (const c of changes) if (c.after !== null) counts[STEADY_OF[c.after]]--;
  return { ...drift, findings: { ...drift.findings, counts, changes, rulesNotCompared: drift.findings.rulesNotCompared.filter((r) => filter.matches(r)) } };
}

/**
 * What the reports show under `--framework`/`--control`: the kept rules' counts, categories, top risks,
 * drift and errors, and a scope statement that says so. `findings` reads the stored findings, worst
 * first, at each call (never held). The pass rate by zone is left out: it is stored for all rules together.
 */
export function narrowReportData(data: ReportData, filter: ComplianceFilter, findings: () => Iterable<Finding>): ReportData {
  const counts = keptCounts(data.audit.counts, filter, findings());
  const categories = categoryRows(counts.byRule);
  const topRisks = topFailures(findings(), Math.max(TOP_RISKS, data.topRisks.length), (rule) => filter.matches(rule));
  const errors = data.audit.errors.filter((e) => filter.matches(e.rule));
  const kept = data.audit.rules.filter((r) => filter.matches(r.id));
  // Stated where a view of some zones states its own: the report never reads as the whole audit.
  const shown = ` Shown: only the findings of the ${kept.length} rule${kept.length === 1 ? '' : 's'} mapped to ${filter.description}.`;
  return {
    ...data,
    audit: { ...data.audit, rules: kept, counts, errors },
    scope: { ...data.scope, statement: data.scope.statement + shown },
    categories,
    topRisks,
    drift: data.drift && narrowDrift(data.drift, filter, counts.byRule),
    health: { ...data.health, ruleErrors: errors },
  };
}
