import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import type { DatasetChoice } from '../../src/emulator/datasets/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { digestView, MAX_DIGEST_CHARS, renderDigest } from '../../src/report/markdown-digest.js';
import { reportData, type ReportData } from '../../src/report/report-data.js';
import { reportRisk, type ReportRisk } from '../../src/report/risk.js';
import { SEVERITIES, severityRank } from '../../src/policy/rule.js';
import { loadTemplates } from '../../src/report/templates.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { caseDataset } from '../support/case-dataset.js';
import { pendingOrganizationFlags, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/** Times and durations differ run to run; everything else in the demo digest must not. */
const normalised = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z| UTC)?)?/g, '<time>');

const GOLDEN = new URL('../fixtures/golden/report.md', import.meta.url);

/** Two audited scans of an organisation, its pending invites accepted between them, and the latest's digest. */
function digestOfScans(dataset: DatasetChoice) {
  const dir = mkdtempSync(join(tmpdir(), 'zw-digest-'));
  const file = join(dir, 'zonewarden.db');
  const env = { ZONEWARDEN_API_TOKEN: TOKEN };
  const state: { emu?: RunningEmulator; db?: Db; data?: ReportData; risk?: ReportRisk; digest?: string } = {};

  beforeAll(async () => {
    const emu = (state.emu = await startEmulator({ dataset, now: new Date(), rateLimit: 0, ipRateLimit: 0 }));
    // The demo's own rule settings, as `zonewarden demo` audits it (its documentation ranges are stand-ins).
    writeFileSync(join(dir, 'demo-rules.json'), JSON.stringify({ rules: DEMO_RULE_SETTINGS }));
    const run = (...args: string[]) => runInProcess([...args, '--db', file, '--config', 'demo-rules.json'], env, dir);
    await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    // Between the scans: the pending invites accepted, through the API (the command rescans, so the next full scan is 3).
    await run('invites', 'accept', '--all', ...(await pendingOrganizationFlags(emu)), '--yes', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet');
    const latest = 3;
    await run('audit', '--scan', '1', '--quiet');
    await run('audit', '--scan', String(latest), '--quiet');
    state.db = openSnapshot(file);
    state.data = reportData(state.db, latest);
    state.risk = reportRisk(state.db, state.data.audit.auditId);
    state.digest = renderDigest(loadTemplates(), state.data, state.risk);
  });

  afterAll(async () => {
    state.db?.close();
    await state.emu?.close();
  });

  return { data: () => state.data!, risk: () => state.risk!, digest: () => state.digest! };
}

describe('the Markdown digest of the demo scans', () => {
  const scans = digestOfScans('demo');
  let data: ReportData;
  let risk: ReportRisk;
  let digest: string;
  beforeAll(() => {
    data = scans.data();
    risk = scans.risk();
    digest = scans.digest();
  });

  it('matches the golden file (times aside)', () => {
    // UPDATE_GOLDEN=1 rewrites it after an intended change; review the diff before committing.
    if (process.env['UPDATE_GOLDEN']) writeFileSync(GOLDEN, normalised(digest));
    expect(normalised(digest)).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('shows the summary, what changed since the scan before, top risks and scan health', () => {
    expect(digest).toMatch(/^## zonewarden: scan 3 \(complete, /);
    expect(digest).toContain(`**${data.audit.counts.byStatus.fail} failing**`);
    expect(digest).toContain('### Since scan 1');
    expect(digest).toMatch(/\| fixed \| low \| `invite-pending` \|/);
    expect(digest).toContain('### Top risks');
    expect(digest).toContain('The scan read everything in its scope.');
  });

  it('keeps under 60,000 characters by shortening its lists, and says so', () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...data.topRisks[0]!, message: `${'x'.repeat(250)} ${i}` }));
    const big = renderDigest(loadTemplates(), { ...data, topRisks: many }, risk);
    expect(big.length).toBeLessThanOrEqual(MAX_DIGEST_CHARS);
    expect(big).toMatch(/_\d+ of 3,000 shown\._/);
    expect(big).toContain('This digest is shortened to fit a pull-request comment');
    expect(digestView(data, 100, risk).cut).toBe(false);
  });

  it('marks a zone carried forward with when its data was read, in what changed as in the top risks', () => {
    // Issue 30, item 8: each finding's zone shows when its data was last read.
    const changed = data.drift!.findings.changes.find((c) => c.zone && (c.change === 'new' || c.change === 'fixed' || c.change === 'unwaived'));
    const risky = data.topRisks.find((f) => f.zone)!;
    const carried = new Set([changed?.zone?.id, risky.zone!.id]);
    const view = digestView({ ...data, lastReadOf: (id) => (carried.has(id) ? '2026-11-20T02:00:00.000Z' : '') }, 100, risk);
    const cell = (name: string | null) => `${name} (data of 2026-11-20)`;
    expect(view.risks.rows.some((r) => r.cells.includes(cell(risky.zone!.name)))).toBe(true);
    expect(changed).toBeDefined();
    expect(view.drift!.changes.rows.some((r) => r.cells.includes(cell(changed!.zone!.name)))).toBe(true);
    expect(digestView(data, 100, risk).drift!.changes.rows.some((r) => r.cells.some((x) => x.includes('(data of')))).toBe(false);
  });

  // Issue 32: "what to do" was ordered by count, so the expired certificate (critical) came 21st.
  it('lists what to do most severe first, then by the zones it reaches, and the worst zones by risk', () => {
    const fixes = [...digest.matchAll(/^- (critical|high|medium|low|info): `([^`]+)` \((\d+) failing(?: in (\d+) zones?)?/gm)].map((m) => ({
      severity: m[1] as 'critical',
      zones: Number(m[4] ?? 0),
      failing: Number(m[3]),
    }));
    expect(fixes.length).toBe(Object.values(data.audit.counts.byRule).filter((c) => c.fail > 0).length);
    // The most severe failure of the audit (in the demo, an expired certificate) leads.
    expect(fixes[0]!.severity).toBe(SEVERITIES.find((s) => data.audit.counts.failBySeverity[s] > 0));
    for (let i = 1; i < fixes.length; i++) {
      const [a, b] = [fixes[i - 1]!, fixes[i]!];
      const order = severityRank(a.severity) - severityRank(b.severity) || a.zones - b.zones || a.failing - b.failing;
      expect(order, JSON.stringify([a, b])).toBeGreaterThanOrEqual(0);
    }
    const scores = [...digest.split('### Worst zones by risk')[1]!.matchAll(/^\| [^|]+ \| (\d+) \|/gm)].map((m) => Number(m[1]));
    expect(scores.length).toBeGreaterThan(1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});

// The tests' organisation carries HTML, Markdown table syntax and control characters in its names,
// messages and invites (test/support/case-dataset.ts): none may break out of the digest's text.
describe("the Markdown digest of the tests' organisation", () => {
  const scans = digestOfScans(caseDataset());

  it('escapes its hostile strings: no HTML, no broken table rows', () => {
    const digest = scans.digest();
    // The invited account's name (with an img and a script tag) reaches the digest through drift.
    expect(digest).toContain('Globex Partners');
    expect(digest).not.toMatch(/<(script|img)/i);
    // Nor a control character: the ANSI escapes and bells of its names and messages are written out.
    // eslint-disable-next-line no-control-regex
    expect(digest).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    const lines = digest.split('\n');
    const cells = (line: string) => line.split(/(?<!\\)\|/).length;
    let columns = 0;
    let rows = 0;
    lines.forEach((line, i) => {
      if (lines[i + 1]?.startsWith('|---')) columns = cells(line);
      else if (line.startsWith('| ')) {
        expect(cells(line), line).toBe(columns);
        rows++;
      }
    });
    expect(rows).toBeGreaterThan(20);
  });
});
