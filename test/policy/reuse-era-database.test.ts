import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/**
 * A database written by zonewarden before every audit judged every zone (issue 51): its audits
 * kept verdicts of unchanged zones, so audit 3 holds rows of its own and reads the rest from
 * audits 1 and 2 (audit_zones.source_audit), and keeps passes as tallies. It opens, lists,
 * reports (whole and by zone), diffs and audits as it did, and pruning the audits it reads leaves
 * it whole.
 *
 * test/fixtures/reuse-era/zonewarden.db was written by the build before issue 51: the emulator's
 * generated organisation (seed 11, 2 accounts, 12 zones, 240 records), scanned and audited (the
 * CLI's defaults) three times, with a night of changes (share 0.25, seeds 1 and 2) before the
 * second and third scans. expected.json holds what that build's `report --format json` gave of each
 * scan and of one zone a kept verdict came from audit 1 for (counts, and a sha256 of the findings
 * [fingerprint, status, severity, message] in listing order), and of its `diff` of scans 2 and 3.
 */

const FIXTURE = new URL('../fixtures/reuse-era/', import.meta.url);
const EXPECTED = JSON.parse(readFileSync(new URL('expected.json', FIXTURE), 'utf8')) as Record<string, { counts: unknown; findings?: number; changes?: number; sha256: string }>;
const KEPT_ZONE = 'z000010-app.example';

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** A copy of the fixture database in a directory of its own. */
function copyOfFixture(): string {
  const db = join(mkdtempSync(join(tmpdir(), 'zw-reuse-era-')), 'zonewarden.db');
  // Kept gzipped (0.4 MB instead of 2.7 MB): a database file is not a thing to track as is.
  writeFileSync(db, gunzipSync(readFileSync(new URL('zonewarden.db.gz', FIXTURE))));
  return db;
}

/** `report --format json` of a scan, as expected.json keeps it. */
async function reported(db: string, scan: number, ...extra: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'zw-reuse-era-report-'));
  const r = await runCli(['report', '--db', db, '--scan', String(scan), '--format', 'json', '--out', out, '--quiet', ...extra]);
  expect(r.code, r.stderr).not.toBe(2);
  const dir = readdirSync(out).find((d) => d.includes('-scan-'))!;
  const doc = JSON.parse(readFileSync(join(out, dir, 'findings.json'), 'utf8')) as { counts: unknown; findings: Array<{ fingerprint: string; status: string; severity: string; message: string }> };
  const findings = doc.findings.map((f) => [f.fingerprint, f.status, f.severity, f.message]);
  return { counts: doc.counts, findings: findings.length, sha256: sha256(findings) };
}

async function expectReportsAsWritten(db: string, scans: readonly number[]): Promise<void> {
  for (const scan of scans) expect(await reported(db, scan), `scan ${scan}`).toEqual(EXPECTED[`scan ${scan}`]);
  // A view of one zone counts its passes from the tallies the audit that judged it kept.
  expect(await reported(db, 3, '--zone', KEPT_ZONE)).toEqual(EXPECTED[`scan 3, zone ${KEPT_ZONE}`]);
}

describe('a database written with verdict reuse (before issue 51)', () => {
  it('lists, reports, diffs and audits as it did; pruning the audits its latest audit read from leaves that audit whole', async () => {
    const db = copyOfFixture();
    const scans = await runCli(['scans', '--db', db]);
    expect(scans.code, scans.stderr).toBe(0);
    expect(scans.stdout.split('\n').filter((l) => /^scan [123] .* complete /.test(l))).toHaveLength(3);

    await expectReportsAsWritten(db, [1, 2, 3]);

    const diff = await runCli(['diff', '--db', db, '--format', 'json']);
    expect(diff.code, diff.stderr).not.toBe(2);
    const changes = (JSON.parse(diff.stdout) as { findings: { counts: unknown; changes: unknown[] } }).findings;
    expect({ counts: changes.counts, changes: changes.changes.length, sha256: sha256(changes.changes) }).toEqual(EXPECTED['diff 2 to 3']);

    // Auditing a scan again works (a trial beside the stored audit, whose rules were others), and leaves the stored one as it was.
    const audit = await runCli(['audit', '--db', db, '--scan', '3', '--format', 'json']);
    expect(audit.code, audit.stderr).not.toBe(2);
    expect(audit.stderr).toMatch(/^stored as audit \d+ \(trial: /m);

    // Scans 1 and 2 go: audit 3 first gets its own copy of the rows it read from their audits.
    const prune = await runCli(['prune', '--db', db, '--keep', '1']);
    expect(prune.code, prune.stderr).toBe(0);
    await expectReportsAsWritten(db, [3]);
  });
});
