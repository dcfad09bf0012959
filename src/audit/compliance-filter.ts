import { UsageError } from '../common/errors.js';
import { didYouMean } from '../common/did-you-mean.js';
import type { AuditCounts, AuditResult } from './audit.js';
import { controlLabel, controlsOfId, controlsOfRule, FRAMEWORKS, type Control, type Framework } from '../policy/compliance.js';
import type { Finding, Status } from '../policy/findings.js';
import type { AnyRule } from '../policy/rule.js';
import { failingAtOrAbove, zeroSeverities, zeroStatuses } from './audit-result.js';

export { failingAtOrAbove };

/**
 * `--framework` and `--control` of audit and report: the findings of the rules mapped to a framework,
 * or a control of one (policy/compliance.ts). The stored audit stays whole: only what a command shows
 * of it, its counts and its exit code are narrowed.
 */

export interface ComplianceFilter {
  /** What it keeps, for a person: "PCI DSS 4.0", "PCI DSS 4.2.1 or NIST SP 800-53 SC-8". */
  readonly description: string;
  /** The same for a file name: `framework-pci`, `control-pci-4.2.1+control-nist-SC-8` (a report's directory says what it is narrowed to). */
  readonly name: string;
  /** Whether the findings of this rule are kept. */
  matches(ruleId: string): boolean;
}

const FRAMEWORK_CHOICES = ['pci', 'nist'] as const;
/** Each framework's short name, as --framework takes it (what the help shows). */
const SHORT_NAME: Record<Framework, (typeof FRAMEWORK_CHOICES)[number]> = { 'PCI DSS 4.0': 'pci', 'NIST SP 800-53 r5': 'nist' };
/** The other ways of writing each, squeezed. */
const OTHER_NAMES: Record<Framework, string[]> = {
  'PCI DSS 4.0': ['pcidss', 'pcidss4', 'pcidss40'],
  'NIST SP 800-53 r5': ['nist80053', 'nistsp80053', 'nistsp80053r5', 'nistsp80053rev5', '80053'],
};
/** `--framework` values. */
const FRAMEWORK_NAMES = new Map(
  (Object.keys(SHORT_NAME) as Framework[]).flatMap((f) => [SHORT_NAME[f], ...OTHER_NAMES[f]].map((name) => [name, f] as const)),
);

/** Case, spaces, dots and dashes aside: `PCI-DSS 4.0` and `pci dss 4.0` are the same name. */
const squeezed = (text: string) => text.toLowerCase().replace(/[\s._-]+/g, '');
/** A control as typed: case and runs of spaces aside (its dots and dashes are part of the number). */
const spaced = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

const keyOf = (c: Control) => `${c.framework}\u0000${c.id}`;

/** The ways a control may be written: `PCI DSS 4.2.1`, `PCI DSS 4.0 4.2.1`, `PCI 4.2.1`, `4.2.1`; `NIST SP 800-53 SC-8`, `NIST SC-8`, `SC-8`. */
function aliasesOf(c: Control): string[] {
  const short = c.framework === 'PCI DSS 4.0' ? 'PCI' : 'NIST';
  return [controlLabel(c), `${c.framework} ${c.id}`, `${short} ${c.id}`, c.id];
}

function parseFramework(text: string): Framework {
  const framework = FRAMEWORK_NAMES.get(squeezed(text));
  if (framework) return framework;
  throw new UsageError(`--framework "${text}": not a framework zonewarden maps rules to; use ${FRAMEWORK_CHOICES.join(' or ')} (${FRAMEWORKS.join(', ')})${didYouMean(text, FRAMEWORK_CHOICES)}`);
}

/**
 * The filter of `--framework` and `--control` over `rules`, or null when neither is given. Unknown
 * frameworks and controls no rule maps to are refused, the closest named. Both given: a rule's
 * control must be of one of the frameworks and one of the controls, and together they must select some rule.
 */
