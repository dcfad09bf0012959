/**
 * One request budget for the whole process, as sliding windows: at most `budget` of ours in any
 * `windowMs`, never more than the server's stated quota leaves after others sharing it (the API
 * allows 1,200 requests per 5 minutes per user, shared with the dashboard and every other tool, and
 * going over blocks them all for five minutes), and at most the API's 200 a second from one address.
 * A 429 pauses every request of the process. A request counts in a window from its start until its
 * answer plus the window: the server counts it in between, so our count is never below the server's.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** What the server says of its window: requests left, seconds until it frees quota, and its quota and length when stated. */
export interface RateLimitState {
  remaining: number;
  resetSeconds: number;
  limit?: number;
  windowSeconds?: number;
}

export interface PacerOptions {
  budget: number;
  windowMs: number;
  /** Also the most kept in reserve when the server's quota runs low without a stated policy. */
  concurrency: number;
  /** Requests per second from one address (the API's 200); 0 for none. */
  perSecond?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The API's limit of requests per second from one address. */
export const PER_SECOND_LIMIT = 200;
/** Requests kept back from the share the server's quota leaves us, for others' requests on their way. */
const SHARE_RESERVE = 1;
/** The longest a timer may be set for; waiting "until a request finishes" is that, cut short by the release. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A request let through; `release` when its answer arrived (or it failed), so it leaves the windows in time. */
export interface Ticket {
  readonly startedAt: number;
  release(): void;
}

/** What the pacer is doing, for the progress line. */
export interface PacerStatus {
  /** Ours in the last window, in flight included. */
  used: number;
  /** The budget, or less when the server's quota leaves us less. */
  allowed: number;
  windowMs: number;
  /** Requests held back by the budget, the server's quota or a 429. */
  heldBack: number;
  /** With a credential per account: the one holding the most requests back, with its own budget. */
  holding?: { label: string; used: number; allowed: number; windowMs: number };
}

type Sent = { start: number; end: number };
type Limit = { limit: number; windowMs: number };

export class Pacer {
  /** Finished requests, in the order they finished, as long as the longest window may count them. */
  private readonly done: Sent[] = [];
  private head = 0;
  private inFlight = 0;
  private pausedUntil = 0;
  /** From a stated policy: how many of ours the server's window can take, and that window. */
  private serverShare: Limit | null = null;
  /** Without a stated policy: spacing to make a low remaining quota last until its reset. */
  private headerIntervalMs = 0;
  private lastStart = -Infinity;
  private readonly wakers = new Set<() => void>();
  private heldBack = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Total time requests spent waiting for a slot, for the summary. */
  waitedMs = 0;

  constructor(private readonly options: PacerOptions) {
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** Waits until a request may start; the ticket's release must be called when its answer arrives. */
  async acquire(signal?: AbortSignal): Promise<Ticket> {
    if (signal?.aborted) throw signal.reason;
    let waitingOnBudget = false;
    try {
      for (;;) {
        const now = this.now();
        const { delay, budget } = this.delay(now);
        if (delay <= 0) break;
        if (budget !== waitingOnBudget) {
          this.heldBack += budget ? 1 : -1;
          waitingOnBudget = budget;
        }
        await this.wait(delay, signal);
      }
    } finally {
      if (waitingOnBudget) this.heldBack--;
    }
    const startedAt = this.now();
    this.lastStart = startedAt;
    this.inFlight++;
    let released = false;
    return {
      startedAt,
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.done.push({ start: startedAt, end: this.now() });
        for (const wake of [...this.wakers]) wake();
      },
    };
  }

  /** How long a request must wait from `now`, and whether the budget or a pause is what holds it. */
  private delay(now: number): { delay: number; budget: boolean } {
    if (now < this.pausedUntil) return { delay: this.pausedUntil - now, budget: true };
    this.forget(now);
    let budgetDelay = Math.max(this.windowDelay(now, { limit: this.options.budget, windowMs: this.options.windowMs }), this.lastStart + this.headerIntervalMs - now);
    if (this.serverShare) budgetDelay = Math.max(budgetDelay, this.windowDelay(now, this.serverShare));
    const perSecond = this.options.perSecond ?? PER_SECOND_LIMIT;
    const other = perSecond > 0 ? this.windowDelay(now, { limit: perSecond, windowMs: 1000 }) : 0;
    return { delay: Math.max(budgetDelay, other), budget: budgetDelay > 0 && budgetDelay >= other };
  }

