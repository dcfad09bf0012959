import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlLabel, controlsFor } from '../../src/policy/compliance.js';
import { complianceFilter, type ComplianceFilter } from '../../src/audit/compliance-filter.js';
import { catalogue } from '../../src/policy/catalogue.js';
import { storedFindings } from '../support/stored-audit.js';
import { controlRows, narrowReportData } from '../../src/report/compliance-view.js';
import { reportData, type ReportData } from '../../src/report/report-data.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { runCli } from '../support/cli.js';

/**
 * Issue 32 item 6: reports by control, and narrowed to a framework or control. On two demo runs
 * (so that there is drift to narrow); every number is checked against the audit's own.
 */

let db: Db;
let data: ReportData;

beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'zw-controls-')), 'demo');
  for (let run = 0; run < 2; run++) expect((await runCli(['demo', '--out', out, '--quiet'])).code).toBe(0);
  db = openSnapshot(join(out, 'zonewarden-demo.db'));
  data = reportData(db, 2);
});

afterAll(() => db?.close());

const everything: ComplianceFilter = { description: 'every rule', name: 'every-rule', matches: () => true };

describe('controlRows', () => {
  it('sums the verdicts of the rules mapped to each control, in the frameworks’ order', () => {
    const rows = controlRows(data.audit.counts.byRule);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const rules = Object.keys(data.audit.counts.byRule).filter((rule) => controlsFor(rule).some((c) => controlLabel(c) === row.label));
      expect(row.rules.sort()).toEqual(rules.sort());
      for (const status of ['fail', 'unknown', 'waived', 'pass'] as const) expect(row.counts[status], `${row.label} ${status}`).toBe(rules.reduce((n, r) => n + data.audit.counts.byRule[r]![status], 0));
    }
    const labels = rows.map((r) => r.label);
    expect(labels.indexOf('PCI DSS 1.4.5')).toBeLessThan(labels.indexOf('PCI DSS 6.4.2'));
    expect(labels.indexOf('PCI DSS 6.4.2')).toBeLessThan(labels.indexOf('NIST SP 800-53 SC-7'));
    expect(labels.indexOf('NIST SP 800-53 SC-8')).toBeLessThan(labels.indexOf('NIST SP 800-53 SC-13'));
  });
});

describe('narrowReportData', () => {
  it('keeps everything the same under a filter that keeps every rule (its arithmetic is the audit’s)', () => {
    expect(data.drift).not.toBeNull();
    const same = narrowReportData(data, everything, () => storedFindings(db, 2));
    expect(same.audit.counts.byStatus).toEqual(data.audit.counts.byStatus);
    expect(same.audit.counts.failBySeverity).toEqual(data.audit.counts.failBySeverity);
    expect(same.audit.counts.byRule).toEqual(data.audit.counts.byRule);
    expect(same.categories).toEqual(data.categories);
    expect(same.topRisks).toEqual(data.topRisks);
    expect(same.drift!.findings.counts).toEqual(data.drift!.findings.counts);
    expect(same.drift!.findings.changes).toEqual(data.drift!.findings.changes);
  });

  it("keeps the rules of a framework only: counts, risks, drift", () => {
    const pci = complianceFilter({ frameworks: ['pci'], controls: [] }, catalogue())!;
    const narrowed = narrowReportData(data, pci, () => storedFindings(db, 2));
    const kept = Object.keys(data.audit.counts.byRule).filter((rule) => pci.matches(rule));
    expect(Object.keys(narrowed.audit.counts.byRule).sort()).toEqual(kept.sort());
    expect(narrowed.audit.counts.byStatus.fail).toBe(kept.reduce((n, r) => n + data.audit.counts.byRule[r]!.fail, 0));
    expect(narrowed.audit.counts.byStatus.fail).toBeLessThan(data.audit.counts.byStatus.fail);
    const failing = [...storedFindings(db, 2)].filter((f) => f.status === 'fail' && pci.matches(f.rule));
    expect(Object.values(narrowed.audit.counts.failBySeverity).reduce((a, b) => a + b, 0)).toBe(failing.length);
    expect(narrowed.topRisks.every((f) => pci.matches(f.rule))).toBe(true);
    expect(narrowed.topRisks.length).toBe(Math.min(20, failing.length));
    expect(narrowed.audit.counts.byZone).toBeUndefined();
    expect(narrowed.drift!.findings.changes.every((c) => pci.matches(c.rule))).toBe(true);
    expect(narrowed.categories.reduce((n, c) => n + c.pass, 0)).toBe(narrowed.audit.counts.byStatus.pass);
    // Every report's scope line says that it shows some rules only, as a view of some zones says so.
    expect(narrowed.audit.rules.length).toBeGreaterThan(1);
    expect(narrowed.audit.rules.every((r) => pci.matches(r.id))).toBe(true);
    expect(narrowed.scope.statement).toBe(`${data.scope.statement} Shown: only the findings of the ${narrowed.audit.rules.length} rules mapped to PCI DSS 4.0.`);
  });
});
