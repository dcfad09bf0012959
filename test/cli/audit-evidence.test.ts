import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import { controlLabel, controlsFor, RULE_CONTROLS } from '../../src/policy/compliance.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { runCli } from '../support/cli.js';

/**
 * Issue 32 item 6, "evidence for auditors", from the built CLI on the demo organisation's scan:
 * pass rows on request in CSV and OCSF, each rule's controls, filtering by framework and control,
 * and JUnit's counts beside the audit's. Every count is read from the audit itself, never written here.
 */

let dir: string;
let db: string;
/** The demo's own rule settings, with which `zonewarden demo` audited its scan. */
let config: string;

interface AuditJson {
  audit: { id: number; trial: boolean; reason: string | null };
  rules: Array<{ id: string; controls: Array<{ framework: string; id: string; title: string }> }>;
  exitCode: number;
  counts: { byStatus: Record<'fail' | 'unknown' | 'waived' | 'pass', number>; byRule: Record<string, Record<string, number>> };
  findings: Array<{ rule: string; status: string }>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-evidence-'));
  const demo = await runCli(['demo', '--out', join(dir, 'demo'), '--quiet']);
  expect(demo.code, demo.stderr).toBe(0);
  db = join(dir, 'demo', 'zonewarden-demo.db');
  config = join(dir, 'demo-rules.json');
  writeFileSync(config, JSON.stringify({ rules: DEMO_RULE_SETTINGS }));
});

/** CSV rows split on the commas outside quotes (enough for the columns read here). */
const csvRows = (text: string) => text.trimEnd().split('\r\n').map((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, '')));

