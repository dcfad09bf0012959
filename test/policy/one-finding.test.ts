import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_RULE_SETTINGS } from '../../bench/dataset-config.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { AuditResult } from '../../src/policy/audit.js';
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
 * own for, so a zone failing two of them has two problems.
 */

const CASES = "the tests' organisation";
const GENERATED = 'a generated organisation of 100 zones';
const emulators: RunningEmulator[] = [];
const audits: Record<string, AuditResult> = {};

beforeAll(async () => {
  const cases = await auditDataset(caseDataset(), 'one-finding-case');
  emulators.push(cases.emulator);
  audits[CASES] = cases.result;
  // The generated organisation as the benchmarks audit it (its documentation addresses stand in for public ones).
  const generated = await auditDataset('generated', 'one-finding-generated', { generated: { zones: 100, records: 5000 }, settings: GENERATED_RULE_SETTINGS });
  emulators.push(generated.emulator);
  audits[GENERATED] = generated.result;
}, 120_000);

afterAll(async () => {
  for (const e of emulators) await e.close();
});

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
  return [...rulesByResource].filter(([, rules]) => rules.size > 1).map(([key, rules]) => `${key}: ${[...rules].sort().join(' + ')}`);
}

describe('one problem, one finding', () => {
  it.each([CASES, GENERATED])('no resource of %s fails two rules', (name) => {
    const result = audits[name]!;
    // The audit must have found something for the check to mean anything.
    expect(result.counts.byStatus.fail).toBeGreaterThan(100);
    expect(reportedTwice(result)).toEqual([]);
  });

  it('keeps the DNS findings the leaving rules gave up: every DNS-only record on a proxied origin is still reported once', () => {
    // The generated organisation's DNS-only records that share a proxied record's address are reported by dns-origin-exposed.
    const result = audits[GENERATED]!;
    expect(result.counts.byRule['dns-origin-exposed']?.fail).toBeGreaterThan(0);
    expect(result.counts.byRule['dns-record-not-proxied']?.fail).toBeGreaterThan(0);
  });
});
