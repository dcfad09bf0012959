import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/load.js';
import { NO_NOTIFICATIONS, notificationSettings } from '../../../src/schedule/notifications/settings.js';

const SOURCE = 'config file /etc/zw.json';
const SLACK = 'https://hooks.slack.com/services/T000/B000/XyZsecret';
const ALL_EVENTS = ['new-findings', 'failed', 'incomplete', 'stale'];

function error(section: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): string {
  try {
    notificationSettings(section, env, SOURCE);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message.startsWith(`${SOURCE}: notifications`)).toBe(true);
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('notification settings', () => {
  it('has no webhooks without a section', () => {
    expect(notificationSettings(undefined, {}, SOURCE)).toBe(NO_NOTIFICATIONS);
    expect(NO_NOTIFICATIONS).toEqual({ webhooks: [], reportUrl: null, timeoutMs: 10_000, retries: 3, backoffMs: 1000 });
  });

  it('fills in the defaults', () => {
    const s = notificationSettings({ webhooks: [{ url: SLACK }] }, {}, SOURCE);
    expect(s).toEqual({
      webhooks: [{ url: SLACK, label: 'webhooks[0] https://hooks.slack.com/…', format: 'json', minSeverity: 'high', on: ALL_EVENTS }],
      reportUrl: null,
      timeoutMs: 10_000,
      retries: 3,
      backoffMs: 1000,
    });
    expect(notificationSettings({}, {}, SOURCE).webhooks).toEqual([]);
  });

  it('reads the documented example, webhooks inheriting the section defaults', () => {
    const s = notificationSettings(
      {
        webhooks: [
          { url: SLACK, format: 'slack', minSeverity: 'critical', on: ['new-findings'] },
          { urlEnv: 'ZONEWARDEN_WEBHOOK_URL', format: 'json' },
        ],
        minSeverity: 'medium',
        on: ['stale', 'failed', 'failed'],
        reportUrl: 'https://reports.example.com/zonewarden/',
        timeout: 2.5,
        retries: 0,
      },
      { ZONEWARDEN_WEBHOOK_URL: ' http://127.0.0.1:8080/hook?key=abc ' },
      SOURCE,
    );
    expect(s.webhooks).toEqual([
      { url: SLACK, label: 'webhooks[0] https://hooks.slack.com/…', format: 'slack', minSeverity: 'critical', on: ['new-findings'] },
      { url: 'http://127.0.0.1:8080/hook?key=abc', label: 'webhooks[1] http://127.0.0.1:8080/…', format: 'json', minSeverity: 'medium', on: ['failed', 'stale'] },
    ]);
    expect(s.reportUrl).toBe('https://reports.example.com/zonewarden');
    expect(s.timeoutMs).toBe(2500);
    expect(s.retries).toBe(0);
  });

  it('labels a URL by its position and origin, adding /… only when there is a path or query', () => {
    const labels = (url: string) => notificationSettings({ webhooks: [{ url }] }, {}, SOURCE).webhooks[0]?.label.replace(/^webhooks\[0\] /, '');
    expect(notificationSettings({ webhooks: [{ url: 'https://a.example/x' }, { url: 'https://a.example/y' }] }, {}, SOURCE).webhooks.map((w) => w.label)).toEqual([
      'webhooks[0] https://a.example/…',
      'webhooks[1] https://a.example/…',
    ]);
    expect(labels('https://chat.example.com')).toBe('https://chat.example.com');
    expect(labels('https://chat.example.com:8443/')).toBe('https://chat.example.com:8443');
    expect(labels('https://chat.example.com/?token=t0ps3cret')).toBe('https://chat.example.com/…');
    expect(labels('https://chat.example.com/hooks/abc123')).toBe('https://chat.example.com/…');
    expect(labels('http://localhost:3000/x')).toBe('http://localhost:3000/…');
    expect(labels('http://[::1]:3000/x')).toBe('http://[::1]:3000/…');
  });

  it('allows plain http only on loopback', () => {
    for (const url of ['http://127.0.0.1/h', 'http://localhost:9/h', 'http://[::1]/h', 'http://hooks.localhost/h']) {
      expect(notificationSettings({ webhooks: [{ url }] }, {}, SOURCE).webhooks[0]?.url).toBe(url);
    }
    expect(error({ webhooks: [{ url: 'http://hooks.example.com/services/s3cret' }] })).toBe(
      `${SOURCE}: notifications.webhooks[0].url: the URL must use https (plain http is allowed only on loopback)`,
    );
    expect(error({ webhooks: [{ url: 'http://10.0.0.1/s3cret' }] })).toContain('notifications.webhooks[0].url: the URL must use https');
  });

  it('refuses bad URLs naming the key, never quoting the secret path or query', () => {
    const cases: Array<[unknown, string]> = [
      ['ftp://hooks.example.com/s3cret?q=s3cret', 'notifications.webhooks[0].url: the URL must be https'],
      ['not a url /s3cret', 'notifications.webhooks[0].url: the URL is not a URL'],
      ['https://user:pa55@hooks.example.com/s3cret', 'notifications.webhooks[0].url: the URL must not contain a user name or password'],
      ['https://hooks.example.com/s3cret#s3cret', 'notifications.webhooks[0].url: the URL must not have a fragment (#...)'],
      ['', 'notifications.webhooks[0].url: expected a URL string'],
      [42, 'notifications.webhooks[0].url: expected a URL string'],
    ];
    for (const [url, expected] of cases) {
      const message = error({ webhooks: [{ url }] });
      expect(message).toBe(`${SOURCE}: ${expected}`);
      expect(message).not.toContain('s3cret');
      expect(message).not.toContain('pa55');
    }
  });

  it('reads urlEnv from the environment, and says when it is unset or bad without quoting it', () => {
    const webhooks = [{ url: SLACK }, { urlEnv: 'ZONEWARDEN_WEBHOOK_URL' }];
    expect(error({ webhooks })).toBe(`${SOURCE}: notifications.webhooks[1].urlEnv: ZONEWARDEN_WEBHOOK_URL is not set in the environment`);
    expect(error({ webhooks }, { ZONEWARDEN_WEBHOOK_URL: '  ' })).toBe(`${SOURCE}: notifications.webhooks[1].urlEnv: ZONEWARDEN_WEBHOOK_URL is not set in the environment`);
    const bad = error({ webhooks }, { ZONEWARDEN_WEBHOOK_URL: 'http://hooks.example.com/s3cret' });
    expect(bad).toBe(`${SOURCE}: notifications.webhooks[1].urlEnv: the URL in ZONEWARDEN_WEBHOOK_URL must use https (plain http is allowed only on loopback)`);
    expect(error({ webhooks: [{ urlEnv: 'NOT A NAME' }] })).toBe(`${SOURCE}: notifications.webhooks[0].urlEnv: expected the name of an environment variable, got "NOT A NAME"`);
    const ok = notificationSettings({ webhooks }, { ZONEWARDEN_WEBHOOK_URL: 'https://chat.example.com/hooks/xyz' }, SOURCE);
    expect(ok.webhooks[1]?.url).toBe('https://chat.example.com/hooks/xyz');
  });

  it('wants exactly one of url and urlEnv', () => {
    const expected = `${SOURCE}: notifications.webhooks[0]: give exactly one of "url" or "urlEnv" (the name of an environment variable holding the URL)`;
    expect(error({ webhooks: [{ url: SLACK, urlEnv: 'X' }] }, { X: SLACK })).toBe(expected);
    expect(error({ webhooks: [{ format: 'slack' }] })).toBe(expected);
  });

  it('names the key of every bad value', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ webhooks: [{ url: SLACK, format: 'teams' }] }, 'notifications.webhooks[0].format: expected "slack" or "json", got "teams"'],
      [{ webhooks: [{ url: SLACK }, { url: SLACK, minSeverity: 'urgent' }] }, 'notifications.webhooks[1].minSeverity: expected one of critical, high, medium, low, info, got "urgent"'],
      [{ webhooks: [{ url: SLACK, on: ['failed', 'exploded'] }] }, 'notifications.webhooks[0].on[1]: expected one of new-findings, failed, incomplete, stale, got "exploded"'],
      [{ webhooks: [{ url: SLACK, on: [] }] }, 'notifications.webhooks[0].on: expected a non-empty list of events from new-findings, failed, incomplete, stale, got a list'],
      [{ webhooks: [{ url: SLACK, on: 'failed' }] }, 'notifications.webhooks[0].on: expected a non-empty list of events from new-findings, failed, incomplete, stale, got "failed"'],
      [{ minSeverity: 3 }, 'notifications.minSeverity: expected one of critical, high, medium, low, info, got 3'],
      [{ on: {} }, 'notifications.on: expected a non-empty list of events from new-findings, failed, incomplete, stale, got an object'],
      [{ timeout: 0 }, 'notifications.timeout: expected a number from 1 to 120, got 0'],
      [{ timeout: 121 }, 'notifications.timeout: expected a number from 1 to 120, got 121'],
      [{ timeout: '10' }, 'notifications.timeout: expected a number from 1 to 120, got "10"'],
      [{ retries: 11 }, 'notifications.retries: expected a whole number from 0 to 10, got 11'],
      [{ retries: 1.5 }, 'notifications.retries: expected a whole number from 0 to 10, got 1.5'],
      [{ retries: -1 }, 'notifications.retries: expected a whole number from 0 to 10, got -1'],
      [{ webhooks: { url: SLACK } }, 'notifications.webhooks: expected a list of webhooks, each {"url": ...} or {"urlEnv": ...}'],
      [{ webhooks: ['https://x.example'] }, 'notifications.webhooks[0]: expected an object, {"url": ...} or {"urlEnv": ...}'],
      [{ reportUrl: 'http://reports.example.com' }, 'notifications.reportUrl: the URL must use https (plain http is allowed only on loopback)'],
      [{ reportUrl: 'https://reports.example.com/r?x=1' }, 'notifications.reportUrl: the URL must not have a query or fragment'],
      [{ reportUrl: 5 }, 'notifications.reportUrl: expected a URL string'],
    ];
    for (const [section, expected] of cases) expect(error(section)).toBe(`${SOURCE}: ${expected}`);
  });

  it('refuses unknown keys, listing the known ones', () => {
    expect(error({ webhook: [] })).toBe(`${SOURCE}: notifications: unknown key "webhook"; known keys: webhooks, minSeverity, on, reportUrl, timeout, retries (did you mean "webhooks"?)`);
    expect(error({ webhooks: [{ url: SLACK, channel: '#sec' }] })).toBe(
      `${SOURCE}: notifications.webhooks[0]: unknown key "channel"; known keys: url, urlEnv, format, minSeverity, on`,
    );
    // Own keys only: a prototype name is as unknown as any other.
    expect(error(JSON.parse('{"__proto__": {}}') as Record<string, unknown>)).toContain('unknown key "__proto__"');
  });

  // issue 32 item 7 ("did you mean"): a name one edit from a known one suggests it; an unrelated name gets no guess.
  it('suggests the key a one-letter typo was meant to be, and nothing for an unrelated key', () => {
    expect(error({ minSeverty: 'high' })).toBe(
      `${SOURCE}: notifications: unknown key "minSeverty"; known keys: webhooks, minSeverity, on, reportUrl, timeout, retries (did you mean "minSeverity"?)`,
    );
    expect(error({ channel: '#sec' })).not.toContain('did you mean');
  });

  it('keeps quoted values to one printable line', () => {
    const message = error({ webhooks: [{ url: SLACK, format: 'sl\u202eack\n\u001b[2J' }] });
    expect(message).toBe(`${SOURCE}: notifications.webhooks[0].format: expected "slack" or "json", got "sl\\u202eack\\n\\u001b[2J"`);
  });
});
