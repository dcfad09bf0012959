import { Agent, request as undiciRequest } from 'undici';
import type { Credentials } from '../config/credentials.js';
import { silentLogger, type Logger } from '../common/logger.js';
import { PACKAGE } from '../common/package-info.js';
import type { Redact } from '../common/redact.js';
import { readAnswer, type ApiAnswer } from './envelope.js';
import { ApiAbortedError, ApiAuthError, ApiError, ApiNetworkError, ApiRateLimitError, ApiTimeoutError } from './errors.js';
import { abortableSleep, Pacer, parseRateLimitHeaders, parseRetryAfter, type Ticket } from './pacer.js';
import { PagedList, type ListOptions } from './paginate.js';
import type { PageSource, QueryValue, RequestOptions } from './request.js';
import { routeTemplate, StatsRecorder, type ClientStats } from './stats.js';

// Callers have always found the request shapes here.
export type { QueryValue, RequestOptions };

export interface ApiClientOptions {
  /** Already validated (validateBaseUrl). */
  baseUrl: string;
  credentials: Credentials;
  budget: number;
  budgetWindowMs: number;
  /** Default: the API's 200; 0 for no limit. */
  perSecond?: number;
  concurrency: number;
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** Most time one request may spend waiting between attempts. */
  maxRetryWaitMs: number;
  logger?: Logger;
  redact?: Redact;
  /** The variable(s) holding a credential that is not the default one (`ZW_TOKEN_ACME`), named when refused. */
  credentialVariables?: string;
  /** For tests of the backoff: a source of jitter. */
  random?: () => number;
  /** First backoff step (default 500 ms). */
  backoffBaseMs?: number;
}

const READS = new Set(['GET', 'HEAD']);
/** No connection was made: the host is unknown, refused it, or could not be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_NONAME']);
/** The TLS handshake failed: a certificate that does not verify, or a protocol mismatch. */
const TLS_FAILURE = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO)/;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
/** A 429 without Retry-After or a Ratelimit reset: wait a minute before trying again. */
const DEFAULT_RETRY_AFTER_MS = 60_000;

/** The one way the project talks to the API: authentication, the envelope, retries, the rate budget, counters. */
export class ApiClient implements PageSource {
  readonly pacer: Pacer;
  private readonly agent: Agent;
  private readonly stats = new StatsRecorder();
  private readonly logger: Logger;
  private readonly redact: Redact;
  private readonly random: () => number;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  /** Page sizes learnt from timeouts, by route template, so later lists start small. */
  readonly learntPerPage = new Map<string, number>();
  /** 'refused': refused before any request succeeded (a credential the API does not know, not a missing permission). */
  private credentialState: 'unused' | 'pending' | 'answered' | 'refused' = 'unused';

  constructor(readonly options: ApiClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname;
    this.pacer = new Pacer({
      budget: options.budget,
      windowMs: options.budgetWindowMs,
      concurrency: options.concurrency,
      ...(options.perSecond !== undefined ? { perSecond: options.perSecond } : {}),
    });
    this.agent = new Agent({ connections: options.concurrency + 2, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
    this.logger = options.logger ?? silentLogger;
    this.redact = options.redact ?? ((t) => t);
    this.random = options.random ?? Math.random;
    const c = options.credentials;
    this.headers = {
      accept: 'application/json',
      'user-agent': `zonewarden/${PACKAGE.version}`,
      ...(c.kind === 'token' ? { authorization: `Bearer ${c.token}` } : { 'x-auth-email': c.email, 'x-auth-key': c.key }),
    };
  }

  get credentialStanding(): 'unused' | 'pending' | 'answered' | 'refused' {
    return this.credentialState;
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    return this.request<T>('GET', path, options);
  }

  /** Every page of a list endpoint; see PagedList for the guards. */
  list<T>(path: string, options: ListOptions): PagedList<T> {
    return new PagedList<T>(this, path, options, this.logger);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const route = `${method} ${path.split('?')[0]}`;
    const template = `${method} ${routeTemplate(path)}`;
    const idempotent = READS.has(method);
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt<T>(method, path, route, template, options, idempotent);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        err.attempts = attempt;
        const retryable = err.retryable && !(err instanceof ApiTimeoutError && options.retryTimeouts === false);
        if (!retryable || attempt > this.options.retries) throw err;
        const wait = err instanceof ApiRateLimitError ? err.retryAfterMs : this.backoff(attempt);
        if (waited + wait > this.options.maxRetryWaitMs) {
          err.message = `${err.message} (gave up: the next retry would exceed --retry-wait)`;
          throw err;
        }
        waited += wait;
        this.stats.add(template, { retries: 1 });
        this.logger.debug(`${route}: ${err.code}, retry ${attempt} of ${this.options.retries} in ${(wait / 1000).toFixed(1)} s`);
        // After a 429 the pacer holds every request; other failures wait here, for this request only.
        if (!(err instanceof ApiRateLimitError)) {
          await abortableSleep(wait, options.signal).catch(() => Promise.reject(new ApiAbortedError(route)));
        }
      }
    }
  }

  /** Exponential backoff with jitter: half the step fixed, half random, so clients spread out. */
  backoff(attempt: number): number {
    const step = Math.min(BACKOFF_CAP_MS, (this.options.backoffBaseMs ?? BACKOFF_BASE_MS) * 2 ** (attempt - 1));
    return step / 2 + this.random() * (step / 2);
  }