export function complianceFilter(asked: { frameworks: readonly string[]; controls: readonly string[] }, rules: ReadonlyMap<string, AnyRule>): ComplianceFilter | null {
  if (asked.frameworks.length === 0 && asked.controls.length === 0) return null;
  const frameworks = new Set(asked.frameworks.map(parseFramework));
  const known = new Map<string, Control>();
  for (const rule of rules.values()) for (const c of controlsOfRule(rule.meta)) known.set(keyOf(c), c);
  const byAlias = new Map<string, Control[]>();
  for (const c of known.values()) {
    for (const alias of aliasesOf(c)) {
      const list = byAlias.get(spaced(alias)) ?? [];
      if (!list.includes(c)) list.push(c);
      byAlias.set(spaced(alias), list);
    }
  }
  const controls = new Set<string>();
  const named: string[] = [];
  /** The controls named, each once, in the order given. */
  const found: Control[] = [];
  for (const text of asked.controls) {
    const matched = byAlias.get(spaced(text));
    if (!matched) {
      // In the frameworks' order, so that the suggestions read in order.
      const ordered = [...known.values()].sort((a, b) => FRAMEWORKS.indexOf(a.framework) - FRAMEWORKS.indexOf(b.framework) || a.id.localeCompare(b.id, 'en', { numeric: true }));
      const candidates = ordered.flatMap((c) => [controlLabel(c), c.id]);
      const hint = didYouMean(text.trim(), candidates);
      throw new UsageError(`--control "${text}": no rule maps to that control; write it as zonewarden rules shows it, e.g. "PCI DSS 4.2.1" or "SC-8"${hint}`);
    }
    for (const c of matched) if (!controls.has(keyOf(c))) found.push(c);
    for (const c of matched) controls.add(keyOf(c));
    named.push(...matched.map(controlLabel));
  }
  const description = [...(frameworks.size ? [[...frameworks].join(' or ')] : []), ...(named.length ? [[...new Set(named)].join(' or ')] : [])].join(', ');
  const kept = (c: Control) => (frameworks.size === 0 || frameworks.has(c.framework)) && (controls.size === 0 || controls.has(keyOf(c)));
  // Every control named is mapped to some rule; with --framework too, none may be of it: nothing would be shown, quietly.
  if (found.length > 0 && !found.some(kept)) {
    const within = [...frameworks].join(' or ');
    const labels = [...new Set(named)];
    throw new UsageError(
      `--framework ${asked.frameworks.join(',')} and --control ${asked.controls.map((c) => `"${c}"`).join(',')} select no rule together: ${labels.join(', ')} ${labels.length === 1 ? 'is not a control' : 'are not controls'} of ${within}; give one of the two, or a control of ${within} (zonewarden rules shows each rule's controls)`,
    );
  }
  const name = [...[...frameworks].map((f) => `framework-${SHORT_NAME[f]}`), ...found.map((c) => `control-${SHORT_NAME[c.framework]}-${c.id}`)].join('+');
  const cache = new Map<string, boolean>();
  return {
    description,
    name,
    matches(ruleId: string): boolean {
      let hit = cache.get(ruleId);
      if (hit === undefined) cache.set(ruleId, (hit = controlsOfId(ruleId, rules).some(kept)));
      return hit;
    },
  };
}

/** The findings of the rules the filter keeps, in the order given. */
export function* keptFindings<T extends Finding>(findings: Iterable<T>, filter: ComplianceFilter): Generator<T> {
  for (const f of findings) if (filter.matches(f.rule)) yield f;
}

/** The same, for findings that may come as JSON texts (a stored audit's JSON output, built by SQLite). */
export function* keptFindingsJson(findings: Iterable<Finding | string>, filter: ComplianceFilter): Generator<Finding | string> {
  for (const f of findings) if (filter.matches(typeof f === 'string' ? (JSON.parse(f) as { rule: string }).rule : f.rule)) yield f;
}

/**
 * The audit's counts over the kept rules only. Failures by severity come from `findings` (at least
 * the stored ones): the counts keep severity for all rules together; so are passes by zone, dropped.
 */
export function keptCounts(counts: AuditCounts, filter: ComplianceFilter, findings: Iterable<Finding>): AuditCounts {
  const byRule = Object.fromEntries(Object.entries(counts.byRule).filter(([rule]) => filter.matches(rule)));
  const byStatus = zeroStatuses();
  for (const statuses of Object.values(byRule)) for (const s of Object.keys(byStatus) as Status[]) byStatus[s] += statuses[s] ?? 0;
  const failBySeverity = zeroSeverities();
  for (const f of findings) if (f.status === 'fail' && filter.matches(f.rule)) failBySeverity[f.severity]++;
  return { byStatus, failBySeverity, byRule };
}

/**
 * What a command shows of an audit under the filter: the kept rules, their errors, their counts
 * and the failures --fail-on looks at. `findings` gives the audit's findings (at least every
 * failing one); the waivers stay whole, as the waivers file is one.
 */
export function narrowAudit<R extends AuditResult>(result: R, filter: ComplianceFilter, findings: Iterable<Finding>): R {
  const counts = keptCounts(result.counts, filter, findings);
  return {
    ...result,
    rules: result.rules.filter((r) => filter.matches(r.rule.meta.id)),
    errors: result.errors.filter((e) => filter.matches(e.rule)),
    counts,
    failingAtOrAbove: failingAtOrAbove(counts.failBySeverity),
  };
}