  /** 0 when one more request fits in the window; else until enough of ours leave it (Infinity: until one finishes). */
  private windowDelay(now: number, { limit, windowMs }: Limit): number {
    const first = this.firstEndAfter(now - windowMs);
    const inWindow = this.done.length - first;
    const excess = this.inFlight + inWindow - Math.max(1, limit) + 1;
    if (excess <= 0) return 0;
    if (excess > inWindow) return Infinity;
    return this.done[first + excess - 1]!.end + windowMs - now;
  }

  /** Index of the first finished request that ended after `t` (ends are in order). */
  private firstEndAfter(t: number): number {
    let lo = this.head;
    let hi = this.done.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.done[mid]!.end > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Drops what no window counts any more. */
  private forget(now: number): void {
    const longest = Math.max(this.options.windowMs, this.serverShare?.windowMs ?? 0, 1000);
    this.head = this.firstEndAfter(now - longest);
    if (this.head > 4096 && this.head * 2 > this.done.length) {
      this.done.splice(0, this.head);
      this.head = 0;
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
   * The server's view of the quota, from the answer to a request started at `startedAt`. With a
   * stated quota and window, what it counted beyond ours was others' (colleagues, the dashboard,
   * Terraform), and ours get what they leave; ours it surely counted started inside its window and
   * finished before this request started, so others can look busier than they are, never less.
   * Without a stated policy we slow down as the remaining requests run low.
   */
  observe(state: RateLimitState, startedAt = this.now()): void {
    const resetMs = Math.max(0, state.resetSeconds) * 1000;
    if (state.limit !== undefined && state.windowSeconds !== undefined && state.windowSeconds > 0) {
      const windowMs = state.windowSeconds * 1000;
      const since = this.now() - windowMs;
      let counted = 0;
      for (let i = this.firstEndAfter(since); i < this.done.length && this.done[i]!.end < startedAt; i++) {
        if (this.done[i]!.start > since) counted++;
      }
      const others = Math.max(0, state.limit - state.remaining - counted);
      this.serverShare = { limit: Math.max(1, state.limit - others - SHARE_RESERVE), windowMs };
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

  /** For the progress line: how much of the window we used, and how many requests it holds back. */
  status(): PacerStatus {
    const now = this.now();
    const share = this.serverShare && this.serverShare.windowMs === this.options.windowMs ? this.serverShare.limit : Infinity;
    return {
      used: this.inFlight + this.done.length - this.firstEndAfter(now - this.options.windowMs),
      allowed: Math.min(this.options.budget, share),
      windowMs: this.options.windowMs,
      heldBack: this.heldBack,
    };
  }

  /** Sleeps up to `ms`, or until a request finishes and may have freed a slot. */
  private async wait(ms: number, signal?: AbortSignal): Promise<void> {
    const started = this.now();
    const woken = new AbortController();
    const wake = () => woken.abort();
    this.wakers.add(wake);
    try {
      await this.sleep(Math.min(ms, MAX_TIMER_MS), signal ? AbortSignal.any([signal, woken.signal]) : woken.signal);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (!woken.signal.aborted) throw err;
    } finally {
      this.wakers.delete(wake);
      this.waitedMs += this.now() - started;
    }
  }
}

/** Rejects with the signal's reason when it aborts (node's timer rejects with an AbortError of its own). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, undefined, signal ? { signal } : {}).catch((err: unknown) => Promise.reject(signal?.aborted ? signal.reason : err));
}

/** `Ratelimit: "default";r=50;t=30`, or the older `x-ratelimit-remaining` and `-reset` (seconds or an epoch time). */
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
