import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/policy/findings.js';
import { firstSeenOf } from '../../src/report/first-seen.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';

/** A database of audited scans whose failures are given per scan by fingerprint. */
function history(scans: Array<{ status: 'complete' | 'incomplete'; failing: string[]; waived?: string[] }>): Db {
  const db = openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-first-seen-')), 'zonewarden.db'));
  const scan = db.prepare("INSERT INTO scans (started_at, finished_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, ?, ?, 'u', '{}', '0.0.1', 1, 'h', ?)");
  const audit = db.prepare("INSERT INTO audits (scan_id, evaluated_at, tool_version, rules, counts, errors, waivers) VALUES (?, 't', '0.0.1', '[]', '{}', '[]', '{}')");
  const finding = db.prepare(
    "INSERT INTO findings (scan_id, fingerprint, rule, category, severity, status, resource_type, resource_id, message, data) VALUES (?, ?, 'r', 'dns', 'high', ?, 'zone', 'z', 'm', '{}')",
  );
  scans.forEach((s, i) => {
    const at = `2026-11-${String(i + 1).padStart(2, '0')}T02:00:00.000Z`;
    const id = Number(scan.run(at, at, s.status, at).lastInsertRowid);
    audit.run(id);
    for (const fp of s.failing) finding.run(id, fp, 'fail');
    for (const fp of s.waived ?? []) finding.run(id, fp, 'waived');
  });
  return db;
}

const failing = (fingerprint: string) => ({ fingerprint, status: 'fail' }) as Finding;

describe('since when a failure has failed', () => {
  let db: Db | undefined;
  afterEach(() => db?.close());

  it('is the first scan of its unbroken run of failures, skipping incomplete scans', () => {
    db = history([
      { status: 'complete', failing: ['a', 'b', 'c'] },
      { status: 'complete', failing: ['a', 'c'], waived: ['b'] },
      // Read nothing of the zone: says nothing about 'c', so its run goes on.
      { status: 'incomplete', failing: ['a'] },
      { status: 'complete', failing: ['a', 'b', 'c', 'd'] },
    ]);
    const since = firstSeenOf(db, 4);
    expect(since(failing('a'))).toBe('2026-11-01T02:00:00.000Z');
    // Waived in scan 2: its run of failures starts again in scan 4.
    expect(since(failing('b'))).toBe('2026-11-04T02:00:00.000Z');
    expect(since(failing('c'))).toBe('2026-11-01T02:00:00.000Z');
    expect(since(failing('d'))).toBe('2026-11-04T02:00:00.000Z');
  });

  it('says nothing of a finding that does not fail, nor of one the scan does not hold', () => {
    db = history([{ status: 'complete', failing: ['a'] }, { status: 'complete', failing: ['a'], waived: ['w'] }]);
    const since = firstSeenOf(db, 2);
    expect(since({ fingerprint: 'w', status: 'waived' } as Finding)).toBe('');
    expect(since(failing('unknown-fingerprint'))).toBe('');
    // An earlier scan's view looks back from that scan only.
    expect(firstSeenOf(db, 1)(failing('a'))).toBe('2026-11-01T02:00:00.000Z');
  });
});
