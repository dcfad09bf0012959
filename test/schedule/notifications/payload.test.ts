import { describe, expect, it } from 'vitest';
import type { NoticeFinding, RunNotice } from '../../../src/schedule/notifications/notice.js';
import { duration, webhookBody } from '../../../src/schedule/notifications/payload.js';
import type { WebhookTarget } from '../../../src/schedule/notifications/settings.js';
import { PACKAGE } from '../../../src/common/package-info.js';
import type { Severity } from '../../../src/policy/rule.js';

const NOW = new Date('2026-11-03T16:30:00.000Z');
const REPORT_URL = 'https://reports.example.com/zonewarden';

function finding(n: number, severity: Severity, over: Partial<NoticeFinding> = {}): NoticeFinding {
  return {
    change: 'new',
    rule: `rule-${severity}`,
    severity,
    account: 'Acme',
    zone: `zone${n}.example`,
    resource: `dns_record www.zone${n}.example (A)`,
    message: `finding ${n}`,
    fingerprint: `fp${n}`,
    ...over,
  };
}

function notice(over: Partial<RunNotice> = {}): RunNotice {
  const worst = [
    ...Array.from({ length: 2 }, (_, i) => finding(i, 'critical')),
    ...Array.from({ length: 30 }, (_, i) => finding(100 + i, 'high')),
    ...Array.from({ length: 18 }, (_, i) => finding(200 + i, 'medium')),
  ];
  return {
    event: 'new-findings',
    run: { id: 7, trigger: 'schedule', startedAt: '2026-11-03T16:00:00.000Z', finishedAt: '2026-11-03T16:20:00.000Z', outcome: 'findings', exitCode: 1, error: null },
    scan: { id: 41, status: 'complete', startedAt: '2026-11-03T16:00:00.000Z', unreadPartitions: 0 },
    counts: { fail: 90, waived: 2, unknown: 1, pass: 400 },
    newFindings: { comparedWithScan: 40, bySeverity: { critical: 2, high: 30, medium: 25, low: 4, info: 1 }, worst },
    lastCompleteScan: { id: 41, finishedAt: '2026-11-03T16:20:00.000Z' },
    maxAgeSeconds: 36 * 3600,
    report: { dir: '/var/lib/zonewarden/reports/2026-11-03T16-00-00Z-scan-41', files: ['/var/lib/zonewarden/reports/2026-11-03T16-00-00Z-scan-41/report.html', '/var/lib/zonewarden/reports/2026-11-03T16-00-00Z-scan-41/report.md'] },
    ...over,
  };
}

function target(over: Partial<WebhookTarget> = {}): WebhookTarget {
  return { url: 'https://hooks.example.com/x', label: 'https://hooks.example.com/…', format: 'slack', minSeverity: 'high', on: ['new-findings', 'failed', 'incomplete', 'stale'], ...over };
}

function slack(n: RunNotice, t: Partial<WebhookTarget> = {}, reportUrl: string | null = REPORT_URL): string {
  const body = webhookBody(n, target({ format: 'slack', ...t }), { reportUrl }, NOW);
  expect(body).not.toBeNull();
  const parsed = JSON.parse(body as string) as { text: string; unfurl_links: boolean; unfurl_media: boolean };
  expect(parsed.unfurl_links).toBe(false);
  expect(parsed.unfurl_media).toBe(false);
  expect(Object.keys(parsed).sort()).toEqual(['text', 'unfurl_links', 'unfurl_media']);
  return parsed.text;
}

interface JsonDoc {
  schema: string;
  tool: { name: string; version: string };
  event: string;
  summary: string;
  run: unknown;
  scan: unknown;
  counts: unknown;
  newFindings: { comparedWithScan: number | null; threshold: string; total: number; bySeverity: Record<string, number>; findings: NoticeFinding[]; more: number } | null;
  lastCompleteScan: unknown;
  maxAgeSeconds: number;
  report: { dir: string; files: string[]; url: string | null } | null;
}

function json(n: RunNotice, t: Partial<WebhookTarget> = {}, reportUrl: string | null = REPORT_URL): JsonDoc {
  const body = webhookBody(n, target({ format: 'json', ...t }), { reportUrl }, NOW);
  expect(body).not.toBeNull();
  return JSON.parse(body as string) as JsonDoc;
}

