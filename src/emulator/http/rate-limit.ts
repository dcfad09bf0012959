/**
 * A sliding-window request budget, as the real API keeps per user. Going over blocks every call for a
 * whole window, which makes tripping it costly for all who share the quota.
 */
export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until the window frees a request (or the block ends). */
  resetMs: number;
}

export class RateLimiter {
  private readonly times: number[] = [];
  private head = 0;
  private blockedUntil = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  take(): RateDecision {
    if (!this.enabled) return { allowed: true, remaining: Infinity, resetMs: 0 };
    const t = this.now();
    if (t < this.blockedUntil) return { allowed: false, remaining: 0, resetMs: this.blockedUntil - t };
    while (this.head < this.times.length && this.times[this.head]! <= t - this.windowMs) this.head++;
    if (this.head > 4096 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
    const used = this.times.length - this.head;
    if (used >= this.limit) {
      this.blockedUntil = t + this.windowMs;
      return { allowed: false, remaining: 0, resetMs: this.windowMs };
    }
    this.times.push(t);
    return { allowed: true, remaining: this.limit - used - 1, resetMs: this.times[this.head]! + this.windowMs - t };
  }
}

/**
 * A budget per key, each made on its first request: per credential, as the real API keeps (the
 * vendor's rate limits page: "per user/account token"), or per client address.
 */
export class CredentialBudgets {
  private readonly limiters = new Map<string, RateLimiter>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  for(label: string): RateLimiter {
    let limiter = this.limiters.get(label);
    if (!limiter) this.limiters.set(label, (limiter = new RateLimiter(this.limit, this.windowMs)));
    return limiter;
  }
}

/** `none`: a server (or proxy) that sends no quota headers, so clients learn of the limit only from 429s. */
export type RateLimitHeaderStyle = 'modern' | 'legacy' | 'both' | 'none';

/** `Ratelimit`/`Ratelimit-Policy` (current) and `x-ratelimit-*` (older responses). */
export function rateLimitHeaders(limiter: RateLimiter, d: RateDecision, style: RateLimitHeaderStyle): Record<string, string> {
  if (!limiter.enabled || style === 'none') return {};
  const seconds = secondsUntil(d.resetMs);
  const headers: Record<string, string> = {};
  if (style === 'modern' || style === 'both') {
    headers['ratelimit'] = `"default";r=${d.remaining};t=${seconds}`;
    headers['ratelimit-policy'] = `"burst";q=${limiter.limit};w=${Math.round(limiter.windowMs / 1000)}`;
  }
  if (style === 'legacy' || style === 'both') {
    headers['x-ratelimit-limit'] = String(limiter.limit);
    headers['x-ratelimit-remaining'] = String(d.remaining);
    headers['x-ratelimit-reset'] = String(seconds);
  }
  return headers;
}

/** Whole seconds until a reset, rounded to the millisecond first so float noise never adds one. */
export function secondsUntil(ms: number): number {
  return Math.max(0, Math.ceil(Math.round(ms) / 1000));
}
