import { describe, expect, it } from 'vitest';
import { acceptBaseline, currentBaseline, listBaselines } from '../../src/drift/baselines.js';
import { chooseScans } from '../../src/drift/diff.js';
import { UsageError } from '../../src/common/errors.js';
import { openSnapshot, SnapshotError, type Db } from '../../src/snapshot/db.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { thrownBy } from '../support/errors.js';

type Ending = 'complete' | 'incomplete' | 'aborted' | 'running';

/**
 * A database holding one scan per ending, in order (ids 1, 2, ...), written through the real scan
 * writer; a `running` scan is left unfinished, so it can only come last.
 */
function database(endings: Ending[]): { db: Db; ids: number[] } {
  const db = openSnapshot(':memory:');
  const ids: number[] = [];
  for (const ending of endings) {
    const writer = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (t: string) => t);
    ids.push(writer.scanId);
    if (ending !== 'running') writer.finish(ending, {});
  }
  return { db, ids };
}

const AT = new Date('2026-11-01T12:00:00.000Z');
const LATER = new Date('2026-11-02T08:30:00.000Z');

const baselineRows = (db: Db): number => (db.prepare('SELECT count(*) AS n FROM baselines').get() as { n: number }).n;

describe('baselines', () => {
  it('has none until one is accepted', () => {
    const { db } = database(['complete']);
    expect(listBaselines(db)).toEqual([]);
    expect(currentBaseline(db)).toBeNull();
  });

  it('stores the scan, the note and the time of an accepted baseline', () => {
    const { db, ids } = database(['complete', 'complete']);
    const accepted = acceptBaseline(db, ids[0]!, 'approved after the audit', AT);
    expect(accepted).toEqual({ id: expect.any(Number), scanId: ids[0], acceptedAt: AT.toISOString(), note: 'approved after the audit' });
    expect(listBaselines(db)).toEqual([accepted]);
    expect(currentBaseline(db)).toEqual(accepted);
  });

  it('stores a baseline without a note as null', () => {
    const { db, ids } = database(['complete']);
    acceptBaseline(db, ids[0]!, null, AT);
    expect(currentBaseline(db)).toMatchObject({ scanId: ids[0], note: null, acceptedAt: AT.toISOString() });
  });

  it('stamps the current time when none is given', () => {
    const { db, ids } = database(['complete']);
    const before = Date.now();
    const accepted = acceptBaseline(db, ids[0]!, null);
    const after = Date.now();
    const at = Date.parse(currentBaseline(db)!.acceptedAt);
    expect(currentBaseline(db)!.acceptedAt).toBe(accepted.acceptedAt);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });

  it.each<[Ending, string]>([
    ['incomplete', 'ZW_SCAN_UNUSABLE'],
    ['aborted', 'ZW_SCAN_UNUSABLE'],
    ['running', 'ZW_SCAN_UNUSABLE'],
  ])('refuses an %s scan and stores nothing', (ending, code) => {
    const { db, ids } = database(['complete', ending]);
    const err = thrownBy(() => acceptBaseline(db, ids[1]!, 'n', AT), SnapshotError);
    expect(err.code).toBe(code);
    expect(err.message).toBe(`scan ${ids[1]} is ${ending}: a baseline must be a complete scan, so that everything in it was read`);
    expect(err.message).not.toMatch(/[\r\n]/);
    expect(baselineRows(db)).toBe(0);
    expect(currentBaseline(db)).toBeNull();
  });

  it('refuses a scan that is not in the database and stores nothing', () => {
    const { db } = database(['complete']);
    const err = thrownBy(() => acceptBaseline(db, 99, 'n', AT), SnapshotError);
    expect(err.code).toBe('ZW_SCAN_MISSING');
    expect(err.message).toBe('there is no scan 99 in this database');
    expect(baselineRows(db)).toBe(0);
  });

  it('keeps every accepted baseline, newest first, and uses the newest', () => {
    const { db, ids } = database(['complete', 'complete', 'complete']);
    const first = acceptBaseline(db, ids[1]!, 'first', AT);
    const second = acceptBaseline(db, ids[0]!, 'second', LATER);
    expect(second.id).toBeGreaterThan(first.id);
    expect(listBaselines(db)).toEqual([second, first]);
    expect(currentBaseline(db)).toEqual(second);
  });

  it('keeps both when the same scan is accepted twice', () => {
    const { db, ids } = database(['complete']);
    const first = acceptBaseline(db, ids[0]!, 'first', AT);
    const again = acceptBaseline(db, ids[0]!, 'again', LATER);
    expect(again.id).not.toBe(first.id);
    expect(listBaselines(db)).toEqual([again, first]);
    expect(currentBaseline(db)?.note).toBe('again');
  });

  it('keeps earlier baselines when a later acceptance is refused', () => {
    const { db, ids } = database(['complete', 'incomplete']);
    const first = acceptBaseline(db, ids[0]!, 'first', AT);
    thrownBy(() => acceptBaseline(db, ids[1]!, 'bad', LATER), SnapshotError);
    expect(listBaselines(db)).toEqual([first]);
  });
});

