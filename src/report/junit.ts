import type { RuleRunError } from '../policy/engine.js';
import type { Finding } from '../policy/findings.js';
import type { AnyRule } from '../policy/rule.js';
import type { ScanRow, ZoneRow } from '../snapshot/reader.js';

/**
 * The audit as JUnit XML, the test report CI systems (GitLab, Jenkins, GitHub test reporters,
 * Azure Pipelines) show: a test suite per rule that ran, a test case per rule and zone. A failure
 * is a <failure> (its type the severity, its text every failing resource and the remediation); an
 * unknown (the data was not read) is <skipped>; a rule that threw is an <error>; a zone where the
 * rule found nothing, or only waived failures, passes (the waivers in <system-out>). An
 * organisation rule has one case for the organisation, and one per zone its findings name.
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
}

/** The rules of an audit (severity null: the rule's own), named from the catalogue where it still has them. */
export function junitRules(ran: ReadonlyArray<{ id: string; severity: string | null }>, catalogue: ReadonlyMap<string, AnyRule>): JunitRule[] {
  return ran.map(({ id, severity }) => {
    const meta = catalogue.get(id)?.meta;
    return { id, title: meta?.title ?? id, severity: severity ?? meta?.severity ?? '', category: meta?.category ?? '', scope: meta?.scope ?? null, remediation: meta?.remediation ?? null };
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

function where(f: Finding): string {
  return f.resource.name && f.resource.name !== f.zone?.name ? `${f.resource.type} ${f.resource.name}: ` : '';
}

/** The cases of each rule by zone name, every zone present for zone rules (a zone without findings passes). */
function casesByRule(input: JunitInput): Map<string, Map<string, Case>> {
  const zoneNames = input.zones.map((z) => z.name).sort((a, b) => a.localeCompare(b));
  const byRule = new Map<string, Map<string, Case>>();
  for (const rule of input.rules) {
    const names = rule.scope === 'zone' ? zoneNames : rule.scope === 'organisation' ? [ORGANISATION] : [];
    byRule.set(rule.id, new Map(names.map((n) => [n, emptyCase()])));
  }
  const caseOf = (rule: string, zone: string | null | undefined): Case | undefined => {
    const cases = byRule.get(rule);
    if (!cases) return undefined;
    const name = zone ?? ORGANISATION;
    let c = cases.get(name);
    if (!c) cases.set(name, (c = emptyCase()));
    return c;
  };
  for (const f of input.findings) {
    const c = caseOf(f.rule, f.zone ? (f.zone.name ?? f.zone.id) : null);
    if (!c) continue;
    if (f.status === 'fail') c.failures.push(f);
    else if (f.status === 'unknown') c.unknowns.push(f);
    else if (f.status === 'waived') c.waived.push(f);
  }
  for (const e of input.errors) caseOf(e.rule, e.zone ? (e.zone.name ?? e.zone.id) : null)?.errors.push(e.message);
  return byRule;
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

const count = (cases: Iterable<Case>) => {
  const n = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const c of cases) {
    n.tests++;
    if (c.errors.length) n.errors++;
    else if (c.failures.length) n.failures++;
    else if (c.unknowns.length) n.skipped++;
  }
  return n;
};

const attributes = (n: ReturnType<typeof count>) => `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}"`;

export function writeJunit(input: JunitInput, write: (text: string) => void): void {
  const byRule = casesByRule(input);
  const total = count([...byRule.values()].flatMap((cases) => [...cases.values()]));
  const timestamp = input.scan.startedAt.replace(/\.\d+Z$/, 'Z');
  write('<?xml version="1.0" encoding="UTF-8"?>\n');
  write(`<testsuites name="zonewarden scan ${input.scan.id}" ${attributes(total)} time="0" timestamp="${timestamp}">\n`);
  for (const rule of input.rules) {
    const cases = byRule.get(rule.id)!;
    write(`  <testsuite name="${xmlText(rule.id)}" ${attributes(count(cases.values()))} time="0" timestamp="${timestamp}">\n`);
    write(`    <properties>\n      <property name="title" value="${xmlText(rule.title)}"/>\n      <property name="severity" value="${xmlText(rule.severity)}"/>\n      <property name="category" value="${xmlText(rule.category)}"/>\n    </properties>\n`);
    for (const [name, c] of cases) write(caseXml(rule, name, c));
    write('  </testsuite>\n');
  }
  write('</testsuites>\n');
}
