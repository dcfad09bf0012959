import { deliver, type Delivery } from './deliver.js';
import type { RunNotice } from './notice.js';
import { webhookBody } from './payload.js';
import type { NotificationSettings, WebhookTarget } from './settings.js';

export interface NotifyOptions {
  /** The redactor built from the environment's credentials. */
  redact: (text: string) => string;
  sleep?: (ms: number) => Promise<void>;
  maxRetryAfterMs?: number;
  /** The time a staleness notice measures from (default: now). */
  now?: Date;
}

/** Sends every notice to every target that wants it (targets in parallel, each in order); never throws. */
export async function notify(settings: NotificationSettings, notices: readonly RunNotice[], options: NotifyOptions): Promise<Delivery[]> {
  const perTarget = await Promise.all(settings.webhooks.map((target) => notifyTarget(target, notices, settings, options)));
  return notices.flatMap((_, i) => perTarget.flatMap((deliveries) => deliveries[i] ?? []));
}

async function notifyTarget(target: WebhookTarget, notices: readonly RunNotice[], settings: NotificationSettings, options: NotifyOptions): Promise<Array<Delivery | null>> {
  const out: Array<Delivery | null> = [];
  for (const notice of notices) {
    try {
      // Redacted before building as well as after: Slack escaping (`&` → `&amp;`) and shortening
      // could otherwise turn a credential into a form the redactor no longer recognises.
      const body = webhookBody(redactStrings(notice, options.redact), target, settings, options.now);
      out.push(
        body === null
          ? null
          : await deliver(target, notice.event, options.redact(body), {
              timeoutMs: settings.timeoutMs,
              retries: settings.retries,
              backoffMs: settings.backoffMs,
              sleep: options.sleep,
              maxRetryAfterMs: options.maxRetryAfterMs,
            }),
      );
    } catch (err) {
      out.push({ target: target.label, event: notice.event, ok: false, attempts: 0, status: null, error: `${target.label}: could not build the notification: ${safeMessage(err, options.redact)}` });
    }
  }
  return out;
}

/** A copy of the notice with every string in it redacted. */
function redactStrings(notice: RunNotice, redact: (text: string) => string): RunNotice {
  // The event is ours and steers which targets hear of it: never rewritten.
  return { ...(deepMap(notice, redact) as RunNotice), event: notice.event };
}

function deepMap(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => deepMap(v, redact));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepMap(v, redact)]));
  return value;
}

function safeMessage(err: unknown, redact: (text: string) => string): string {
  try {
    return redact((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '');
  } catch {
    return 'an unexpected error';
  }
}
