/**
 * One request budget for the whole process. The API allows 1,200 requests per 5 minutes per user,
 * shared with the dashboard and every other tool of that user, and going over blocks them all for
 * five minutes; so requests are spaced evenly inside our budget rather than sent in bursts, the
 * server's remaining-quota headers slow us further when others are using the quota, and a 429
 * pauses every request of the process, not only the one that got it.
 */

export interface RateLimitState {
  /** Requests left in the server's window. */
  remaining: number;
  /** Seconds until the server's window frees quota. */
  resetSeconds: number;
  /** The server's quota per window, when it says. */
  limit?: number;
  /** The server's window in seconds, when it says. */
  windowSeconds?: number;
}

export interface PacerOptions {
  /** Requests allowed per window. */
  budget: number;
  windowMs: number;
  /** Requests that may be in flight at once: the most kept in reserve when the server's quota runs low. */
  concurrency: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Spacing a little wider than window/budget keeps budget+1 requests from fitting in one window
 * of the server's count when timers fire late.
 */
const SPACING_MARGIN = 1.02;

export class Pacer {
  readonly baseIntervalMs: number;
  private nextSlot = 0;
  private pausedUntil = 0;
  private headerIntervalMs = 0;
  private lastStart = -Infinity;
  /** Start times of our recent requests, to tell our use of the server's quota from others'. */
  private readonly sent: number[] = [];
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Total time requests spent waiting for a slot, for the summary. */
  waitedMs = 0;

  constructor(private readonly options: PacerOptions) {
    this.baseIntervalMs = (options.windowMs / options.budget) * SPACING_MARGIN;
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** Waits for this request's slot. */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    for (;;) {
      const now = this.now();
      if (now < this.pausedUntil) {
        await this.wait(this.pausedUntil - now, signal);
        continue;
      }
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + Math.max(this.baseIntervalMs, this.headerIntervalMs);
      if (slot > now) await this.wait(slot - now, signal);
      // A 429 seen while this request waited pauses it too.
      const start = this.now();
      // Timers that fire late (a busy event loop) would send several waiters at once: keep
      // starts most of an interval apart, so lateness never turns into a burst. The start is
      // reserved before waiting, so waiters woken together queue up rather than wait alike.
      const at = Math.max(start, this.lastStart + this.baseIntervalMs * 0.9);
      this.lastStart = at;
      if (at > start) {
        this.nextSlot = Math.max(this.nextSlot, at + this.baseIntervalMs);
        await this.wait(at - start, signal);
      }
      if (this.now() >= this.pausedUntil) {
        this.sent.push(at);
        if (this.sent.length > 100_000) this.sent.splice(0, 50_000);
        return;
      }
    }
  }

  /** Every request waits until `ms` from now (after a 429, or when the server's quota is spent). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  get pausedForMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /**
   * Reads the server's view of the quota. When the server states its quota and window, the
   * requests it counted beyond ours were made by others sharing the quota (colleagues, the
   * dashboard, Terraform), and we space ours over what they leave. Without a stated policy we
   * can only slow down as the remaining requests run low. Either way, nothing left means waiting
   * for the window to free quota.
   */
  observe(state: RateLimitState): void {
    const resetMs = Math.max(0, state.resetSeconds) * 1000;
    if (state.limit !== undefined && state.windowSeconds !== undefined && state.windowSeconds > 0) {
      const windowMs = state.windowSeconds * 1000;
      const ours = this.sentWithin(windowMs);
      const others = Math.max(0, state.limit - state.remaining - ours);
      const ourShare = Math.max(1, state.limit - others);
      this.headerIntervalMs = (windowMs / ourShare) * SPACING_MARGIN;
      if (state.remaining === 0 && resetMs > 0) this.pause(resetMs);
      return;
    }
    const reserve = this.options.concurrency + 1;
    if (state.remaining <= reserve) {
      if (resetMs > 0) this.pause(resetMs);
      return;
    }
    this.headerIntervalMs = state.remaining < 4 * reserve ? resetMs / (state.remaining - reserve) : 0;
  }

  private sentWithin(windowMs: number): number {
    const since = this.now() - windowMs;
    let n = 0;
    for (let i = this.sent.length - 1; i >= 0 && this.sent[i]! > since; i--) n++;
    return n;
  }

  get currentIntervalMs(): number {
    return Math.max(this.baseIntervalMs, this.headerIntervalMs);
  }

  private async wait(ms: number, signal?: AbortSignal): Promise<void> {
    this.waitedMs += ms;
    await this.sleep(ms, signal);
  }
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Parses `Ratelimit: "default";r=50;t=30` (current) or `x-ratelimit-remaining` and
 * `x-ratelimit-reset` (older responses; the reset may be seconds or an epoch time).
 */
export function parseRateLimitHeaders(get: (name: string) => string | undefined, nowMs = Date.now()): RateLimitState | null {
  const modern = get('ratelimit');
  if (modern) {
    const r = /(?:^|;)\s*r=(\d+)/.exec(modern);
    const t = /(?:^|;)\s*t=(\d+)/.exec(modern);
    if (r && t) {
      const policy = get('ratelimit-policy');
      const q = policy ? /(?:^|;)\s*q=(\d+)/.exec(policy) : null;
      const w = policy ? /(?:^|;)\s*w=(\d+)/.exec(policy) : null;
      const state: RateLimitState = { remaining: Number(r[1]), resetSeconds: Number(t[1]) };
      if (q) state.limit = Number(q[1]);
      if (w) state.windowSeconds = Number(w[1]);
      return state;
    }
  }
  const remaining = get('x-ratelimit-remaining');
  const reset = get('x-ratelimit-reset');
  if (remaining !== undefined && reset !== undefined && /^\d+$/.test(remaining) && /^\d+$/.test(reset)) {
    const resetValue = Number(reset);
    const resetSeconds = resetValue > 1e9 ? Math.max(0, resetValue - nowMs / 1000) : resetValue;
    const state: RateLimitState = { remaining: Number(remaining), resetSeconds };
    const limit = get('x-ratelimit-limit');
    if (limit && /^\d+$/.test(limit)) state.limit = Number(limit);
    return state;
  }
  return null;
}

/** `Retry-After` in seconds or as an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
