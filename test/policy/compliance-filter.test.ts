import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { UsageError } from '../../src/common/errors.js';
import type { AuditCounts } from '../../src/audit/audit.js';
import { complianceFilter, failingAtOrAbove, keptCounts, keptFindings, keptFindingsJson } from '../../src/audit/compliance-filter.js';
import type { Finding } from '../../src/policy/findings.js';
import { loadCatalogue } from '../../src/policy/registry.js';
import { defineRule } from '../../src/policy/rule.js';

/** Issue 32 item 6: `--framework` and `--control` keep the findings of the rules mapped to them; a typo names the fix. */

const catalogue = loadCatalogue(RULES);
const filter = (frameworks: string[], controls: string[] = []) => complianceFilter({ frameworks, controls }, catalogue);
const kept = (frameworks: string[], controls: string[] = []) => RULES.map((r) => r.meta.id).filter((id) => filter(frameworks, controls)!.matches(id));

function refusal(frameworks: string[], controls: string[]): string {
  try {
    filter(frameworks, controls);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('not refused');
}

describe('complianceFilter', () => {
  it('is no filter when neither is given', () => {
    expect(filter([], [])).toBeNull();
  });

  it('keeps the rules mapped to a framework, by its short name or its full one', () => {
    const pci = kept(['pci']);
    expect(pci).toContain('tls-minimum-version');
    expect(pci).toContain('email-dmarc-missing');
    expect(pci).not.toContain('dnssec-not-active');
    expect(pci).not.toContain('development-mode-on');
    expect(kept(['PCI DSS 4.0'])).toEqual(pci);
    expect(kept(['pci-dss'])).toEqual(pci);
    const nist = kept(['NIST SP 800-53 r5']);
    expect(nist).toContain('dnssec-not-active');
    expect(nist).not.toContain('migration-pending');
    expect(kept(['nist', 'pci']).length).toBeGreaterThan(Math.max(pci.length, nist.length));
    expect(filter(['pci'])!.description).toBe('PCI DSS 4.0');
  });

  it('keeps the rules mapped to a control, however it is written', () => {
    const tls = ['certificate-expiry', 'certificate-pack-unhealthy', 'hostname-not-covered', 'ssl-mode-insecure', 'tls-minimum-version', 'https-not-enforced', 'hsts-weak', 'universal-ssl-off'];
    for (const written of ['PCI DSS 4.2.1', 'pci dss 4.2.1', 'PCI DSS 4.0 4.2.1', 'PCI 4.2.1', '4.2.1', '  PCI  DSS   4.2.1 ']) expect(kept([], [written]).sort(), written).toEqual([...tls].sort());
    for (const written of ['NIST SP 800-53 SC-20', 'nist sc-20', 'SC-20', 'NIST SP 800-53 r5 SC-20']) expect(kept([], [written]), written).toEqual(['dnssec-not-active']);
    expect(filter([], ['SC-20', 'pci 1.4.5'])!.description).toBe('NIST SP 800-53 SC-20 or PCI DSS 1.4.5');
    expect(kept([], ['SC-20', 'pci 1.4.5']).sort()).toEqual(['dns-private-address', 'dnssec-not-active']);
  });

  it('with both, keeps a rule whose control is of the framework and among the controls', () => {
    expect(kept(['pci'], ['4.2.1'])).toContain('tls-minimum-version');
    // SC-20 is NIST's: within PCI DSS, only 4.2.1's rules.
    expect(kept(['pci'], ['4.2.1', 'SC-20'])).toEqual(kept([], ['4.2.1']));
  });

  it('refuses in one line a framework and controls that select no rule together, naming the conflict', () => {
    expect(refusal(['nist'], ['PCI DSS 4.2.1'])).toBe(
      '--framework nist and --control "PCI DSS 4.2.1" select no rule together: PCI DSS 4.2.1 is not a control of NIST SP 800-53 r5; give one of the two, or a control of NIST SP 800-53 r5 (zonewarden rules shows each rule\'s controls)',
    );
    expect(refusal(['pci'], ['SC-20', 'sc-8'])).toBe(
      '--framework pci and --control "SC-20","sc-8" select no rule together: NIST SP 800-53 SC-20, NIST SP 800-53 SC-8 are not controls of PCI DSS 4.0; give one of the two, or a control of PCI DSS 4.0 (zonewarden rules shows each rule\'s controls)',
    );
  });

  it('names itself for a directory: the frameworks and controls it keeps', () => {
    expect(filter(['pci'])!.name).toBe('framework-pci');
    expect(filter(['nist', 'PCI DSS 4.0'])!.name).toBe('framework-nist+framework-pci');
    expect(filter([], ['PCI DSS 4.2.1', 'sc-8', '4.2.1'])!.name).toBe('control-pci-4.2.1+control-nist-SC-8');
    expect(filter(['pci'], ['4.2.1'])!.name).toBe('framework-pci+control-pci-4.2.1');
  });

  it('refuses an unknown control in one line, with the closest ones', () => {
    const message = refusal([], ['PCI DSS 4.2.2']);
    expect(message).toBe('--control "PCI DSS 4.2.2": no rule maps to that control; write it as zonewarden rules shows it, e.g. "PCI DSS 4.2.1" or "SC-8" (did you mean "PCI DSS 4.2.1"?)');
    expect(refusal([], ['SC-21'])).toMatch(/^--control "SC-21": no rule maps to that control; .* \(did you mean "SC-20", "SC-22" or "SC-23"\?\)$/);
    expect(refusal([], ['ISO 27001 A.8'])).not.toContain('did you mean');
    expect(refusal([], ['ISO 27001 A.8'])).not.toContain('\n');
  });

  it('refuses an unknown framework, naming those it knows', () => {
    expect(refusal(['pcii'], [])).toBe('--framework "pcii": not a framework zonewarden maps rules to; use pci or nist (PCI DSS 4.0, NIST SP 800-53 r5) (did you mean "pci"?)');
    expect(refusal(['iso27001'], [])).toMatch(/^--framework "iso27001": not a framework zonewarden maps rules to; use pci or nist/);
  });

  it("knows a custom rule's own controls", () => {
    const custom = defineRule({
      meta: {
        id: 'acme-mail-auth',
        title: 't',
        description: 'd',
        severity: 'low',
        category: 'dns',
        scope: 'zone',
        resource: 'zone',
        messages: { m: 'x' },
        remediation: 'r',
        references: [],
        controls: [{ framework: 'NIST SP 800-53 r5', id: 'SC-7(5)', title: 'Deny by Default — Allow by Exception' }],
      },
      defaultOptions: {},
      check: () => undefined,
    });
    const rules = loadCatalogue([...RULES, custom]);
    const f = complianceFilter({ frameworks: [], controls: ['sc-7(5)'] }, rules)!;
    expect(f.matches('acme-mail-auth')).toBe(true);
    expect(f.matches('managed-rules-disabled')).toBe(false);
  });
});

describe('what a filter keeps of an audit', () => {
  const f = (rule: string, status: Finding['status'], severity: Finding['severity']): Finding => ({
    rule,
    category: 'tls',
    severity,
    status,
    account: null,
    zone: { id: 'z1', name: 'a.example' },
    resource: { type: 'zone', id: 'z1', name: 'a.example' },
    message: 'm',
    messageId: null,
    data: {},
    fingerprint: `${rule}-${status}-${severity}`,
  });
  const findings = [f('tls-minimum-version', 'fail', 'high'), f('development-mode-on', 'fail', 'critical'), f('hsts-weak', 'fail', 'medium'), f('hsts-weak', 'waived', 'medium'), f('tls-minimum-version', 'unknown', 'medium')];
  const counts: AuditCounts = {
    byStatus: { fail: 3, unknown: 1, waived: 1, pass: 9 },
    failBySeverity: { critical: 1, high: 1, medium: 1, low: 0, info: 0 },
    byRule: {
      'tls-minimum-version': { fail: 1, unknown: 1, waived: 0, pass: 4 },
      'development-mode-on': { fail: 1, unknown: 0, waived: 0, pass: 2 },
      'hsts-weak': { fail: 1, unknown: 0, waived: 1, pass: 3 },
    },
    byZone: { z1: { pass: 9, fail: 3 } },
  };
  const pci = filter(['pci'])!;

  it('counts the kept rules only, failures by severity from their findings, and no pass rate by zone', () => {
    expect(keptCounts(counts, pci, findings)).toEqual({
      byStatus: { fail: 2, unknown: 1, waived: 1, pass: 7 },
      failBySeverity: { critical: 0, high: 1, medium: 1, low: 0, info: 0 },
      byRule: { 'tls-minimum-version': counts.byRule['tls-minimum-version'], 'hsts-weak': counts.byRule['hsts-weak'] },
    });
    expect(failingAtOrAbove(keptCounts(counts, pci, findings).failBySeverity)).toEqual({ critical: 0, high: 1, medium: 2, low: 2, info: 2 });
  });

  it('lists the kept findings, objects or JSON texts, in the order given', () => {
    expect([...keptFindings(findings, pci)].map((x) => x.fingerprint)).toEqual(['tls-minimum-version-fail-high', 'hsts-weak-fail-medium', 'hsts-weak-waived-medium', 'tls-minimum-version-unknown-medium']);
    expect([...keptFindingsJson([JSON.stringify(findings[1]), JSON.stringify(findings[0]), findings[2]!], pci)]).toEqual([JSON.stringify(findings[0]), findings[2]]);
  });
});
