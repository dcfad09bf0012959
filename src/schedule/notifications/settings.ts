import { isLoopback } from '../../api/base-url.js';
import { ConfigError } from '../../config/load.js';
import { SEVERITIES, type Severity } from '../../policy/rule.js';
import { printable } from '../../common/printable.js';
import { didYouMean } from '../../common/did-you-mean.js';
import { NOTIFICATION_EVENTS, type NotificationEvent } from './notice.js';

export interface WebhookTarget {
  /** The full URL: a secret (a Slack webhook URL is its own credential), never logged. */
  url: string;
  /** What logs and the database may show: the origin, and `/…` when the URL has a path or query. */
  label: string;
  format: 'slack' | 'json';
  minSeverity: Severity;
  on: readonly NotificationEvent[];
}

export interface NotificationSettings {
  webhooks: readonly WebhookTarget[];
  /** Where the report directories are served, without a trailing slash; null when they are not. */
  reportUrl: string | null;
  timeoutMs: number;
  retries: number;
  /** First wait before a retry; doubles per attempt. Not in the file: tests set a small one. */
  backoffMs: number;
}

const DEFAULTS = { minSeverity: 'high' as Severity, timeoutMs: 10_000, retries: 3, backoffMs: 1000 };

export const NO_NOTIFICATIONS: NotificationSettings = Object.freeze({
  webhooks: Object.freeze([]),
  reportUrl: null,
  timeoutMs: DEFAULTS.timeoutMs,
  retries: DEFAULTS.retries,
  backoffMs: DEFAULTS.backoffMs,
});

const SECTION_KEYS = ['webhooks', 'minSeverity', 'on', 'reportUrl', 'timeout', 'retries'] as const;
const WEBHOOK_KEYS = ['url', 'urlEnv', 'format', 'minSeverity', 'on'] as const;
const FORMATS = ['slack', 'json'] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The config file's `notifications` section, checked; errors never quote a URL, whose path and query are secret. */
export function notificationSettings(section: Readonly<Record<string, unknown>> | undefined, env: NodeJS.ProcessEnv, source: string): NotificationSettings {
  if (section === undefined) return NO_NOTIFICATIONS;
  const fail = (key: string, problem: string): never => {
    throw new ConfigError(`${source}: ${key}: ${problem}`);
  };
  refuseUnknown(section, SECTION_KEYS, 'notifications', fail);

  const minSeverity = section['minSeverity'] === undefined ? DEFAULTS.minSeverity : severity(section['minSeverity'], 'notifications.minSeverity', fail);
  const on = section['on'] === undefined ? NOTIFICATION_EVENTS : events(section['on'], 'notifications.on', fail);
  const timeout = section['timeout'] === undefined ? DEFAULTS.timeoutMs / 1000 : number(section['timeout'], 'notifications.timeout', 1, 120, false, fail);
  const retries = section['retries'] === undefined ? DEFAULTS.retries : number(section['retries'], 'notifications.retries', 0, 10, true, fail);
  const reportUrl = section['reportUrl'] === undefined || section['reportUrl'] === null ? null : reportBase(section['reportUrl'], fail);

  const raw = section['webhooks'] ?? [];
  if (!Array.isArray(raw)) return fail('notifications.webhooks', 'expected a list of webhooks, each {"url": ...} or {"urlEnv": ...}');
  const webhooks = raw.map((entry: unknown, i) => webhook(entry, `notifications.webhooks[${i}]`, { minSeverity, on }, env, fail));

  return Object.freeze({ webhooks: Object.freeze(webhooks), reportUrl, timeoutMs: Math.round(timeout * 1000), retries, backoffMs: DEFAULTS.backoffMs });
}

type Fail = (key: string, problem: string) => never;

