import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RULES } from '../../rules/index.js';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { recordAudit } from '../../src/audit/audit.js';
import type { Finding } from '../../src/policy/findings.js';
import { activeRules, loadCatalogue, type ActiveRule } from '../../src/policy/registry.js';
import { auditFindings } from '../../src/audit/store.js';
import type { Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { NOW } from '../support/http.js';
import { AUDIT_RULES, scanNight, snapshotsClosedAfterEach, type Night } from '../support/nights.js';

/**
 * Goldens that guard refactors of the scan and the audit (issue 51): what the audits find, and what
 * the scans ask of the API, must come out the same before and after a change that is not meant to
 * change them. Three files under test/fixtures/golden/:
 * - audit-case.json: the findings of a full scan and audit of the tests' case organisation;
 * - audit-nights.json: the findings of a generated organisation over three nights (a full scan, then
 *   two nights of the emulator's night changes read on incrementally), audited each night;
 * - scan-requests.json: the emulator's requests per route for each of those three scans.
 * The clock is fixed (the emulator's, frozen between nights, and Date for the scanner and the audit,
 * moved a day with each night), so dates in messages and the read plan's turns depend neither on
 * when it runs nor on how fast: a development_mode countdown read a second later once changed a message.
 * UPDATE_GOLDEN=1 rewrites them after an intended change; review the diff before committing.
 */

const GOLDEN = (name: string) => new URL(`../fixtures/golden/${name}`, import.meta.url);
const DAY_MS = 86_400_000;
const CASE_RULES = activeRules(loadCatalogue(RULES), DEMO_RULE_SETTINGS);

/** One finding as a golden line: the fingerprint, status, severity and message (rule and zone to read it by). */
const goldenLine = (f: Finding) => [f.rule, f.zone?.name ?? null, f.fingerprint, f.status, f.severity, f.message];
const sortedLines = (findings: Iterable<Finding>) =>
  [...findings].map(goldenLine).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));

/** The findings the audit stores (recordAudit, as `zonewarden audit` does), as sorted golden lines. */
function audited(db: Db, scanId: number, rules: readonly ActiveRule[]) {
  const result = recordAudit(db, new SnapshotReader(db, scanId), rules);
  expect(result.errors).toEqual([]);
  return sortedLines(auditFindings(db, result.stored!.auditId));
}

const sortedRoutes = (night: Night) => Object.fromEntries(Object.entries(night.byRoute).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Compares `value` with the golden file, or rewrites the file under UPDATE_GOLDEN=1. */
function matchesGolden(name: string, value: Record<string, unknown>): void {
  // One finding (or route) a line, so a change reads as a diff of the findings it touches.
  const text = `{\n${Object.entries(value)
    .map(([k, v]) => (Array.isArray(v) ? `${JSON.stringify(k)}: [\n${v.map((l) => `  ${JSON.stringify(l)}`).join(',\n')}\n]` : `${JSON.stringify(k)}: ${JSON.stringify(v, null, 1)}`))
    .join(',\n')}\n}\n`;
  if (process.env['UPDATE_GOLDEN']) writeFileSync(GOLDEN(name), text);
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(GOLDEN(name), 'utf8')));
}

const openDb = snapshotsClosedAfterEach();
let emulators: RunningEmulator[] = [];

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterAll(async () => {
  vi.useRealTimers();
  for (const emu of emulators.splice(0)) await emu.close();
});

async function emulatorOf(options: Parameters<typeof startEmulator>[0]): Promise<RunningEmulator> {
  const emu = await startEmulator({ now: new Date(Date.now()), frozenClock: true, rateLimit: 0, ipRateLimit: 0, ...options });
  emulators.push(emu);
  return emu;
}

describe('audit goldens (issue 51: refactors keep what is found and what is read)', () => {
  it("the case organisation's findings after a full scan and audit", async () => {
    const emu = await emulatorOf({ dataset: caseDataset() });
    const db = openDb();
    const scan = await scanNight(emu, db, 'full');
    expect(scan.outcome.status).toBe('complete');
    matchesGolden('audit-case.json', { findings: audited(db, scan.outcome.scanId, CASE_RULES) });
  });

  it("a generated organisation's findings and requests over a full scan and two incremental nights", async () => {
    const emu = await emulatorOf({ dataset: 'generated', generated: { seed: 5, accounts: 2, zones: 40, records: 400 } });
    const db = openDb();
    const findings: Record<string, unknown> = {};
    const requests: Record<string, unknown> = {};
    for (const night of [0, 1, 2]) {
      if (night > 0) {
        emu.night({ share: 0.1, seed: night });
        vi.setSystemTime(NOW.getTime() + night * DAY_MS);
      }
      const scan = await scanNight(emu, db, night === 0 ? 'full' : 'incremental');
      expect(scan.outcome.status).toBe('complete');
      if (night > 0) expect(scan.outcome.summary.reads).toMatchObject({ incremental: true });
      const name = night === 0 ? 'full scan' : `night ${night}`;
      findings[name] = audited(db, scan.outcome.scanId, AUDIT_RULES);
      requests[name] = { total: scan.requests, byRoute: sortedRoutes(scan) };
    }
    matchesGolden('audit-nights.json', findings);
    matchesGolden('scan-requests.json', requests);
  });
});
