import { afterEach, describe, expect, it } from 'vitest';
import type { RunNotice } from '../../../src/schedule/notifications/notice.js';
import { notify } from '../../../src/schedule/notifications/notify.js';
import type { NotificationSettings, WebhookTarget } from '../../../src/schedule/notifications/settings.js';
import { createRedactor } from '../../../src/common/redact.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';

/** notify() end to end: real receivers on loopback, real payloads, the real redactor. */

const TOKEN = 'tok&<3n-Abc123456789';

let receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers) await r.close();
  receivers = [];
});

async function receiver(status = 200) {
  const r = await startReceiver((res) => void res.writeHead(status).end());
  receivers.push(r);
  return { received: r.received, origin: r.origin };
}

function target(origin: string, over: Partial<WebhookTarget> = {}): WebhookTarget {
  return { url: `${origin}/hook/secret`, label: `${origin}/…`, format: 'json', minSeverity: 'high', on: ['new-findings', 'failed', 'incomplete', 'stale'], ...over };
}

function settings(webhooks: WebhookTarget[]): NotificationSettings {
  return { webhooks, reportUrl: null, timeoutMs: 2000, retries: 1, backoffMs: 1 };
}

const run = { id: 7, trigger: 'schedule' as const, startedAt: '2026-11-03T16:00:00Z', finishedAt: '2026-11-03T16:20:00Z', outcome: 'findings' as const, exitCode: 1, error: null };

const findings: RunNotice = {
  event: 'new-findings',
  run,
  scan: { id: 41, status: 'complete', startedAt: '2026-11-03T16:00:00Z', unreadPartitions: 0 },
  counts: { fail: 1, waived: 0, unknown: 0, pass: 10 },
  newFindings: {
    comparedWithScan: 40,
    bySeverity: { critical: 1, high: 0, medium: 0, low: 0, info: 0 },
    worst: [{ change: 'new', rule: 'r', severity: 'critical', account: 'Acme', zone: 'a.example', resource: 'zone a.example', message: `leaked ${TOKEN} here`, fingerprint: 'f' }],
  },
  lastCompleteScan: { id: 41, finishedAt: '2026-11-03T16:20:00Z' },
  maxAgeSeconds: 86400,
  report: null,
};

const failed: RunNotice = { ...findings, event: 'failed', run: { ...run, outcome: 'failed', exitCode: 2, error: `bad token ${TOKEN}` }, newFindings: null, counts: null };

const noSleep = async () => undefined;

describe('notify', () => {
  it('posts each notice to each target that wants it, in order, with no credential in any body', async () => {
    const a = await receiver();
    const b = await receiver();
    const redact = createRedactor([TOKEN]);
    const deliveries = await notify(settings([target(a.origin, { format: 'slack' }), target(b.origin, { on: ['failed'] })]), [findings, failed], { redact, sleep: noSleep });

    expect(deliveries.map((d) => [d.target, d.event, d.ok])).toEqual([
      [`${a.origin}/…`, 'new-findings', true],
      [`${a.origin}/…`, 'failed', true],
      [`${b.origin}/…`, 'failed', true],
    ]);
    expect(a.received).toHaveLength(2);
    expect(b.received).toHaveLength(1);
    expect(a.received.every((r) => r.url === '/hook/secret')).toBe(true);

    const [slackFindings, slackFailed] = a.received.map((r) => (JSON.parse(r.body) as { text: string }).text);
    expect(slackFindings).toContain('leaked [redacted] here');
    expect(slackFailed).toBe('zonewarden: run 7 failed: bad token [redacted]');
    const jsonFailed = JSON.parse(b.received[0]?.body ?? '') as { event: string; run: { error: string } };
    expect(jsonFailed.event).toBe('failed');
    expect(jsonFailed.run.error).toBe('bad token [redacted]');
    for (const r of [...a.received, ...b.received]) {
      expect(r.body).not.toContain('Abc123456789');
    }
  });

  it('redacts the body as built, too', async () => {
    const a = await receiver();
    // A secret only the finished body contains: the JSON of the tool's own name.
    const deliveries = await notify(settings([target(a.origin)]), [failed], { redact: (t) => t.split('zonewarden.notification/1').join('[redacted]'), sleep: noSleep });
    expect(deliveries[0]?.ok).toBe(true);
    expect(JSON.parse(a.received[0]?.body ?? '')).toMatchObject({ schema: '[redacted]' });
  });

  it('does not let a failing target stop another', async () => {
    const good = await receiver();
    const bad = await receiver(500);
    const deliveries = await notify(settings([target(bad.origin), target(good.origin)]), [findings, failed], { redact: (t) => t, sleep: noSleep });
    expect(deliveries.map((d) => [d.target, d.event, d.ok, d.attempts, d.status])).toEqual([
      [`${bad.origin}/…`, 'new-findings', false, 2, 500],
      [`${good.origin}/…`, 'new-findings', true, 1, 200],
      [`${bad.origin}/…`, 'failed', false, 2, 500],
      [`${good.origin}/…`, 'failed', true, 1, 200],
    ]);
    expect(bad.received).toHaveLength(4);
    expect(good.received).toHaveLength(2);
  });

  it('never throws: a redactor that fails is a failed delivery for that target', async () => {
    const a = await receiver();
    const deliveries = await notify(settings([target(a.origin)]), [failed], {
      redact: () => {
        throw new Error('redactor broke');
      },
      sleep: noSleep,
    });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ target: `${a.origin}/…`, event: 'failed', ok: false, attempts: 0, status: null });
    expect(a.received).toHaveLength(0);
  });

  it('sends nothing, and reports nothing, when no target wants the notice', async () => {
    const a = await receiver();
    expect(await notify(settings([target(a.origin, { on: ['stale'] })]), [findings, failed], { redact: (t) => t })).toEqual([]);
    expect(await notify(settings([]), [findings], { redact: (t) => t })).toEqual([]);
    expect(a.received).toHaveLength(0);
  });
});
