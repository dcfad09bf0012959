import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_RULE_SETTINGS } from '../../bench/dataset-config.js';
import { inline } from '../../src/emulator/datasets/compose.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { AuditResult } from '../../src/audit/audit.js';
import { auditDataset } from '../support/dataset-audit.js';
import { caseDataset } from '../support/case-dataset.js';

/**
 * One problem, one finding (issue 49): a resource that fails is reported by the one rule that
 * explains its problem best, and the rules that could also report it leave it to that one (each
 * rule's description in docs/rules.md says which). So no DNS record, certificate, firewall rule,
 * filter, custom rule or other resource fails two rules, on the tests' organisation and on a
 * generated one, each scanned from the emulator and audited with the whole catalogue.
 *
 * The zone itself is left out: the zone rules each judge one setting or state of the zone (its
 * SSL mode, its DNSSEC, its CAA records, its migration), which the API offers no object of its
 * own for, so a zone failing two of them has two problems; except the pairs that state one fact
 * about the zone (SAME_FACT), which are checked on their own.
 */

/** Zone rules that state one fact (no managed rules run): a zone fails one of them at most. */
const SAME_FACT = [['legacy-waf-off', 'managed-rules-disabled']] as const;

/** 4,097 ASCII characters: over the rules language's 4,096 characters and the migration's 4 KB. */
const LONG_EXPRESSION = `http.request.uri.path eq "/${'a'.repeat(4097 - 'http.request.uri.path eq "/"'.length)}"`;
const LONG_BYPASS = 'Archived partner pages pass the WAF (4,097 characters)';

/**
 * The tests' organisation, plus on acme-cards (still to migrate) a bypass rule of the previous managed
 * rules over both length limits: one expression, which migration-expression-too-long and
 * firewall-expression-too-long could both report (on the rule and on its filter).
 */
function casesWithLongBypass(): DatasetFile {
  const dataset = caseDataset();
  const cards = dataset.accounts.flatMap((a) => a.zones ?? []).find((z) => z?.name === 'acme-cards.example')!;
  cards.firewall_rules = [...(cards.firewall_rules ?? []), inline('bypass', LONG_EXPRESSION, LONG_BYPASS, { products: ['waf'], priority: 502 })];
  return dataset;
}

const CASES = "the tests' organisation";
const GENERATED = 'a generated organisation of 100 zones';
const emulators: RunningEmulator[] = [];
const audits: Record<string, AuditResult> = {};

beforeAll(async () => {
  const cases = await auditDataset(casesWithLongBypass(), 'one-finding-case');
  emulators.push(cases.emulator);
  audits[CASES] = cases.result;
  // The generated organisation as the benchmarks audit it (its documentation addresses stand in for public ones).
  const generated = await auditDataset('generated', 'one-finding-generated', { generated: { zones: 100, records: 5000 }, settings: GENERATED_RULE_SETTINGS });
  emulators.push(generated.emulator);
  audits[GENERATED] = generated.result;
});

afterAll(async () => {
  for (const e of emulators) await e.close();
});

/**
 * Pairs that can report one resource for two problems, each with its own fix (docs/rules.md, "One
 * problem, one finding"): a paused bypass rule over 4 KB; a disabled custom rule over 4,096 characters.
 */
const TWO_PROBLEMS = new Set(['firewall-rule-inactive + migration-expression-too-long', 'custom-rules-disabled + custom-rules-expression-too-long']);

/** The resources failing more than one rule, as "zone type name: rule + rule". */
function reportedTwice(result: AuditResult): string[] {
  const rulesByResource = new Map<string, Set<string>>();
  for (const f of result.findings) {
    if (f.status !== 'fail' || f.resource.type === 'zone') continue;
    const key = `${f.zone?.name ?? '-'} ${f.resource.type} ${f.resource.name ?? f.resource.id} (${f.resource.id})`;
    const rules = rulesByResource.get(key) ?? new Set<string>();
    rules.add(f.rule);
    rulesByResource.set(key, rules);
  }
  return [...rulesByResource].filter(([, rules]) => rules.size > 1 && !TWO_PROBLEMS.has([...rules].sort().join(' + '))).map(([key, rules]) => `${key}: ${[...rules].sort().join(' + ')}`);
}

describe('one problem, one finding', () => {
  it.each([CASES, GENERATED])('no resource of %s fails two rules', (name) => {
    const result = audits[name]!;
    // The audit must have found something for the check to mean anything.
    expect(result.counts.byStatus.fail).toBeGreaterThan(100);
    expect(reportedTwice(result)).toEqual([]);
  });

  it.each([CASES, GENERATED])('no zone of %s fails two rules that state one fact', (name) => {
    const failing = (rule: string) => new Set(audits[name]!.findings.filter((f) => f.rule === rule && f.status === 'fail').map((f) => f.zone?.name));
    for (const [a, b] of SAME_FACT) expect([...failing(a)].filter((zone) => failing(b).has(zone))).toEqual([]);
  });

  it('keeps the zone findings a leaving rule gave up: the WAF switched off is still reported', () => {
    // northwind-staging (business, not migrated) has its WAF switch off.
    expect(audits[CASES]!.findings.filter((f) => f.rule === 'legacy-waf-off' && f.status === 'fail').map((f) => f.zone?.name)).toEqual(['northwind-staging.example']);
  });

  // spec: Errors, rule 7 and Limits (an expression over 4 KB fails the migration); vendor docs: the rules language's limit is 4,096 characters.
  it('reports a bypass rule over both length limits on a zone still to migrate once: migration-expression-too-long, saying both', () => {
    const result = audits[CASES]!;
    const onCards = result.findings.filter((f) => f.zone?.name === 'acme-cards.example' && f.status === 'fail');
    const long = onCards.filter((f) => f.rule === 'migration-expression-too-long');
    expect(long.map((f) => [f.resource.name, f.messageId])).toEqual([[LONG_BYPASS, 'tooLongToEdit']]);
    // Neither the rule nor its filter is reported again for the same expression.
    expect(onCards.filter((f) => f.rule === 'firewall-expression-too-long')).toEqual([]);
  });

  // spec: Errors, rule 7 (more than 200 firewall rules to migrate, or an expression over 4 KB, fail the migration).
  it('reports a zone the check refuses for the migration\'s limits by the limit rules only, not migration-incompatible', () => {
    const onPayments = (rule: string) => audits[CASES]!.findings.filter((f) => f.rule === rule && f.zone?.name === 'acme-payments.example').map((f) => f.status);
    expect(onPayments('migration-too-many-firewall-rules')).toEqual(['fail']);
    expect(onPayments('migration-expression-too-long')).toContain('fail');
    expect(onPayments('migration-incompatible').filter((s) => s !== 'pass')).toEqual([]);
  });

  it('keeps the DNS findings the leaving rules gave up: every DNS-only record on a proxied origin is still reported once', () => {
    // The generated organisation's DNS-only records that share a proxied record's address are reported by dns-origin-exposed.
    const result = audits[GENERATED]!;
    expect(result.counts.byRule['dns-origin-exposed']?.fail).toBeGreaterThan(0);
    expect(result.counts.byRule['dns-record-not-proxied']?.fail).toBeGreaterThan(0);
  });
});
