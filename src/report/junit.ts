import type { RuleRunError } from '../policy/engine.js';
import type { Finding, Named } from '../policy/findings.js';
import { controlLabels, controlsOfId } from '../policy/compliance.js';
import type { AnyRule } from '../policy/rule.js';
import type { ScanRow, ZoneRow } from '../snapshot/reader.js';
import { entryOf } from '../common/map-entry.js';

/**
 * The audit as JUnit XML for CI systems: a test suite per rule that ran, a test case per rule and zone
 * (an organisation rule: one for the organisation, and one per zone its findings name). A failure is a
 * <failure>, an unknown <skipped>, a rule that threw an <error>; a zone with nothing, or only waived
 * failures, passes (the waivers in <system-out>). So JUnit counts cases, not findings: each suite's
 * properties, and a comment under the root, give the counts of findings as the audit counts them.
 */

export interface JunitInput {
  scan: ScanRow;
  zones: readonly ZoneRow[];
  /** The rules that ran, in catalogue order. */
  rules: readonly JunitRule[];
  findings: Iterable<Finding>;
  errors: readonly RuleRunError[];
}

/** A rule as the report names it; scope and remediation are null for a rule no longer loaded (its cases come from its findings). */
export interface JunitRule {
  id: string;
  title: string;
  /** As configured for the audit. */
  severity: string;
  category: string;
  scope: 'zone' | 'organisation' | null;
  remediation: string | null;
  /** The controls of compliance frameworks it gives evidence for, as cited (`PCI DSS 4.2.1; NIST SP 800-53 SC-8`), or ''. */
  controls: string;
}

/** The rules of an audit (severity null: the rule's own), named from the catalogue where it still has them. */
export function junitRules(ran: ReadonlyArray<{ id: string; severity: string | null }>, catalogue: ReadonlyMap<string, AnyRule>): JunitRule[] {
  return ran.map(({ id, severity }) => {
    const meta = catalogue.get(id)?.meta;
    return {
      id,
      title: meta?.title ?? id,
      severity: severity ?? meta?.severity ?? '',
      category: meta?.category ?? '',
      scope: meta?.scope ?? null,
      remediation: meta?.remediation ?? null,
      controls: controlLabels(controlsOfId(id, catalogue)),
    };
  });
}

const ORGANISATION = 'organisation';

/** XML 1.0 allows neither most control characters nor lone surrogates, even escaped: they are replaced. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlText(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

interface Case {
  failures: Finding[];
  unknowns: Finding[];
  waived: Finding[];
  errors: string[];
}

const emptyCase = (): Case => ({ failures: [], unknowns: [], waived: [], errors: [] });
/** A zone where the rule found nothing: the same empty case for all of them. */
const PASSING: Case = emptyCase();

const where = (f: Finding) => (f.resource.name && f.resource.name !== f.zone?.name ? `${f.resource.type} ${f.resource.name}: ` : '');

/** Each rule's cases with something to say, by zone name; passing ones are not held (200,000 at 10,000 zones and 20 rules). */
function casesWithFindings(input: JunitInput): Map<string, Map<string, Case>> {
  const byRule = new Map<string, Map<string, Case>>(input.rules.map((r) => [r.id, new Map()]));
  const caseOf = (rule: string, zone: Named | null): Case | undefined => {
    const cases = byRule.get(rule);
    return cases && entryOf(cases, zone ? (zone.name ?? zone.id) : ORGANISATION, emptyCase);
  };
  for (const f of input.findings) {
    if (f.status === 'pass') continue;
    const c = caseOf(f.rule, f.zone);
    if (f.status === 'fail') c?.failures.push(f);
    else if (f.status === 'unknown') c?.unknowns.push(f);
    else c?.waived.push(f);
  }
  for (const e of input.errors) caseOf(e.rule, e.zone)?.errors.push(e.message);
  return byRule;
}

/** A rule's test cases in order: every zone for a zone rule (passing where it has nothing), the organisation for the others, then any other names its findings gave. */
function* casesOf(rule: JunitRule, withFindings: ReadonlyMap<string, Case>, zoneNames: readonly string[]): Generator<[string, Case]> {
  const names = rule.scope === 'zone' ? zoneNames : rule.scope === 'organisation' ? [ORGANISATION] : [];
  const listed = new Set(names);
  for (const name of names) yield [name, withFindings.get(name) ?? PASSING];
  for (const [name, c] of withFindings) if (!listed.has(name)) yield [name, c];
}

