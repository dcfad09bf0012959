import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/policy/findings.js';
import { firstSeenOf, MAX_SCANS_BACK } from '../../src/report/first-seen.js';
import type { Db } from '../../src/snapshot/db.js';
import { auditedHistory as history } from '../support/audited-history.js';

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

  it('looks back MAX_SCANS_BACK complete scans at most: a longer run shows the oldest one looked at', () => {
    const total = MAX_SCANS_BACK + 3;
    db = history(Array.from({ length: total }, () => ({ status: 'complete' as const, failing: ['a'] })));
    const oldestLookedAt = db.prepare('SELECT started_at FROM scans WHERE id = ?').pluck().get(total - MAX_SCANS_BACK);
    expect(firstSeenOf(db, total)(failing('a'))).toBe(oldestLookedAt);
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