describe('chooseScans', () => {
  // Scans 1..6: complete, complete, incomplete, aborted, complete, incomplete.
  const layout: Ending[] = ['complete', 'complete', 'incomplete', 'aborted', 'complete', 'incomplete'];

  it('compares the latest complete scan with the complete scan before it, skipping the others', () => {
    const { db, ids } = database(layout);
    expect(chooseScans(db, {})).toEqual({ from: ids[1], to: ids[4], baseline: null });
  });

  it('compares the two scans when there are only two complete ones in a row', () => {
    const { db, ids } = database(['complete', 'complete']);
    expect(chooseScans(db, {})).toEqual({ from: ids[0], to: ids[1], baseline: null });
  });

  it('compares --to with the complete scan before it', () => {
    const { db, ids } = database(layout);
    expect(chooseScans(db, { to: ids[1]! })).toEqual({ from: ids[0], to: ids[1], baseline: null });
    expect(chooseScans(db, { to: ids[3]! })).toEqual({ from: ids[1], to: ids[3], baseline: null });
  });

  it('takes --from and --to as given', () => {
    const { db, ids } = database(layout);
    expect(chooseScans(db, { from: ids[4]!, to: ids[0]! })).toEqual({ from: ids[4], to: ids[0], baseline: null });
    expect(chooseScans(db, { from: ids[2]!, to: ids[5]! })).toEqual({ from: ids[2], to: ids[5], baseline: null });
  });

  it('takes --from with the latest complete scan', () => {
    const { db, ids } = database(layout);
    expect(chooseScans(db, { from: ids[0]! })).toEqual({ from: ids[0], to: ids[4], baseline: null });
  });

  it('compares the newest baseline with the latest complete scan', () => {
    const { db, ids } = database(layout);
    acceptBaseline(db, ids[1]!, 'older', AT);
    const baseline = acceptBaseline(db, ids[0]!, 'newer', LATER);
    expect(chooseScans(db, { baseline: true })).toEqual({ from: ids[0], to: ids[4], baseline });
  });

  it('compares the baseline with --to when it is given', () => {
    const { db, ids } = database(layout);
    const baseline = acceptBaseline(db, ids[0]!, null, AT);
    expect(chooseScans(db, { baseline: true, to: ids[1]! })).toEqual({ from: ids[0], to: ids[1], baseline });
  });

  it('ignores baselines without --baseline', () => {
    const { db, ids } = database(layout);
    acceptBaseline(db, ids[0]!, null, AT);
    expect(chooseScans(db, {})).toEqual({ from: ids[1], to: ids[4], baseline: null });
  });

  it('refuses --baseline when no baseline has been accepted', () => {
    const { db } = database(layout);
    const err = thrownBy(() => chooseScans(db, { baseline: true }), SnapshotError);
    expect(err.message).toContain('zonewarden baseline accept');
    expect(err.message).not.toMatch(/[\r\n]/);
  });

  it('refuses --baseline with --from as a usage error', () => {
    const { db, ids } = database(layout);
    acceptBaseline(db, ids[0]!, null, AT);
    const err = thrownBy(() => chooseScans(db, { baseline: true, from: 1 }), UsageError);
    expect(err.message).toContain('--baseline');
    expect(err.message).toContain('--from');
  });

  it('refuses --baseline with --from even in a database without scans', () => {
    const { db } = database([]);
    thrownBy(() => chooseScans(db, { baseline: true, from: 1 }), UsageError);
  });

  it('refuses a database with a single complete scan, pointing at --from', () => {
    const { db, ids } = database(['incomplete', 'complete', 'incomplete']);
    const err = thrownBy(() => chooseScans(db, {}), SnapshotError);
    expect(err.code).toBe('ZW_SCAN_MISSING');
    expect(err.message).toContain(`before scan ${ids[1]}`);
    expect(err.message).toContain('--from');
    expect(err.message).not.toMatch(/[\r\n]/);
  });

  it('refuses --to naming the first complete scan, pointing at --from', () => {
    const { db, ids } = database(layout);
    const err = thrownBy(() => chooseScans(db, { to: ids[0]! }), SnapshotError);
    expect(err.message).toContain('--from');
  });

  it('refuses a database without a complete scan', () => {
    const { db } = database(['incomplete', 'aborted']);
    const err = thrownBy(() => chooseScans(db, {}), SnapshotError);
    expect(err.code).toBe('ZW_SCAN_MISSING');
    expect(err.message).toContain('run zonewarden scan first');
  });
});
