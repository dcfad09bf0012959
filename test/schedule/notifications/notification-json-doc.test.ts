import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunNotice } from '../../../src/schedule/notifications/notice.js';
import { webhookBody } from '../../../src/schedule/notifications/payload.js';

/** docs/notification-json.md documents every field of the JSON notification, nested ones included. */
describe('the notification JSON schema document', () => {
  const doc = readFileSync(new URL('../../../docs/notification-json.md', import.meta.url), 'utf8');
  const notice: RunNotice = {
    event: 'new-findings',
    run: { id: 7, trigger: 'schedule', startedAt: '2026-11-03T16:00:00Z', finishedAt: '2026-11-03T16:20:00Z', outcome: 'findings', exitCode: 1, error: null },
    scan: { id: 41, status: 'complete', startedAt: '2026-11-03T16:00:00Z', unreadPartitions: 0 },
    counts: { fail: 1, waived: 0, unknown: 0, pass: 10 },
    newFindings: {
      comparedWithScan: 40,
      bySeverity: { critical: 1, high: 0, medium: 0, low: 0, info: 0 },
      worst: [{ change: 'new', rule: 'r', severity: 'critical', account: 'Acme', zone: 'a.example', resource: 'zone a.example', message: 'm', fingerprint: 'f' }],
    },
    lastCompleteScan: { id: 41, finishedAt: '2026-11-03T16:20:00Z' },
    maxAgeSeconds: 86400,
    report: { dir: '/r/run-7', files: ['/r/run-7/report.html'] },
  };
  const body = webhookBody(notice, { url: 'https://h.example/x', label: 'https://h.example/…', format: 'json', minSeverity: 'high', on: ['new-findings'] }, { reportUrl: 'https://r.example' });
  const json = JSON.parse(body ?? 'null') as Record<string, unknown> & {
    run: Record<string, unknown>;
    newFindings: Record<string, unknown> & { findings: Array<Record<string, unknown>> };
  };
  const documented = (key: string) => expect(doc, key).toMatch(new RegExp(`^\\| \`${key}\` \\|`, 'm'));

  it.each(Object.keys(json))('documents the top-level field %s', (key) => documented(key));

  it('documents every field of the run, of newFindings and of a listed finding', () => {
    const keys = [...Object.keys(json.run), ...Object.keys(json.newFindings), ...json.newFindings.findings.flatMap((f) => Object.keys(f))];
    expect(keys).toContain('fingerprint');
    expect(keys).toContain('more');
    for (const key of keys) documented(key);
  });

  it('names the schema it documents', () => {
    expect(json['schema']).toBe('zonewarden.notification/1');
    expect(doc.split('\n')[0]).toContain(json['schema'] as string);
  });
});