  private url(path: string, query: Record<string, QueryValue> | undefined): string {
    const rel = path.startsWith('/') ? path : `/${path}`;
    const [pathname, existing] = rel.split('?', 2);
    const params = new URLSearchParams(existing);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      params.delete(key);
      if (Array.isArray(value)) for (const v of value) params.append(key, v);
      else params.set(key, String(value));
    }
    const qs = params.toString();
    return `${this.origin}${this.basePath}${pathname}${qs ? `?${qs}` : ''}`;
  }

  private async attempt<T>(method: string, path: string, route: string, template: string, options: RequestOptions, idempotent: boolean): Promise<ApiAnswer<T>> {
    // Everything that could throw before the request is made comes first: a ticket must always be released.
    const headers = { ...this.headers, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const url = this.url(path, options.query);
    let ticket: Ticket;
    try {
      ticket = await this.pacer.acquire(options.signal);
    } catch {
      throw new ApiAbortedError(route);
    }
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const started = performance.now();
    this.stats.add(template, { requests: 1 });
    if (this.credentialState === 'unused') this.credentialState = 'pending';
    let res: Awaited<ReturnType<typeof undiciRequest>>;
    let text: string;
    try {
      res = await undiciRequest(url, {
        dispatcher: this.agent,
        method: method as 'GET',
        headers,
        body,
        signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      text = await res.body.text();
    } catch (err) {
      this.stats.add(template, { failures: 1 });
      throw this.transportError(err, route, idempotent, options.signal);
    } finally {
      ticket.release();
    }
    const status = res.statusCode;
    const bytes = Buffer.byteLength(text);
    this.stats.add(template, { bytes });
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    this.observeServerTime(header('date'));
    const limits = parseRateLimitHeaders(header);
    if (limits) this.pacer.observe(limits, ticket.startedAt);
    let retryAfterMs = 0;
    if (status === 429) {
      retryAfterMs = parseRetryAfter(header('retry-after')) ?? (limits ? limits.resetSeconds * 1000 : DEFAULT_RETRY_AFTER_MS);
      this.pacer.pause(retryAfterMs);
      this.stats.add(template, { rateLimited: 1 });
      this.logger.warn(`rate limited by the API on ${route}: pausing every request for ${Math.ceil(retryAfterMs / 1000)} s`);
    }
    this.logger.debug(`${method} ${url.slice(this.origin.length + this.basePath.length)} ${status} ${Math.round(performance.now() - started)}ms ${bytes} B`);
    try {
      const credential = this.options.credentialVariables;
      const answer = readAnswer<T>({ route, status, body: text, retryAfterMs, redact: this.redact, idempotent, ...(credential ? { credential } : {}) });
      this.credentialState = 'answered';
      return answer;
    } catch (err) {
      this.stats.add(template, { failures: 1 });
      if (err instanceof ApiAuthError && this.credentialState !== 'answered') this.credentialState = 'refused';
      throw err;
    }
  }

  private transportError(err: unknown, route: string, idempotent: boolean, callerSignal: AbortSignal | undefined): ApiError {
    if (callerSignal?.aborted) return new ApiAbortedError(route);
    const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
    const timedOut = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || (e.name === 'AbortError' && !callerSignal?.aborted);
    if (timedOut) {
      return new ApiTimeoutError(`${route}: no answer within ${this.options.timeoutMs / 1000} s`, { route, status: null, retryable: idempotent, cause: err });
    }
    const code = e.code ?? e.cause?.code ?? 'ERROR';
    const unreachable = UNREACHABLE.has(code) || TLS_FAILURE.test(code);
    // A connection that was never made cannot have changed anything: safe to retry even a write.
    // An unknown host or a certificate that does not verify will not heal in seconds: not retried.
    const permanent = code === 'ENOTFOUND' || TLS_FAILURE.test(code);
    return new ApiNetworkError(`${route}: connection failed (${code}): ${this.redact(e.message ?? String(err))}`, {
      route,
      status: null,
      retryable: !permanent && (idempotent || unreachable),
      unreachable,
      cause: err,
    });
  }

  /** The API's clock as its last answer's Date header said, and when that was here; and as its first said. */
  private serverClock: { serverMs: number; localMs: number } | null = null;
  private firstServerClock: { serverMs: number; localMs: number } | null = null;

  private observeServerTime(date: string | undefined): void {
    const ms = date === undefined ? Number.NaN : Date.parse(date);
    if (!Number.isFinite(ms)) return;
    this.serverClock = { serverMs: ms, localMs: performance.now() };
    this.firstServerClock ??= this.serverClock;
  }

  /**
   * The API's time now, from its last answer's Date header moved on by the time passed here; this
   * machine's clock before any answer. Windows on the API's own records (the audit log) use it.
   */
  serverNow(): Date {
    const c = this.serverClock;
    return c ? new Date(c.serverMs + (performance.now() - c.localMs)) : new Date();
  }

  /**
   * The API's time at a moment of performance.now() near this client's first answer, from its Date
   * header; null before any. Only near it: that clock does not count time the machine slept.
   */
  serverTimeNearFirstAnswer(localMs: number): Date | null {
    const c = this.firstServerClock;
    return c ? new Date(c.serverMs + (localMs - c.localMs)) : null;
  }

  snapshotStats(): ClientStats {
    return this.stats.snapshot(this.pacer.waitedMs);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