describe('which notices a target gets', () => {
  it('none for an event the target does not listen for', () => {
    expect(webhookBody(notice(), target({ on: ['failed'] }), { reportUrl: null }, NOW)).toBeNull();
    expect(webhookBody(notice(), target({ on: ['new-findings'] }), { reportUrl: null }, NOW)).not.toBeNull();
  });

  it('none for new findings all below its threshold', () => {
    const n = notice({ newFindings: { comparedWithScan: 40, bySeverity: { critical: 0, high: 0, medium: 3, low: 0, info: 0 }, worst: [finding(1, 'medium')] } });
    expect(webhookBody(n, target({ minSeverity: 'high' }), { reportUrl: null }, NOW)).toBeNull();
    expect(webhookBody(n, target({ format: 'json', minSeverity: 'high' }), { reportUrl: null }, NOW)).toBeNull();
    expect(webhookBody(n, target({ minSeverity: 'medium' }), { reportUrl: null }, NOW)).not.toBeNull();
  });

  it('none for new findings when the run produced no audit', () => {
    expect(webhookBody(notice({ newFindings: null }), target(), { reportUrl: null }, NOW)).toBeNull();
  });
});

describe('slack format', () => {
  it('new findings: the count at or above the threshold, by severity, the worst 20 and how many more', () => {
    const lines = slack(notice()).split('\n');
    expect(lines[0]).toBe('zonewarden: 32 new failing findings at or above high in scan 41 (2 critical, 30 high)');
    const bullets = lines.filter((l) => l.startsWith('• '));
    expect(bullets).toHaveLength(20);
    expect(bullets[0]).toBe('• *critical* rule-critical on zone0.example: finding 0');
    expect(bullets.every((b) => !b.includes('*medium*'))).toBe(true);
    expect(lines).toContain('and 12 more');
    expect(lines.at(-1)).toBe(`<${REPORT_URL}/2026-11-03T16-00-00Z-scan-41/report.html|report>`);
  });

  it('a lower threshold counts and lists more, and counts beyond the listed worst in "more"', () => {
    const lines = slack(notice(), { minSeverity: 'low' }).split('\n');
    expect(lines[0]).toBe('zonewarden: 61 new failing findings at or above low in scan 41 (2 critical, 30 high, 25 medium, 4 low)');
    expect(lines).toContain('and 41 more');
  });

  it('lists every finding with no "more" line when they fit, and says one finding', () => {
    const n = notice({ newFindings: { comparedWithScan: null, bySeverity: { critical: 1, high: 0, medium: 0, low: 0, info: 0 }, worst: [finding(1, 'critical', { change: 'unwaived', zone: null })] } });
    const lines = slack(n).split('\n');
    expect(lines[0]).toBe('zonewarden: 1 new failing finding at or above high in scan 41 (1 critical)');
    expect(lines[1]).toBe('• *critical* rule-critical in account Acme: finding 1 (its waiver ended)');
    expect(lines.some((l) => l.startsWith('and '))).toBe(false);
  });

  it('failed: the run and its error', () => {
    const n = notice({ event: 'failed', newFindings: null, counts: null, run: { ...notice().run!, outcome: 'failed', exitCode: 2, error: 'API unreachable: connection failed (ECONNREFUSED)' } });
    const lines = slack(n).split('\n');
    expect(lines[0]).toBe('zonewarden: run 7 failed: API unreachable: connection failed (ECONNREFUSED)');
    expect(lines.some((l) => l.startsWith('•'))).toBe(false);
  });

  it('failed: an aborted run, and a run without an error', () => {
    expect(slack(notice({ event: 'failed', run: { ...notice().run!, outcome: 'aborted', error: null } })).split('\n')[0]).toBe('zonewarden: run 7 was aborted');
  });

  it('incomplete: how many partitions could not be read', () => {
    const n = notice({ event: 'incomplete', scan: { id: 41, status: 'incomplete', startedAt: '2026-11-03T16:00:00.000Z', unreadPartitions: 3 } });
    const lines = slack(n).split('\n');
    expect(lines[0]).toBe('zonewarden: scan 41 is incomplete: 3 partitions could not be read');
    // The new findings of an incomplete scan are their own notice.
    expect(lines.some((l) => l.startsWith('•'))).toBe(false);
    expect(slack({ ...n, scan: { ...n.scan!, unreadPartitions: 1 } }).split('\n')[0]).toBe('zonewarden: scan 41 is incomplete: 1 partition could not be read');
  });

  it('stale: how long since the last complete scan, and the maximum age', () => {
    const n = notice({ event: 'stale', run: null, newFindings: null, counts: null, report: null, lastCompleteScan: { id: 40, finishedAt: '2026-11-01T12:00:00.000Z' } });
    expect(slack(n)).toBe('zonewarden: no complete scan for 2 days 4 hours (max age 36 hours); last complete scan 40 at 2026-11-01T12:00:00.000Z');
    expect(slack({ ...n, lastCompleteScan: null })).toBe('zonewarden: there has been no complete scan yet (max age 36 hours)');
  });

  it('links report.md when there is no report.html, and shows the local path without a report URL', () => {
    const n = notice({ report: { dir: '/srv/zw/reports/run 7', files: ['/srv/zw/reports/run 7/report.md', '/srv/zw/reports/run 7/findings.json'] } });
    expect(slack(n).split('\n').at(-1)).toBe(`<${REPORT_URL}/run%207/report.md|report>`);
    expect(slack(n, {}, null).split('\n').at(-1)).toBe('report: /srv/zw/reports/run 7/report.md');
    expect(slack(notice({ report: null })).split('\n').at(-1)).toBe('and 12 more');
  });

  it('keeps hostile strings from the API inert: no markup, mentions, links, control or bidi characters', () => {
    const hostile = [
      finding(1, 'critical', { zone: '<!channel>.example', message: 'hi <@U1> see <https://evil.example|click> & *bold*\nnext line\r\n<script>alert(1)</script>' }),
      finding(2, 'critical', { zone: 'evil\u202eelpmaxe.com', message: '\u001b[31mred\u001b[0m <!here|here> <#C123>' }),
    ];
    const n = notice({
      newFindings: { comparedWithScan: 40, bySeverity: { critical: 2, high: 0, medium: 0, low: 0, info: 0 }, worst: hostile },
      report: { dir: '/r/<!channel>', files: ['/r/<!channel>/report.html'] },
    });
    const text = slack(n);
    const lines = text.split('\n');
    // Summary, two bullets, our own link: the newline in the message did not make a line.
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe('• *critical* rule-critical on &lt;!channel&gt;.example: hi &lt;@U1&gt; see &lt;https://evil.example|click&gt; &amp; *bold* next line &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(lines[2]).toBe('• *critical* rule-critical on evil\\u202eelpmaxe.com: \\u001b[31mred\\u001b[0m &lt;!here|here&gt; &lt;#C123&gt;');
    // The only `<` and `>` left are our own link's, whose path is percent-encoded.
    expect(text.match(/</g)).toHaveLength(1);
    expect(text.match(/>/g)).toHaveLength(1);
    expect(lines[3]).toBe(`<${REPORT_URL}/%3C!channel%3E/report.html|report>`);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
  });

  it('escapes a hostile run error, and a hostile local report path', () => {
    const n = notice({ event: 'failed', run: { ...notice().run!, outcome: 'failed', error: 'boom <!channel> & more\nsecond' }, report: { dir: '/r/<@U1>', files: [] } });
    const text = slack(n, {}, null);
    expect(text).toBe('zonewarden: run 7 failed: boom &lt;!channel&gt; &amp; more second\nreport: /r/&lt;@U1&gt;');
  });

  it('shortens long API strings to 200 characters before escaping', () => {
    const n = notice({ newFindings: { comparedWithScan: 40, bySeverity: { critical: 1, high: 0, medium: 0, low: 0, info: 0 }, worst: [finding(1, 'critical', { message: 'x'.repeat(500) })] } });
    const bullet = slack(n).split('\n')[1] ?? '';
    expect(bullet).toBe(`• *critical* rule-critical on zone1.example: ${'x'.repeat(199)}…`);
  });
});

describe('json format', () => {
  it('new findings: the document, threshold-filtered, at most 50 listed', () => {
    const doc = json(notice({ newFindings: { ...notice().newFindings!, bySeverity: { critical: 2, high: 60, medium: 25, low: 4, info: 1 }, worst: [...notice().newFindings!.worst.slice(0, 32), ...Array.from({ length: 20 }, (_, i) => finding(300 + i, 'high'))] } }));
    expect(doc.schema).toBe('zonewarden.notification/1');
    expect(doc.tool).toEqual({ name: 'zonewarden', version: PACKAGE.version });
    expect(doc.event).toBe('new-findings');
    expect(doc.summary).toBe('zonewarden: 62 new failing findings at or above high in scan 41 (2 critical, 60 high)');
    expect(doc.run).toEqual(notice().run);
    expect(doc.scan).toEqual(notice().scan);
    expect(doc.counts).toEqual({ fail: 90, waived: 2, unknown: 1, pass: 400 });
    expect(doc.newFindings?.comparedWithScan).toBe(40);
    expect(doc.newFindings?.threshold).toBe('high');
    expect(doc.newFindings?.total).toBe(62);
    expect(doc.newFindings?.bySeverity).toEqual({ critical: 2, high: 60, medium: 25, low: 4, info: 1 });
    expect(doc.newFindings?.findings).toHaveLength(50);
    expect(doc.newFindings?.findings.every((f) => f.severity === 'critical' || f.severity === 'high')).toBe(true);
    expect(doc.newFindings?.findings[0]).toEqual(finding(0, 'critical'));
    expect(doc.newFindings?.more).toBe(12);
    expect(doc.lastCompleteScan).toEqual({ id: 41, finishedAt: '2026-11-03T16:20:00.000Z' });
    expect(doc.maxAgeSeconds).toBe(129600);
    expect(doc.report).toEqual({ ...notice().report, url: `${REPORT_URL}/2026-11-03T16-00-00Z-scan-41/report.html` });
  });

  it('counts the ones not listed in "more"', () => {
    const doc = json(notice(), { minSeverity: 'critical' });
    expect(doc.newFindings).toMatchObject({ threshold: 'critical', total: 2, more: 0 });
    expect(doc.newFindings?.findings.map((f) => f.fingerprint)).toEqual(['fp0', 'fp1']);
  });

  it('failed, incomplete and stale, with no audit and no report', () => {
    const failed = json(notice({ event: 'failed', newFindings: null, counts: null, report: null, run: { ...notice().run!, outcome: 'failed', error: 'boom' } }), {}, null);
    expect(failed).toMatchObject({ event: 'failed', summary: 'zonewarden: run 7 failed: boom', newFindings: null, counts: null, report: null });

    const incomplete = json(notice({ event: 'incomplete', scan: { id: 41, status: 'incomplete', startedAt: 'x', unreadPartitions: 3 } }), {}, null);
    expect(incomplete.summary).toBe('zonewarden: scan 41 is incomplete: 3 partitions could not be read');
    expect(incomplete.report?.url).toBeNull();
    // The audit of an incomplete scan is still reported, filtered the same way.
    expect(incomplete.newFindings?.total).toBe(32);

    const stale = json(notice({ event: 'stale', run: null, scan: null, newFindings: null, counts: null, report: null, lastCompleteScan: { id: 40, finishedAt: '2026-11-03T15:45:00.000Z' } }));
    expect(stale).toMatchObject({ event: 'stale', run: null, scan: null, lastCompleteScan: { id: 40 }, maxAgeSeconds: 129600 });
    expect(stale.summary).toBe('zonewarden: no complete scan for 45 minutes (max age 36 hours); last complete scan 40 at 2026-11-03T15:45:00.000Z');
  });

  it('keeps hostile strings raw but valid JSON; only the summary is made one printable line', () => {
    const message = 'hi <!channel> & *bold*\nnext\u202e \u001b[31m <script>"quoted"</script>';
    const n = notice({
      event: 'failed',
      run: { ...notice().run!, outcome: 'failed', error: 'boom\n<!channel>\u001b[2J' },
      newFindings: { comparedWithScan: 40, bySeverity: { critical: 1, high: 0, medium: 0, low: 0, info: 0 }, worst: [finding(1, 'critical', { zone: '<@U1>\u202e', message })] },
    });
    const body = webhookBody(n, target({ format: 'json' }), { reportUrl: null }, NOW) as string;
    const doc = JSON.parse(body) as JsonDoc;
    expect(doc.newFindings?.findings[0]?.message).toBe(message);
    expect(doc.newFindings?.findings[0]?.zone).toBe('<@U1>\u202e');
    expect(doc.run).toMatchObject({ error: 'boom\n<!channel>\u001b[2J' });
    expect(doc.summary).toBe('zonewarden: run 7 failed: boom <!channel>\\u001b[2J');
    // JSON escaping keeps raw control characters out of the text on the wire.
    expect(body).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('duration', () => {
  it.each([
    [45, '45 seconds'],
    [60, '1 minute'],
    [20 * 60 + 59, '20 minutes'],
    [3600, '1 hour'],
    [36 * 3600, '36 hours'],
    [90 * 60, '1 hour 30 minutes'],
    [48 * 3600, '2 days'],
    [52 * 3600 + 1800, '2 days 4 hours'],
    [25 * 24 * 3600 + 3600, '25 days 1 hour'],
  ])('%i seconds is %s', (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });
});