function caseXml(rule: JunitRule, name: string, c: Case): string {
  const open = `    <testcase classname="${xmlText(rule.id)}" name="${xmlText(name)}" time="0"`;
  const parts: string[] = [];
  if (c.errors.length) {
    parts.push(`      <error message="${xmlText(c.errors[0]!)}" type="rule-error">${xmlText(c.errors.join('\n'))}</error>`);
  } else if (c.failures.length) {
    const first = c.failures[0]!;
    const more = c.failures.length > 1 ? ` (and ${c.failures.length - 1} more)` : '';
    const lines = [...c.failures.map((f) => `${f.severity}: ${where(f)}${f.message}`), ...c.unknowns.map((f) => `unknown: ${f.message}`), ...(rule.remediation ? ['', `Remediation: ${rule.remediation}`] : [])];
    parts.push(`      <failure message="${xmlText(first.message + more)}" type="${first.severity}">${xmlText(lines.join('\n'))}</failure>`);
  } else if (c.unknowns.length) {
    parts.push(`      <skipped message="${xmlText(`unknown: ${c.unknowns.map((f) => f.message).join('; ')}`)}"/>`);
  }
  if (c.waived.length) {
    const lines = c.waived.map((f) => `waived until ${f.waiver?.expires ?? '?'} by ${f.waiver?.owner ?? '?'} (${f.waiver?.reason ?? ''}): ${where(f)}${f.message}`);
    parts.push(`      <system-out>${xmlText(lines.join('\n'))}</system-out>`);
  }
  return parts.length ? `${open}>\n${parts.join('\n')}\n    </testcase>\n` : `${open}/>\n`;
}

/** Adds each of `parts` into `zero`, key by key. */
function sum<K extends string>(parts: Iterable<Record<K, number>>, zero: Record<K, number>): Record<K, number> {
  for (const n of parts) for (const k of Object.keys(zero) as K[]) zero[k] += n[k];
  return zero;
}

const count = (cases: Iterable<[string, Case]>) => {
  const n = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const [, c] of cases) {
    n.tests++;
    if (c.errors.length) n.errors++;
    else if (c.failures.length) n.failures++;
    else if (c.unknowns.length) n.skipped++;
  }
  return n;
};

const attributes = (n: ReturnType<typeof count>) => `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}"`;

/** A rule's findings as the audit counts them: one per resource. */
const findingCounts = (cases: Iterable<Case>) => {
  const perCase = [...cases].map((c) => ({ fail: c.failures.length, unknown: c.unknowns.length, waived: c.waived.length }));
  return sum(perCase, { fail: 0, unknown: 0, waived: 0 });
};

const property = (name: string, value: string | number) => `      <property name="${name}" value="${xmlText(String(value))}"/>\n`;

export function writeJunit(input: JunitInput, write: (text: string) => void): void {
  const byRule = casesWithFindings(input);
  const zoneNames = input.zones.map((z) => z.name).sort((a, b) => a.localeCompare(b));
  const counts = new Map(input.rules.map((r) => [r.id, count(casesOf(r, byRule.get(r.id)!, zoneNames))]));
  const found = new Map(input.rules.map((r) => [r.id, findingCounts(byRule.get(r.id)!.values())]));
  const total = sum(counts.values(), { tests: 0, failures: 0, errors: 0, skipped: 0 });
  const findings = sum(found.values(), { fail: 0, unknown: 0, waived: 0 });
  const timestamp = input.scan.startedAt.replace(/\.\d+Z$/, 'Z');
  write('<?xml version="1.0" encoding="UTF-8"?>\n');
  write(`<testsuites name="zonewarden scan ${input.scan.id}" ${attributes(total)} time="0" timestamp="${timestamp}">\n`);
  // JUnit's root holds no properties: the totals of findings, which the audit reports, are said here.
  write(
    `  <!-- Counts are of test cases, a rule on one zone (or on the organisation): ${total.failures} failing case(s) hold the audit's ${findings.fail} failing finding(s), one per resource; ` +
      `${total.skipped} skipped case(s) hold only unknowns, of ${findings.unknown} unknown finding(s) in all; ${findings.waived} waived finding(s) pass. Each suite's properties give its counts of findings. -->\n`,
  );
  for (const rule of input.rules) {
    const n = found.get(rule.id)!;
    write(`  <testsuite name="${xmlText(rule.id)}" ${attributes(counts.get(rule.id)!)} time="0" timestamp="${timestamp}">\n`);
    write(
      `    <properties>\n${property('title', rule.title)}${property('severity', rule.severity)}${property('category', rule.category)}` +
        `${rule.controls ? property('controls', rule.controls) : ''}${property('failing-findings', n.fail)}${property('unknown-findings', n.unknown)}${property('waived-findings', n.waived)}    </properties>\n`,
    );
    for (const [name, c] of casesOf(rule, byRule.get(rule.id)!, zoneNames)) write(caseXml(rule, name, c));
    write('  </testsuite>\n');
  }
  write('</testsuites>\n');
}