describe('evidence for auditors', () => {
  it('report --passes writes every passing verdict to findings.csv and findings.ocsf.jsonl, as many as the audit counted', async () => {
    const out = join(dir, 'passes');
    const r = await runCli(['report', '--db', db, '--config', config, '--passes', '--format', 'json,csv,ocsf', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    // The paths written, one a line (findings.csv beside vendor-insights.csv): each taken by its name.
    const written = r.stdout.trimEnd().split('\n');
    const [json, csv, ocsf] = ['.json', 'findings.csv', '.ocsf.jsonl'].map((end) => written.find((p) => p.endsWith(end)));
    const audit = JSON.parse(readFileSync(json!, 'utf8')) as AuditJson;
    const { fail, unknown, waived, pass } = audit.counts.byStatus;
    expect(pass).toBeGreaterThan(0);

    const rows = csvRows(readFileSync(csv!, 'utf8'));
    const header = rows[0]!;
    const status = header.indexOf('status');
    const controls = header.indexOf('controls');
    const passing = rows.slice(1).filter((row) => row[status] === 'pass');
    expect(passing).toHaveLength(pass);
    expect(rows.length - 1).toBe(fail + unknown + waived + pass);
    // Each pass names the controls it is evidence for.
    const rule = header.indexOf('rule');
    const tls = passing.find((row) => row[rule] === 'tls-minimum-version')!;
    expect(tls[controls]).toBe('PCI DSS 4.2.1; NIST SP 800-53 SC-8; NIST SP 800-53 SC-13');

    const events = readFileSync(ocsf!, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { status: string; compliance: { status: string; status_id: number; standards: string[] } });
    const passes = events.filter((e) => e.compliance.status === 'Pass');
    expect(passes).toHaveLength(pass);
    expect(events.length).toBe(fail + unknown + waived + pass);
    expect(passes.every((e) => e.compliance.status_id === 1 && e.status === 'Resolved')).toBe(true);
  });

  it('report.md has a row per control, each the sum of its rules’ verdicts, and names the controls beside what to do', async () => {
    const out = join(dir, 'controls');
    const r = await runCli(['report', '--db', db, '--config', config, '--format', 'json,md', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const [json, md] = r.stdout.trimEnd().split('\n');
    const audit = JSON.parse(readFileSync(json!, 'utf8')) as AuditJson;
    const digest = readFileSync(md!, 'utf8');
    expect(digest).toContain('| control | what it asks | rules | failing | waived | unknown | passing |');
    const rules = Object.keys(audit.counts.byRule).filter((rule) => controlsFor(rule).some((c) => controlLabel(c) === 'PCI DSS 4.2.1'));
    const sum = (status: string) => rules.reduce((n, rule) => n + (audit.counts.byRule[rule]![status] ?? 0), 0).toLocaleString('en-US');
    expect(digest).toContain(`| PCI DSS 4.2.1 | Strong cryptography and secure protocols protect data in transit over public networks | ${rules.length} | ${sum('fail')} | ${sum('waived')} | ${sum('unknown')} | ${sum('pass')} |`);
    const failing = Object.keys(audit.counts.byRule).find((rule) => (audit.counts.byRule[rule]!['fail'] ?? 0) > 0 && controlsFor(rule).length > 0)!;
    expect(digest).toMatch(new RegExp(`\`${failing}\` \\(\\d+ failing[^)]*; ${controlsFor(failing).map(controlLabel).join(', ')}\\)`));
  });

  it('report --passes with rule settings other than the audit’s names a fix that works, and then reports the audit judged with them', async () => {
    const other = join(dir, 'other-rules.json');
    writeFileSync(other, JSON.stringify({ rules: { ...DEMO_RULE_SETTINGS, 'hsts-weak': { options: { minMaxAge: 1 } } } }));
    const out = join(dir, 'refused');
    const passes = (...args: string[]) => runCli(['report', '--db', db, '--config', other, '--passes', '--format', 'csv', '--scan', '1', '--out', out, ...args]);
    const handle = openSnapshot(db, { readonly: true });
    const official = handle.prepare('SELECT id FROM audits WHERE scan_id = 1 AND trial IS NULL').pluck().get() as number;
    handle.close();
    const refused = await passes();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'zonewarden report: --passes: rule hsts-weak is set otherwise in the config than when scan 1 was audited; audit the scan with these settings (zonewarden audit --scan 1), then run report --passes again: it reports the audit judged with them; or use the settings it ran with\n',
    );
    // The fix as given: the audit stores a trial (its settings are not the official audit's)...
    const audited = await runCli(['audit', '--db', db, '--config', other, '--scan', '1', '--format', 'json', '--quiet']);
    const trial = (JSON.parse(audited.stdout) as AuditJson).audit;
    expect(trial).toEqual({ id: trial.id, trial: true, reason: 'rules or their settings differ from the nightly audit of scan 1' });
    // ...and the same report is no longer refused: it reports that trial, apart from the official audit's reports.
    const reported = await passes();
    expect(reported.code, reported.stderr).toBe(0);
    expect(reported.stderr).toBe(
      `--passes: the official audit of scan 1 (audit ${official}) was judged with other rule settings; reporting audit ${trial.id}, judged with these\n` +
        `audit ${trial.id} of scan 1 is a trial (${trial.reason}): its reports are apart from the official audit's\n`,
    );
    const csv = reported.stdout.split('\n')[0]!;
    expect(basename(dirname(csv))).toMatch(new RegExp(`-scan-1-audit-${trial.id}$`));
    const rows = csvRows(readFileSync(csv, 'utf8'));
    expect(rows.slice(1).filter((row) => row[rows[0]!.indexOf('status')] === 'pass').length).toBeGreaterThan(0);
    // Naming the official audit with these settings: refused, naming the audit that works.
    const named = await passes('--audit', String(official));
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      `zonewarden report: --passes: rule hsts-weak is set otherwise in the config than when scan 1 was audited; audit ${trial.id} of scan 1 was judged with these settings: zonewarden report --audit ${trial.id} --passes; or use the settings it ran with\n`,
    );
  });

  it('JUnit states the audit’s counts of findings: they sum to the audit’s own', async () => {
    const json = await runCli(['audit', '--db', db, '--config', config, '--format', 'json']);
    const audit = JSON.parse(json.stdout) as AuditJson;
    const r = await runCli(['audit', '--db', db, '--config', config, '--format', 'junit']);
    expect(r.code, r.stderr).toBe(json.code);
    const sum = (name: string) => [...r.stdout.matchAll(new RegExp(`<property name="${name}" value="(\\d+)"/>`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
    const { fail, unknown, waived } = audit.counts.byStatus;
    expect(fail).toBeGreaterThan(0);
    expect(sum('failing-findings')).toBe(fail);
    expect(sum('unknown-findings')).toBe(unknown);
    expect(sum('waived-findings')).toBe(waived);
    const failures = Number(/<testsuites [^>]* failures="(\d+)"/.exec(r.stdout)![1]);
    expect(r.stdout).toContain(`${failures} failing case(s) hold the audit's ${fail} failing finding(s), one per resource`);
    // A zone with several failing resources of a rule is one case: never more cases than findings.
    expect(failures).toBeLessThanOrEqual(fail);
  });

  it('audit --framework keeps the findings, counts and exit code of the rules mapped to it', async () => {
    const whole = JSON.parse((await runCli(['audit', '--db', db, '--config', config, '--format', 'json'])).stdout) as AuditJson;
    const r = await runCli(['audit', '--db', db, '--config', config, '--framework', 'nist', '--format', 'json', '--fail-on', 'info']);
    const nist = JSON.parse(r.stdout) as AuditJson;
    const mapped = (rule: string) => controlsFor(rule).some((c) => c.framework === 'NIST SP 800-53 r5');
    expect(nist.findings.length).toBeGreaterThan(0);
    expect(nist.findings.every((f) => mapped(f.rule))).toBe(true);
    expect(nist.findings).toEqual(whole.findings.filter((f) => mapped(f.rule)));
    expect(nist.rules.every((rule) => mapped(rule.id) && rule.controls.length > 0)).toBe(true);
    expect(Object.keys(nist.counts.byRule).every(mapped)).toBe(true);
    expect(nist.counts.byStatus.fail).toBe(nist.findings.filter((f) => f.status === 'fail').length);
    expect(r.code).toBe(nist.counts.byStatus.fail > 0 ? 1 : 0);
    expect(nist.exitCode).toBe(r.code);
    expect(r.stderr).toContain(`showing the findings of the ${nist.rules.length} rule(s) mapped to NIST SP 800-53 r5`);
  });

  it('audit --control sets the exit code from the rules of that control alone', async () => {
    const whole = JSON.parse((await runCli(['audit', '--db', db, '--config', config, '--format', 'json'])).stdout) as AuditJson;
    // Controls read from the audit, not written here: one whose rules fail, one whose rules all pass.
    const labels = [...new Set(Object.values(RULE_CONTROLS).flat().map(controlLabel))];
    const failing = (label: string) => Object.keys(whole.counts.byRule).some((rule) => controlsFor(rule).some((c) => controlLabel(c) === label) && (whole.counts.byRule[rule]!['fail'] ?? 0) > 0);
    const ran = (label: string) => Object.keys(whole.counts.byRule).some((rule) => controlsFor(rule).some((c) => controlLabel(c) === label));
    const red = labels.find((l) => failing(l));
    const green = labels.find((l) => ran(l) && !failing(l));
    expect(red, 'a control whose rules fail in the demo').toBeDefined();
    expect(green, 'a control whose rules all pass in the demo').toBeDefined();
    expect((await runCli(['audit', '--db', db, '--config', config, '--control', red!, '--fail-on', 'info', '--quiet'])).code).toBe(1);
    expect((await runCli(['audit', '--db', db, '--config', config, '--control', green!, '--fail-on', 'info', '--quiet'])).code).toBe(0);
  });

  it('refuses an unknown control or framework in one line, with what was probably meant', async () => {
    const control = await runCli(['audit', '--db', db, '--control', 'PCI DSS 4.2.2']);
    expect(control.code).toBe(2);
    expect(control.stderr).toBe(
      'zonewarden audit: --control "PCI DSS 4.2.2": no rule maps to that control; write it as zonewarden rules shows it, e.g. "PCI DSS 4.2.1" or "SC-8" (did you mean "PCI DSS 4.2.1"?)\n',
    );
    const framework = await runCli(['report', '--db', db, '--framework', 'nsit', '--out', join(dir, 'x')]);
    expect(framework.code).toBe(2);
    expect(framework.stderr).toMatch(/^zonewarden report: --framework "nsit": not a framework zonewarden maps rules to; use pci or nist .*\(did you mean "nist"\?\)\n$/);
  });

  it('refuses a framework and a control that select no rule together, in one line, rather than show nothing and exit 0', async () => {
    const conflict = "--framework nist and --control \"PCI DSS 4.2.1\" select no rule together: PCI DSS 4.2.1 is not a control of NIST SP 800-53 r5; give one of the two, or a control of NIST SP 800-53 r5 (zonewarden rules shows each rule's controls)\n";
    const audit = await runCli(['audit', '--db', db, '--config', config, '--framework', 'nist', '--control', 'PCI DSS 4.2.1', '--format', 'json']);
    expect(audit.code).toBe(2);
    expect(audit.stdout).toBe('');
    expect(audit.stderr).toBe(`zonewarden audit: ${conflict}`);
    const report = await runCli(['report', '--db', db, '--config', config, '--framework', 'nist', '--control', 'PCI DSS 4.2.1', '--out', join(dir, 'conflict')]);
    expect(report.code).toBe(2);
    expect(report.stderr).toBe(`zonewarden report: ${conflict}`);
  });

  it('report --framework and --control write apart from the scan’s own report, which index.html keeps linking, and say what they show', async () => {
    const out = join(dir, 'narrowed');
    const whole = await runCli(['report', '--db', db, '--config', config, '--scan', '1', '--format', 'md', '--out', out]);
    expect(whole.code, whole.stderr).toBe(0);
    const wholeMd = whole.stdout.split('\n')[0]!;
    const wholeText = readFileSync(wholeMd, 'utf8');
    expect(wholeText).not.toContain('Shown: only');
    const pci = await runCli(['report', '--db', db, '--config', config, '--scan', '1', '--framework', 'pci', '--format', 'md,json', '--out', out]);
    expect(pci.code, pci.stderr).toBe(0);
    const [pciMd, pciJson] = pci.stdout.split('\n');
    expect(dirname(pciMd!)).toBe(`${dirname(wholeMd)}-framework-pci`);
    const kept = (JSON.parse(readFileSync(pciJson!, 'utf8')) as AuditJson).rules.length;
    expect(kept).toBeGreaterThan(1);
    expect(readFileSync(pciMd!, 'utf8')).toContain(`Shown: only the findings of the ${kept} rules mapped to PCI DSS 4.0.`);
    const tls = await runCli(['report', '--db', db, '--config', config, '--scan', '1', '--control', 'PCI DSS 4.2.1', '--format', 'md', '--out', out]);
    expect(tls.code, tls.stderr).toBe(0);
    const tlsMd = tls.stdout.split('\n')[0]!;
    expect(dirname(tlsMd)).toBe(`${dirname(wholeMd)}-control-pci-4.2.1`);
    expect(readFileSync(tlsMd, 'utf8')).toMatch(/Shown: only the findings of the \d+ rules mapped to PCI DSS 4\.2\.1\./);
    // The scan's own report is as it was, and the index links it alone.
    expect(readFileSync(wholeMd, 'utf8')).toBe(wholeText);
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    expect(index).toContain(`href="${encodeURIComponent(basename(dirname(wholeMd)))}/report.md"`);
    expect(index).not.toContain('framework-pci');
    expect(index).not.toContain('control-pci');
  });

  it('rules shows each rule’s controls in every format', async () => {
    const text = await runCli(['rules']);
    expect(text.stdout).toMatch(/^tls-minimum-version {2}\[medium, tls\]\n(?:.*\n)*? {2}controls:\n {4}PCI DSS 4\.2\.1: .*\n {4}NIST SP 800-53 SC-8: Transmission Confidentiality and Integrity\n/m);
    const md = await runCli(['rules', '--format', 'md']);
    expect(md.stdout.split('\n')[0]).toBe('| rule | category | severity | checks that | options | controls |');
    expect(md.stdout).toMatch(/^\| <a id="dnssec-not-active"><\/a>`dnssec-not-active` \| .* \| NIST SP 800-53 SC-20 \|$/m);
    const json = JSON.parse((await runCli(['rules', '--format', 'json'])).stdout) as Array<{ id: string; controls: unknown[] }>;
    expect(json.find((r) => r.id === 'dnssec-not-active')!.controls).toEqual([{ framework: 'NIST SP 800-53 r5', id: 'SC-20', title: 'Secure Name/Address Resolution Service (Authoritative Source)' }]);
    expect(json.find((r) => r.id === 'scan-coverage')!.controls).toEqual([]);
  });
});
