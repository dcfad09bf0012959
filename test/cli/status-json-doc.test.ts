import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { beginRun, finishRun, recordDeliveries } from '../../src/schedule/run-log.js';
import { claimScheduler } from '../../src/schedule/scheduler-state.js';
import { statusOf } from '../../src/schedule/status.js';
import { tempDatabases } from '../support/temp-db.js';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * HOUR);

const freshDb = tempDatabases('zw-status-doc-');

/** docs/status-json.md documents every field of `zonewarden status --format json`, nested ones included. */
describe('the status JSON schema document', () => {
  const doc = readFileSync(new URL('../../docs/status-json.md', import.meta.url), 'utf8');
  // A database with everything status reports on: a complete scan, a finished run, a scheduler and a delivery.
  const db = freshDb();
  const scan = Number(
    db
      .prepare("INSERT INTO scans (started_at, finished_at, status, base_url, scope, tool_version, pid, host, heartbeat_at) VALUES (?, ?, 'complete', 'http://127.0.0.1/client/v4', '{}', 't', 1, 'h', ?)")
      .run(hoursAgo(3).toISOString(), hoursAgo(2).toISOString(), hoursAgo(3).toISOString()).lastInsertRowid,
  );
  const run = beginRun(db, 'schedule', hoursAgo(3));
  const newFindings = { total: 2, bySeverity: { critical: 0, high: 2, medium: 0, low: 0, info: 0 }, comparedWithScan: null };
  finishRun(db, run, { outcome: 'findings', exitCode: 1, scanId: scan, summary: { counts: { fail: 2, waived: 0, unknown: 0, pass: 9 }, newFindings, error: null, reportDir: '/r/scan-1', deletedScans: [] } }, hoursAgo(2));
  claimScheduler(db, { cron: '0 2 * * *', timezone: 'UTC', nextRunAt: hoursAgo(-14) }, hoursAgo(4));
  recordDeliveries(db, run, [{ target: 'webhooks[0] https://hooks.example/…', event: 'new-findings', ok: false, attempts: 4, status: 503, error: 'webhooks[0] https://hooks.example/…: HTTP 503' }], hoursAgo(2));
  const view = statusOf(db, 36 * HOUR, NOW);
  const json = JSON.parse(JSON.stringify(view)) as Record<string, unknown> & Record<'lastRun' | 'scheduler' | 'lastNotification', Record<string, unknown>>;
  const documented = (key: string) => expect(doc, key).toMatch(new RegExp(`^\\| \`${key}\` \\|`, 'm'));

  it('is built over a database where every part of the status is present', () => {
    for (const key of ['lastCompleteScan', 'lastRun', 'scheduler', 'nextRun', 'lastNotification']) expect(json[key], key).not.toBeNull();
  });

  it.each(Object.keys(json))('documents the top-level field %s', documented);
  it.each(Object.keys(json.lastRun))('documents the lastRun field %s', documented);
  it.each(Object.keys(json.scheduler))('documents the scheduler field %s', documented);
  it.each(Object.keys(json.lastNotification))('documents the lastNotification field %s', documented);

  it('names the schema it documents', () => {
    expect(json['schema']).toBe('zonewarden.status/1');
    expect(doc.split('\n')[0]).toContain(json['schema'] as string);
  });
});
