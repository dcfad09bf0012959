import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { caseDataset } from '../support/case-dataset.js';
import { runCli } from '../support/cli.js';
import { TOKEN } from '../support/http.js';

/**
 * Issue 32, items 3 and 4, as the user met them, end to end with the built CLI on the tests'
 * organisation (test/support/case-dataset.ts) served by a real emulator:
 *
 * 3. "`audit --zone X` refuses ('no scan of zone X') although last night's full scan holds X, and
 *    `audit --scan 6 --zone X` silently ignores the zone and prints every zone's findings": --zone
 *    and --account on audit, report and diff are views of the stored scan they read.
 * 4. "a trial `audit` with a different waivers file overwrote the stored findings of the nightly
 *    scan, and the next `diff` reported '86 no longer waived', a change nobody made": a trial is
 *    stored as an audit of its own; the nightly audit, its reports and drift stay as they were.
 */

const ENV = { ZONEWARDEN_API_TOKEN: TOKEN };
const ZONE = 'acme-bank.example';
const ACCOUNT = 'Acme Bank Group';
let emulator: RunningEmulator;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator({ dataset: caseDataset(), rateLimit: 0, ipRateLimit: 0 });
  dir = mkdtempSync(join(tmpdir(), 'zw-cli-views-'));
});

afterAll(async () => {
  await emulator?.close();
});

async function scanInto(db: string, ...extra: string[]): Promise<void> {
  const r = await runCli(['scan', '--base-url', emulator.url, '--db', db, '--budget', '1000000', '--quiet', ...extra], ENV);
  if (r.code !== 0 && r.code !== 3) throw new Error(`scan failed: ${r.stderr}`);
}

interface AuditJson {
  scan: { id: number };
  audit: { id: number; trial: boolean; reason: string | null };
  zones: number;
  exitCode: number;
  counts: { byStatus: Record<string, number>; failBySeverity: Record<string, number>; byRule: Record<string, Record<string, number>> };
  findings: Array<{ rule: string; status: string; severity: string; zone: { name: string } | null; account: { id: string; name: string | null } | null }>;
}

const json = (text: string) => JSON.parse(text) as AuditJson;

/** Per status, the findings of a list; passes included when listed (--passes). */
function tally(findings: AuditJson['findings']): Record<string, number> {
  const out: Record<string, number> = { fail: 0, unknown: 0, waived: 0, pass: 0 };
  for (const f of findings) out[f.status]!++;
  return out;
}

