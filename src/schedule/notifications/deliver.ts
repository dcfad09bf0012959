import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { parseRetryAfter } from '../../api/pacer.js';
import { PACKAGE } from '../../common/package-info.js';
import type { NotificationEvent } from './notice.js';
import { plainText } from './payload.js';
import type { WebhookTarget } from './settings.js';

/** The outcome of one notification to one target: what the job logs and records. */
export interface Delivery {
  /** The target's label, never its URL. */
  target: string;
  event: NotificationEvent;
  ok: boolean;
  attempts: number;
  /** The last HTTP status; null when no answer came. */
  status: number | null;
  /** One line naming the label, for a failure; null when delivered. */
  error: string | null;
}

export interface DeliverOptions {
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  backoffMs: number;
  sleep?: (ms: number) => Promise<void>;
  /** The longest a Retry-After is honoured for (default 60 s). */
  maxRetryAfterMs?: number;
}

const BACKOFF_CAP_MS = 30_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
/** Enough of an error answer to say why (Slack answers `invalid_payload`, `no_service`, ...). */
const MAX_ANSWER_BYTES = 4096;
const MAX_ANSWER_SHOWN = 100;

interface Attempt {
  status: number | null;
  retryable: boolean;
  retryAfterMs: number | null;
  error: string | null;
}

/** POSTs one body, retrying what may pass (network, timeout, 408, 429, 5xx); never throws or shows the URL. */
export async function deliver(target: WebhookTarget, event: NotificationEvent, body: string, options: DeliverOptions): Promise<Delivery> {
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  // One agent per delivery, destroyed at the end: no keep-alive socket outlives the call.
  const agent = new Agent({ connect: { timeout: options.timeoutMs } });
  let attempts = 0;
  let last: Attempt = { status: null, retryable: false, retryAfterMs: null, error: `${target.label}: not attempted` };
  try {
    for (;;) {
      attempts++;
      last = await attempt(agent, target, body, options.timeoutMs);
      if (last.error === null || !last.retryable || attempts > options.retries) break;
      const wait = last.retryAfterMs !== null ? Math.min(last.retryAfterMs, maxRetryAfterMs) : Math.min(options.backoffMs * 2 ** (attempts - 1), BACKOFF_CAP_MS);
      await sleep(wait);
    }
  } catch (err) {
    last = { ...last, error: `${target.label}: ${scrub(err instanceof Error ? err.message : String(err), target)}` };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
  const error = last.error === null ? null : attempts > 1 ? `${last.error} (${attempts} attempts)` : last.error;
  return { target: target.label, event, ok: error === null, attempts, status: last.status, error };
}

async function attempt(agent: Agent, target: WebhookTarget, body: string, timeoutMs: number): Promise<Attempt> {
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(target.url, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': `${PACKAGE.name}/${PACKAGE.version}` },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // headersTimeout alone does not bound a connect that hangs or an answer that trickles in.
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    return { status: null, retryable: true, retryAfterMs: null, error: transportError(err, target, timeoutMs) };
  }
  const status = res.statusCode;
  // Read (some of) the answer whatever it is, so the connection is never left half-read; once the
  // status is known, a failure to read the rest changes nothing.
  const answer = await readSome(res.body).catch(() => '');
  if (status >= 200 && status < 300) return { status, retryable: false, retryAfterMs: null, error: null };
  const header = res.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header);
  const retryable = status === 408 || status === 429 || status >= 500;
  const redirect = status >= 300 && status < 400 ? '; redirects are not followed' : '';
  const said = answer.trim() === '' ? '' : `: ${plainText(scrub(answer, target)).slice(0, MAX_ANSWER_SHOWN)}`;
  return { status, retryable, retryAfterMs: retryable ? retryAfterMs : null, error: `${target.label}: HTTP ${status}${said}${redirect}` };
}

async function readSome(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    // Leaving the loop destroys the stream; the agent is destroyed after the delivery anyway.
    if (size >= MAX_ANSWER_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

function transportError(err: unknown, target: WebhookTarget, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `${target.label}: no answer within ${timeoutMs / 1000} s`;
  }
  const message = e.message || e.cause?.message || '';
  const detail = message && message !== code ? `: ${plainText(scrub(message, target))}` : '';
  return `${target.label}: connection failed (${code ?? e.name ?? 'error'})${detail}`;
}

/** Text that may quote the URL, with it replaced by the label and its path and query removed. */
function scrub(text: string, target: WebhookTarget): string {
  const url = new URL(target.url);
  const secrets = [target.url, `${url.origin}${url.pathname}`, url.pathname + url.search, url.search, url.pathname]
    .flatMap((s) => [s, safeDecode(s)])
    .filter((s) => s.length > 1)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(secret.startsWith(url.origin) ? target.label : '/…');
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
