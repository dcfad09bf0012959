import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * Switches (`full`, `quiet`, `verbose`) set in the config file hold when the command line does not
 * give them: precedence is defaults < config file < environment < flags (docs/configuration.md), and
 * a switch left off the command line is no choice of the user's.
 */

const emulator = emulatorsClosedAfterEach();

describe('switches in the config file', () => {
  it('"full": true reads every zone in full on a night that would read on, and "quiet": true keeps stderr empty', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = mkdtempSync(join(tmpdir(), 'zw-config-switches-'));
    const db = join(dir, 'zonewarden.db');
    const run = () => runInProcess(['run', '--base-url', emu.url, '--db', db, '--budget', '1000000', '--per-second', '0', '--out', join(dir, 'reports')], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
    expect((await run()).code).not.toBe(2);
    writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify({ full: true, quiet: true }));
    const second = await run();
    expect(second.code).not.toBe(2);
    expect(second.stderr).toBe('');
    const handle = openSnapshot(db, { readonly: true });
    try {
      const reader = new SnapshotReader(handle, 2);
      const zones = reader.zones();
      expect(zones.length).toBeGreaterThan(5);
      // Read in this scan, not carried from the first (a carried partition names the scan that read it).
      for (const z of zones) expect(reader.coverageOf('zone', z.id, 'dns_records')).toMatchObject({ state: 'ok', readIn: null });
    } finally {
      handle.close();
    }
  });
});