describe('issue 32 item 3: --zone and --account pick findings out of the scan they read', () => {
  let db: string;
  const audit = (...args: string[]) => runCli(['audit', '--db', db, ...args], ENV);

  beforeAll(async () => {
    db = join(dir, 'views.db');
    // Last night's full scan of the organisation: scan 1.
    await scanInto(db);
  });

  it('audit --zone X audits the latest full scan, which holds X, rather than refusing "no scan of zone X"', async () => {
    const r = await audit('--zone', ZONE, '--format', 'json');
    expect(r.stderr).toBe(`showing zone ${ZONE} of scan 1 (1 zone)\n`);
    const view = json(r.stdout);
    expect(view.scan.id).toBe(1);
    expect(view.zones).toBe(1);
    expect(view.findings.length).toBeGreaterThan(0);
    expect(view.findings.every((f) => f.zone?.name === ZONE)).toBe(true);
    // The view's counts are the audit's verdicts on that zone: the same as counting every verdict of
    // the zone in an audit held whole in memory with its passes (--passes, no filter).
    const whole = json((await audit('--passes', '--format', 'json', '--quiet')).stdout);
    const ofZone = whole.findings.filter((f) => f.zone?.name === ZONE);
    expect(view.counts.byStatus).toEqual(tally(ofZone));
    expect(view.counts.byStatus.pass).toBeGreaterThan(0);
    for (const [rule, counts] of Object.entries(view.counts.byRule)) expect(counts, rule).toEqual(tally(ofZone.filter((f) => f.rule === rule)));
  });

  it('audit --scan N --zone X lists only the findings of X, with X\'s totals, rather than every zone\'s', async () => {
    const whole = await audit('--scan', '1', '--limit', '0', '--quiet');
    const r = await audit('--scan', '1', '--zone', ZONE, '--limit', '0');
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^(FAIL|UNKNOWN|WAIVED) /.test(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(new RegExp(`^\\S+\\s+\\S+\\s+\\S+\\s+${ZONE.replace('.', '\\.')}\\s`));
    expect(rows.length).toBeLessThan(whole.stdout.split('\n').filter((l) => /^(FAIL|UNKNOWN|WAIVED) /.test(l)).length);
    expect(r.stdout).toMatch(/^scan 1 · started \S+ · complete · 1 zones · \d+ rules$/m);
    const view = json((await audit('--scan', '1', '--zone', ZONE, '--format', 'json', '--quiet')).stdout);
    const c = view.counts.byStatus;
    expect(r.stdout).toContain(`\n${c.fail} failing`);
    expect(r.stdout).toContain(`, ${c.unknown} unknown, ${c.waived} waived, ${c.pass} passing`);
  });

  it('takes zone ids and globs, and --account by name: the zones of that account and its own verdicts', async () => {
    const byGlob = json((await audit('--zone', 'acme-*', '--format', 'json', '--quiet')).stdout);
    const acmeZones = new Set(byGlob.findings.map((f) => f.zone?.name));
    expect(acmeZones.size).toBeGreaterThan(1);
    expect([...acmeZones].every((n) => n?.startsWith('acme-'))).toBe(true);
    const byAccount = json((await audit('--account', ACCOUNT, '--format', 'json', '--quiet')).stdout);
    expect(byAccount.findings.length).toBeGreaterThan(0);
    expect(byAccount.findings.every((f) => f.account?.name === ACCOUNT)).toBe(true);
    const handle = openSnapshot(db, { readonly: true });
    const zoneId = handle.prepare("SELECT item_id FROM zones WHERE name = ? LIMIT 1").pluck().get(ZONE) as string;
    handle.close();
    const byId = json((await audit('--zone', zoneId, '--format', 'json', '--quiet')).stdout);
    expect(byId.counts).toEqual(json((await audit('--zone', ZONE, '--format', 'json', '--quiet')).stdout).counts);
  });

  it('sets the exit code from the view alone: --fail-on counts only the failures of the zones shown', async () => {
    const whole = json((await audit('--format', 'json', '--quiet')).stdout);
    expect((await audit('--fail-on', 'low', '--quiet')).code).toBe(1);
    // A zone none of whose failures is critical: exit 0 with --fail-on critical, though the organisation has critical ones.
    expect(whole.counts.failBySeverity['critical']).toBeGreaterThan(0);
    const calm = whole.findings.find((f) => f.zone && !whole.findings.some((g) => g.zone?.name === f.zone!.name && g.status === 'fail' && g.severity === 'critical'))!;
    expect((await audit('--fail-on', 'critical', '--quiet')).code).toBe(1);
    expect((await audit('--fail-on', 'critical', '--zone', calm.zone!.name, '--quiet')).code).toBe(0);
  });

  it('stops a --zone or --account that matches nothing in the scan with one line naming the closest names', async () => {
    const handle = openSnapshot(db, { readonly: true });
    const audits = () => handle.prepare('SELECT count(*) FROM audits').pluck().get();
    const before = audits();
    const typo = await audit('--zone', 'acme-bnak.example');
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toBe(`zonewarden audit: no zone matching "acme-bnak.example" in scan 1; did you mean ${ZONE}?\n`);
    const account = await audit('--scan', '1', '--account', 'Acme Bnak Group');
    expect(account.stderr).toBe(`zonewarden audit: no account matching "Acme Bnak Group" in scan 1; did you mean ${ACCOUNT}?\n`);
    const unrelated = await audit('--zone', 'zzzz.invalid');
    expect(unrelated.stderr).toBe('zonewarden audit: no zone matching "zzzz.invalid" in scan 1; it covers the whole organisation (zonewarden scans lists the scans and their scopes)\n');
    // Refused before anything is judged: no audit was stored.
    expect(audits()).toBe(before);
    const report = await runCli(['report', '--db', db, '--out', join(dir, 'typo-reports'), '--zone', 'acme-bnak.example'], ENV);
    expect(report.stderr).toBe(`zonewarden report: no zone matching "acme-bnak.example" in scan 1; did you mean ${ZONE}?\n`);
    handle.close();
  });

  it('uses a newer scan of just that zone when there is one, and the full scan for every other zone', async () => {
    await scanInto(db, '--zone', ZONE);
    expect(json((await audit('--zone', ZONE, '--format', 'json', '--quiet')).stdout).scan.id).toBe(2);
    expect(json((await audit('--zone', 'tinkerer.test', '--format', 'json', '--quiet')).stdout).scan.id).toBe(1);
    // Without a filter, the organisation's latest: a one-zone scan is not that.
    expect(json((await audit('--format', 'json', '--quiet')).stdout).scan.id).toBe(1);
  });

  it('report --zone writes the view apart from the scan\'s own report, every format following it', async () => {
    const out = join(dir, 'reports');
    const r = await runCli(['report', '--db', db, '--scan', '1', '--out', out, '--zone', ZONE, '--format', 'json,csv,junit,md'], ENV);
    expect(r.code).toBe(0);
    const reportDir = readdirSync(out).find((n) => n.endsWith(`-scan-1-zone-${ZONE}`))!;
    expect(reportDir).toBeDefined();
    const findings = json(readFileSync(join(out, reportDir, 'findings.json'), 'utf8'));
    expect(findings.zones).toBe(1);
    expect(findings.findings.every((f) => f.zone?.name === ZONE)).toBe(true);
    const view = json((await audit('--scan', '1', '--zone', ZONE, '--format', 'json', '--quiet')).stdout);
    expect(findings.counts).toEqual(view.counts);
    const csv = readFileSync(join(out, reportDir, 'findings.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(1 + view.findings.length);
    expect(readFileSync(join(out, reportDir, 'report.md'), 'utf8')).toContain(`Shown: only zone ${ZONE} (1 zone).`);
    // The scan's own report is another directory, untouched by the view.
    expect(readdirSync(out).some((n) => n.endsWith('-scan-1'))).toBe(false);
  });

  it('diff --zone compares only that zone', async () => {
    const whole = JSON.parse((await runCli(['diff', '--db', db, '--from', '1', '--to', '2', '--format', 'json'], ENV)).stdout);
    const view = JSON.parse((await runCli(['diff', '--db', db, '--from', '1', '--to', '2', '--zone', ZONE, '--format', 'json'], ENV)).stdout);
    // Scan 2 read only that zone: the whole diff says the others were outside its scope; the view never mentions them.
    expect(whole.configuration.zonesOutsideScope.length).toBeGreaterThan(0);
    expect(view.configuration.zonesOutsideScope).toEqual([]);
    expect(view.findings.counts['still-failing']).toBeGreaterThan(0);
    const typo = await runCli(['diff', '--db', db, '--zone', 'acme-bnak.example'], ENV);
    expect(typo.stderr).toBe(`zonewarden diff: no zone matching "acme-bnak.example" in scan 1; did you mean ${ZONE}?\n`);
  });

  it('names the fix that works for an official audit too old to narrow: a new official audit, which report then reads', async () => {
    const handle = openSnapshot(db);
    const official = handle.prepare('SELECT id FROM audits WHERE scan_id = 1 AND trial IS NULL').pluck().get() as number;
    // As zonewarden stored audits before schema 10: no judgement, and no counts per zone to narrow by.
    handle.prepare('UPDATE audits SET judgement = NULL WHERE id = ?').run(official);
    handle.close();
    const report = () => runCli(['report', '--db', db, '--scan', '1', '--zone', ZONE, '--format', 'md', '--out', join(dir, 'old-audit-reports')], ENV);
    const refused = await report();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `zonewarden report: audit ${official} of scan 1 was stored by an earlier zonewarden, which kept no counts per zone to narrow it by: make a new official audit of the scan (zonewarden audit --scan 1 --official, with the nightly job's config and waivers) to view it by --zone or --account\n`,
    );
    // The command it names, as given: report reads the new official audit.
    const audited = await audit('--scan', '1', '--official', '--format', 'json');
    expect(json(audited.stdout).audit.trial).toBe(false);
    const shown = await report();
    expect(shown.code, shown.stderr).toBe(0);
    expect(readFileSync(shown.stdout.split('\n')[0]!, 'utf8')).toContain(`Shown: only zone ${ZONE} (1 zone).`);
  });
});

describe('issue 32 item 4: a trial audit is stored as an audit of its own; the nightly audit stays', () => {
  let db: string;
  let out: string;
  let nightlyWaivers: string;
  let trialWaivers: string;

  const nightly = async () => {
    const r = await runCli(['run', '--base-url', emulator.url, '--db', db, '--out', out, '--budget', '1000000', '--waivers', nightlyWaivers, '--quiet', '--format', 'json'], ENV);
    if (r.code !== 0 && r.code !== 3) throw new Error(`run failed: ${r.stderr}`);
  };
  const diffJson = async (...args: string[]) => {
    const r = await runCli(['diff', '--db', db, '--format', 'json', ...args], ENV);
    const { toolVersion: _v, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
    return rest as { findings: { counts: Record<string, number> }; to: { id: number; audit: { id: number; trial: string | null } } };
  };

  beforeAll(async () => {
    db = join(dir, 'nightly.db');
    out = join(dir, 'nightly-reports');
    // The nightly job's waivers, and the file a colleague tries: other waivers.
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    nightlyWaivers = join(dir, 'nightly-waivers.yaml');
    writeFileSync(nightlyWaivers, `- {rule: rate-limiting-missing, zone: "acme-*", reason: accepted, owner: sec, expires: ${expires}}\n`);
    trialWaivers = join(dir, 'trial-waivers.yaml');
    writeFileSync(trialWaivers, `- {rule: firewall-rule-quota, zone: tinkerer.test, reason: trying, owner: sam, expires: ${expires}}\n`);
    await nightly();
    await nightly();
  });

  it('prints the trial\'s results and stores them apart: the nightly audit, its report and the next diff are unchanged', async () => {
    const before = await diffJson();
    expect(before.to.id).toBe(2);
    const handle = openSnapshot(db, { readonly: true });
    const official = handle.prepare('SELECT id, made_by, counts FROM audits WHERE scan_id = 2 AND trial IS NULL').get() as { id: number; made_by: string; counts: string };
    handle.close();
    expect(official.made_by).toBe('run');
    const nightlyWaived = (JSON.parse(official.counts) as AuditJson['counts']).byStatus['waived']!;
    expect(nightlyWaived).toBeGreaterThan(0);
    const reportDir = readdirSync(out).find((n) => n.endsWith('-scan-2'))!;
    const reportFile = join(out, reportDir, 'findings.json');
    const reportBefore = readFileSync(reportFile, 'utf8');
    const reportTime = statSync(reportFile).mtimeMs;

    const trial = await runCli(['audit', '--db', db, '--waivers', trialWaivers, '--format', 'json'], ENV);
    const trialId = official.id + 1;
    expect(trial.stderr).toBe(`stored as audit ${trialId} (trial: waivers differ from the nightly audit of scan 2); report --audit ${trialId} shows it\n`);
    const printed = json(trial.stdout);
    expect(printed.scan.id).toBe(2);
    expect(printed.counts.byStatus['waived']).toBe(1);
    // What CI reads instead of stderr: the audit's id, and that it is a trial.
    expect(printed.audit).toEqual({ id: trialId, trial: true, reason: 'waivers differ from the nightly audit of scan 2' });

    // What the nightly audit holds, and what drift says, is as it was: no "no longer waived".
    const after = await diffJson();
    expect(after).toEqual(before);
    expect(after.findings.counts['unwaived']).toBe(0);
    expect(after.to.audit).toEqual({ id: official.id, trial: null });
    expect(readFileSync(reportFile, 'utf8')).toBe(reportBefore);
    expect(statSync(reportFile).mtimeMs).toBe(reportTime);

    // zonewarden scans lists the trial under its scan; diff and report show it when named.
    const scans = await runCli(['scans', '--db', db], ENV);
    expect(scans.stdout).toMatch(new RegExp(`^scan 2 .* audit ${official.id}: \\d+ failing, ${nightlyWaived} waived, .*\\n  trial audit ${trialId} .* 1 waived, .*\\(waivers differ from the nightly audit of scan 2\\)$`, 'm'));
    const compared = await diffJson('--from-audit', String(official.id), '--to-audit', String(trialId));
    expect(compared.findings.counts['unwaived']).toBe(nightlyWaived);
    expect(compared.findings.counts['newly-waived']).toBe(1);
    const shown = await runCli(['report', '--db', db, '--audit', String(trialId), '--out', out, '--format', 'json'], ENV);
    expect(shown.code).toBe(0);
    expect(shown.stderr).toBe(`audit ${trialId} of scan 2 is a trial (waivers differ from the nightly audit of scan 2): its reports are apart from the official audit's\n`);
    const trialFile = join(out, `${reportDir}-audit-${trialId}`, 'findings.json');
    expect(shown.stdout.split('\n')).toContain(trialFile);
    expect(json(readFileSync(trialFile, 'utf8')).counts).toEqual(printed.counts);
    expect(json(readFileSync(trialFile, 'utf8')).audit).toEqual(printed.audit);
    expect(json(reportBefore).audit).toEqual({ id: official.id, trial: false, reason: null });
    expect(readFileSync(reportFile, 'utf8')).toBe(reportBefore);
    // The trial's report says at its top that it is one (the scope line every format starts with).
    const md = await runCli(['report', '--db', db, '--audit', String(trialId), '--out', out, '--format', 'md'], ENV);
    expect(md.code, md.stderr).toBe(0);
    const trialMd = readFileSync(join(out, `${reportDir}-audit-${trialId}`, 'report.md'), 'utf8');
    expect(trialMd).toContain(`This is trial audit ${trialId} (waivers differ from the nightly audit of scan 2), not the scan's official audit.`);
  });

  it('refreshes the nightly audit, keeping its id, when audited again with the nightly settings', async () => {
    const handle = openSnapshot(db, { readonly: true });
    const officialId = () => handle.prepare('SELECT id FROM audits WHERE scan_id = 2 AND trial IS NULL').pluck().get();
    const before = officialId();
    const again = await runCli(['audit', '--db', db, '--waivers', nightlyWaivers, '--quiet', '--format', 'json'], ENV);
    expect(again.stderr).toBe('');
    expect(officialId()).toBe(before);
    expect(json(again.stdout).audit).toEqual({ id: before, trial: false, reason: null });
    expect(handle.prepare("SELECT made_by FROM audits WHERE id = ?").pluck().get(before)).toBe('run');
    handle.close();
    expect(existsSync(db)).toBe(true);
  });

  it('audit --official says on stderr which audit it made a trial, and by which it was replaced', async () => {
    const handle = openSnapshot(db, { readonly: true });
    const nightlyId = handle.prepare('SELECT id FROM audits WHERE scan_id = 2 AND trial IS NULL').pluck().get() as number;
    const r = await runCli(['audit', '--db', db, '--waivers', trialWaivers, '--official', '--format', 'json'], ENV);
    const made = json(r.stdout).audit;
    expect(made).toEqual({ id: made.id, trial: false, reason: null });
    expect(made.id).not.toBe(nightlyId);
    expect(r.stderr).toBe(`audit ${nightlyId} of scan 2 is now a trial (replaced as official by audit ${made.id})\n`);
    expect(handle.prepare('SELECT id FROM audits WHERE scan_id = 2 AND trial IS NULL').pluck().get()).toBe(made.id);
    expect(handle.prepare('SELECT trial FROM audits WHERE id = ?').pluck().get(nightlyId)).toBe('the nightly audit, replaced as the official audit of scan 2 by audit --official');
    handle.close();
  });
});
