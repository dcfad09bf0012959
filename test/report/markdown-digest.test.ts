import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { digestView, MAX_DIGEST_CHARS, renderDigest } from '../../src/report/markdown-digest.js';
import { reportData, type ReportData } from '../../src/report/report-data.js';
import { loadTemplates } from '../../src/report/templates.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { pendingOrganizationFlags, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/** Times and durations differ run to run; everything else in the demo digest must not. */
const normalised = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z| UTC)?)?/g, '<time>');

const GOLDEN = new URL('../fixtures/golden/report.md', import.meta.url);

describe('the Markdown digest of the demo scans', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zw-digest-'));
  const file = join(dir, 'zonewarden.db');
  const env = { ZONEWARDEN_API_TOKEN: TOKEN };
  let emu: RunningEmulator;
  let db: Db;
  let data: ReportData;
  let digest: string;

  beforeAll(async () => {
    emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
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
    db = openSnapshot(file);
    data = reportData(db, latest);
    digest = renderDigest(loadTemplates(), data);
  }, 60_000);

  afterAll(async () => {
    db?.close();
    await emu?.close();
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

  it('escapes the demo hostile strings: no HTML, no broken table rows', () => {
    expect(digest).not.toMatch(/<(script|img)/i);
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

  it('keeps under 60,000 characters by shortening its lists, and says so', () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...data.topRisks[0]!, message: `${'x'.repeat(250)} ${i}` }));
    const big = renderDigest(loadTemplates(), { ...data, topRisks: many });
    expect(big.length).toBeLessThanOrEqual(MAX_DIGEST_CHARS);
    expect(big).toMatch(/_\d+ of 3,000 shown\._/);
    expect(big).toContain('This digest is shortened to fit a pull-request comment');
    expect(digestView(data, 100).cut).toBe(false);
  });
});