function webhook(
  entry: unknown,
  key: string,
  defaults: { minSeverity: Severity; on: readonly NotificationEvent[] },
  env: NodeJS.ProcessEnv,
  fail: Fail,
): WebhookTarget {
  if (!isObject(entry)) return fail(key, 'expected an object, {"url": ...} or {"urlEnv": ...}');
  refuseUnknown(entry, WEBHOOK_KEYS, key, fail);
  const hasUrl = entry['url'] !== undefined;
  const hasEnv = entry['urlEnv'] !== undefined;
  if (hasUrl === hasEnv) return fail(key, 'give exactly one of "url" or "urlEnv" (the name of an environment variable holding the URL)');

  let url: URL;
  if (hasUrl) {
    if (typeof entry['url'] !== 'string' || entry['url'].trim() === '') return fail(`${key}.url`, 'expected a URL string');
    url = webhookUrl(entry['url'], `${key}.url`, 'the URL', fail);
  } else {
    const name = entry['urlEnv'];
    if (typeof name !== 'string' || !ENV_NAME.test(name)) return fail(`${key}.urlEnv`, `expected the name of an environment variable, got ${describe(name)}`);
    const value = env[name]?.trim();
    if (!value) return fail(`${key}.urlEnv`, `${name} is not set in the environment`);
    url = webhookUrl(value, `${key}.urlEnv`, `the URL in ${name}`, fail);
  }

  const format = entry['format'] ?? 'json';
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
    return fail(`${key}.format`, `expected "slack" or "json", got ${describe(format)}`);
  }
  return Object.freeze({
    url: url.href,
    // Two webhooks on one chat service share an origin: the position tells them apart in logs.
    label: `${key.replace(/^notifications\./, '')} ${labelOf(url)}`,
    format: format as WebhookTarget['format'],
    minSeverity: entry['minSeverity'] === undefined ? defaults.minSeverity : severity(entry['minSeverity'], `${key}.minSeverity`, fail),
    on: entry['on'] === undefined ? defaults.on : events(entry['on'], `${key}.on`, fail),
  });
}

/** https, or http where it cannot leave the machine; never credentials in the URL. */
function checkedUrl(raw: string, key: string, what: string, fail: Fail): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(key, `${what} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(key, `${what} must be https`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) return fail(key, `${what} must use https (plain http is allowed only on loopback)`);
  if (url.username || url.password) return fail(key, `${what} must not contain a user name or password`);
  return url;
}

function webhookUrl(raw: string, key: string, what: string, fail: Fail): URL {
  const url = checkedUrl(raw, key, what, fail);
  // Never sent, and only a place for a secret to end up in a log.
  if (url.hash) return fail(key, `${what} must not have a fragment (#...)`);
  return url;
}

/** The report URL is a base that report paths are appended to: no query or fragment. */
function reportBase(raw: unknown, fail: Fail): string {
  if (typeof raw !== 'string' || raw.trim() === '') return fail('notifications.reportUrl', 'expected a URL string');
  const url = checkedUrl(raw.trim(), 'notifications.reportUrl', 'the URL', fail);
  if (url.search || url.hash) return fail('notifications.reportUrl', 'the URL must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The origin is safe to show; the path and query of a webhook URL are its secret. */
export function labelOf(url: URL): string {
  return url.pathname !== '/' || url.search ? `${url.origin}/…` : url.origin;
}

function severity(raw: unknown, key: string, fail: Fail): Severity {
  if (typeof raw === 'string' && (SEVERITIES as readonly string[]).includes(raw)) return raw as Severity;
  return fail(key, `expected one of ${SEVERITIES.join(', ')}, got ${describe(raw)}`);
}

function events(raw: unknown, key: string, fail: Fail): readonly NotificationEvent[] {
  const expected = `a non-empty list of events from ${NOTIFICATION_EVENTS.join(', ')}`;
  if (!Array.isArray(raw) || raw.length === 0) return fail(key, `expected ${expected}, got ${describe(raw)}`);
  for (const [i, e] of raw.entries()) {
    if (typeof e !== 'string' || !(NOTIFICATION_EVENTS as readonly string[]).includes(e)) {
      return fail(`${key}[${i}]`, `expected one of ${NOTIFICATION_EVENTS.join(', ')}, got ${describe(e)}`);
    }
  }
  // In the canonical order, once each: the list is a set.
  return Object.freeze(NOTIFICATION_EVENTS.filter((e) => raw.includes(e)));
}

function number(raw: unknown, key: string, min: number, max: number, whole: boolean, fail: Fail): number {
  const ok = typeof raw === 'number' && Number.isFinite(raw) && raw >= min && raw <= max && (!whole || Number.isInteger(raw));
  if (!ok) return fail(key, `expected ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${describe(raw)}`);
  return raw as number;
}

function refuseUnknown(object: Readonly<Record<string, unknown>>, known: readonly string[], key: string, fail: Fail): void {
  for (const name of Object.keys(object)) {
    if (!known.includes(name)) fail(key, `unknown key ${describe(name)}; known keys: ${known.join(', ')}${didYouMean(name, known)}`);
  }
}

/** A value quoted in an error: one line, short, with no control or bidi characters. */
function describe(raw: unknown): string {
  if (typeof raw === 'string') return printable(JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw));
  if (raw === null || typeof raw !== 'object') return String(raw);
  return Array.isArray(raw) ? 'a list' : 'an object';
}
