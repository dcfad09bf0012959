import { describe, expect, it } from 'vitest';
import { Pacer, abortableSleep, parseRateLimitHeaders, parseRetryAfter, type PacerOptions } from '../../src/api/pacer.js';

/**
 * A fake clock whose sleeps are timers: `run` fires them in time order, moving the clock to each
 * one, and lets promise chains settle in between, so concurrent waiters see one consistent time.
 */
class FakeClock {
  t = 0;
  private timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
  private seq = 0;

  now = (): number => this.t;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: this.t + ms, seq: this.seq++, resolve: () => resolve() };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((x) => x !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });

  /** Fires timers in order until none are left. */
  async run(): Promise<void> {
    for (;;) {
      await settle();
      if (this.timers.length === 0) return;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
  }

  /** Fires timers due up to `until`, then sets the clock there. */
  async runUntil(until: number): Promise<void> {
    for (;;) {
      await settle();
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > until) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
    this.t = until;
    await settle();
  }

  get pending(): number {
    return this.timers.length;
  }
}

/** Lets every queued promise callback run. */
const settle = () => new Promise<void>((r) => setImmediate(r));

function pacerWith(options: Partial<PacerOptions> = {}) {
  const clock = new FakeClock();
  const pacer = new Pacer({ budget: 100, windowMs: 1000, concurrency: 4, now: clock.now, sleep: clock.sleep, ...options });
  return { clock, pacer };
}

/** Starts `n` acquires at once and returns the fake time each one was let through, in call order. */
async function acquireTimes(clock: FakeClock, pacer: Pacer, n: number): Promise<number[]> {
  const times: number[] = new Array(n);
  const all = Promise.all(Array.from({ length: n }, (_, i) => pacer.acquire().then(() => (times[i] = clock.t))));
  await clock.run();
  await all;
  return times;
}

function expectClose(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => expect(a, `index ${i}`).toBeCloseTo(expected[i]!, 6));
}

describe('Pacer spacing', () => {
  it('spaces requests by window/budget x 1.02', () => {
    expect(pacerWith({ budget: 100, windowMs: 1000 }).pacer.baseIntervalMs).toBeCloseTo(10.2, 9);
    expect(pacerWith({ budget: 1200, windowMs: 300_000 }).pacer.baseIntervalMs).toBeCloseTo(255, 9);
    expect(pacerWith({ budget: 1000, windowMs: 300_000 }).pacer.baseIntervalMs).toBeCloseTo(306, 9);
  });

  it('lets the first request through at once and spaces the following ones evenly', async () => {
    const { clock, pacer } = pacerWith();
    expectClose(await acquireTimes(clock, pacer, 5), [0, 10.2, 20.4, 30.6, 40.8]);
    expect(pacer.waitedMs).toBeCloseTo(10.2 + 20.4 + 30.6 + 40.8, 6);
  });

  it('spaces sequential requests made one after another', async () => {
    const { clock, pacer } = pacerWith();
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const p = pacer.acquire();
      await clock.run();
      await p;
      times.push(clock.t);
    }
    expectClose(times, [0, 10.2, 20.4, 30.6]);
  });

  it('does not burst to catch up after an idle period', async () => {
    const { clock, pacer } = pacerWith();
    await acquireTimes(clock, pacer, 2);
    clock.t = 5000;
    expectClose(await acquireTimes(clock, pacer, 3), [5000, 5010.2, 5020.4]);
  });

  it('lets a request through at once when its slot has already passed', async () => {
    const { clock, pacer } = pacerWith();
    await acquireTimes(clock, pacer, 1);
    clock.t = 7;
    // The next slot is 10.2: waits only the 3.2 left.
    expectClose(await acquireTimes(clock, pacer, 1), [10.2]);
  });

  it('never lets more than budget requests through in any window', async () => {
    const { clock, pacer } = pacerWith({ budget: 50, windowMs: 1000 });
    const times = await acquireTimes(clock, pacer, 200);
    for (let i = 0; i + 50 < times.length; i++) expect(times[i + 50]! - times[i]!).toBeGreaterThan(1000);
  });

  it('gives concurrent acquires distinct, increasing slots in call order', async () => {
    const { clock, pacer } = pacerWith();
    const times = await acquireTimes(clock, pacer, 20);
    expect(new Set(times).size).toBe(20);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeCloseTo(10.2, 6);
  });
});

describe('Pacer pause', () => {
  it('delays every waiter, including those already waiting, and keeps spacing after it', async () => {
    const { clock, pacer } = pacerWith();
    const times: number[] = [];
    const all = Promise.all([0, 1, 2].map((i) => pacer.acquire().then(() => (times[i] = clock.t))));
    await settle();
    // The first went through at 0; the other two are sleeping until 10.2 and 20.4 when a 429 arrives.
    pacer.pause(500);
    expect(pacer.pausedForMs).toBe(500);
    await clock.run();
    await all;
    expectClose(times, [0, 500, 510.2]);
  });

  it('makes new requests wait for the pause', async () => {
    const { clock, pacer } = pacerWith();
    pacer.pause(1000);
    expectClose(await acquireTimes(clock, pacer, 2), [1000, 1010.2]);
  });

  it('keeps the later of two pauses', () => {
    const { clock, pacer } = pacerWith();
    pacer.pause(1000);
    pacer.pause(200);
    expect(pacer.pausedForMs).toBe(1000);
    clock.t = 300;
    pacer.pause(2000);
    expect(pacer.pausedForMs).toBe(2000);
  });

  it('reports no pause once it has passed', () => {
    const { clock, pacer } = pacerWith();
    expect(pacer.pausedForMs).toBe(0);
    pacer.pause(100);
    clock.t = 150;
    expect(pacer.pausedForMs).toBe(0);
  });

  it('holds a waiter whose slot comes during a pause until the pause ends', async () => {
    const { clock, pacer } = pacerWith({ budget: 1, windowMs: 1000 });
    const times = new Array<number>(2);
    const all = Promise.all([0, 1].map((i) => pacer.acquire().then(() => (times[i] = clock.t))));
    // The second sleeps until 1020; a pause from 1000 to 3000 starts while it sleeps.
    await clock.runUntil(1000);
    pacer.pause(2000);
    await clock.run();
    await all;
    expectClose(times, [0, 3000]);
  });
});

describe('Pacer observe without a stated policy', () => {
  it('keeps our own spacing while plenty of the quota remains (4 x the reserve or more)', () => {
    // concurrency 4: reserve 5, "low" under 20.
    const { pacer } = pacerWith({ budget: 1200, windowMs: 300_000, concurrency: 4 });
    pacer.observe({ remaining: 1000, resetSeconds: 300 });
    expect(pacer.currentIntervalMs).toBeCloseTo(255, 9);
    pacer.observe({ remaining: 20, resetSeconds: 300 });
    expect(pacer.currentIntervalMs).toBeCloseTo(255, 9);
    expect(pacer.pausedForMs).toBe(0);
  });

  it('widens spacing as the remaining quota falls, so what is left above the reserve lasts until the reset', () => {
    const { pacer } = pacerWith({ budget: 1200, windowMs: 300_000, concurrency: 4 });
    pacer.observe({ remaining: 19, resetSeconds: 14 });
    expect(pacer.currentIntervalMs).toBe(1000);
    pacer.observe({ remaining: 15, resetSeconds: 30 });
    expect(pacer.currentIntervalMs).toBe(3000);
    pacer.observe({ remaining: 6, resetSeconds: 30 });
    expect(pacer.currentIntervalMs).toBe(30_000);
    expect(pacer.pausedForMs).toBe(0);
  });

  it('narrows again when the quota recovers', () => {
    const { pacer } = pacerWith({ budget: 1200, windowMs: 300_000, concurrency: 4 });
    pacer.observe({ remaining: 15, resetSeconds: 30 });
    expect(pacer.currentIntervalMs).toBe(3000);
    pacer.observe({ remaining: 1200, resetSeconds: 300 });
    expect(pacer.currentIntervalMs).toBeCloseTo(255, 9);
  });

  it('applies the widened spacing to the next slots', async () => {
    const { clock, pacer } = pacerWith({ budget: 100, windowMs: 1000, concurrency: 4 });
    pacer.observe({ remaining: 9, resetSeconds: 1 });
    // 1000 ms over the 4 requests above the reserve: 250 ms apart instead of 10.2.
    expectClose(await acquireTimes(clock, pacer, 3), [0, 250, 500]);
  });

  it.each<[number]>([[5], [1], [0]])('pauses everything until the reset when remaining is %i (at or under concurrency + 1)', async (remaining) => {
    const { clock, pacer } = pacerWith({ concurrency: 4 });
    pacer.observe({ remaining, resetSeconds: 30 });
    expect(pacer.pausedForMs).toBe(30_000);
    // The pause leaves the spacing alone.
    expect(pacer.currentIntervalMs).toBeCloseTo(10.2, 9);
    expectClose(await acquireTimes(clock, pacer, 2), [30_000, 30_010.2]);
  });

  it('keeps concurrency + 1 in reserve: one more than that does not pause', () => {
    const { pacer } = pacerWith({ concurrency: 8 });
    pacer.observe({ remaining: 10, resetSeconds: 20 });
    expect(pacer.pausedForMs).toBe(0);
    expect(pacer.currentIntervalMs).toBe(20_000);
    pacer.observe({ remaining: 9, resetSeconds: 20 });
    expect(pacer.pausedForMs).toBe(20_000);
  });

  it('treats a limit without a window (the legacy headers) as no stated policy', () => {
    const { pacer } = pacerWith({ concurrency: 4 });
    pacer.observe({ remaining: 5, resetSeconds: 30, limit: 1200 });
    expect(pacer.pausedForMs).toBe(30_000);
  });

  it('does not pause when the reset is now or in the past', () => {
    const { pacer } = pacerWith({ concurrency: 4 });
    pacer.observe({ remaining: 0, resetSeconds: 0 });
    expect(pacer.pausedForMs).toBe(0);
    pacer.observe({ remaining: 0, resetSeconds: -5 });
    expect(pacer.pausedForMs).toBe(0);
  });
});

describe('Pacer observe with a stated policy (limit and window)', () => {
  /** A pacer at the server's own budget that has already let `sent` requests through. */
  async function afterSending(sent: number) {
    const { clock, pacer } = pacerWith({ budget: 1200, windowMs: 300_000, concurrency: 4 });
    await acquireTimes(clock, pacer, sent);
    return { clock, pacer };
  }

  it('keeps our spacing when every request the server counted was ours', async () => {
    const { pacer } = await afterSending(10);
    pacer.observe({ remaining: 1190, resetSeconds: 300, limit: 1200, windowSeconds: 300 });
    expect(pacer.currentIntervalMs).toBeCloseTo(255, 9);
  });

  it('spaces ours over the share others leave', async () => {
    const { clock, pacer } = await afterSending(10);
    // Others made 600 of the 1,210 counted: our share is 600 per 300 s.
    pacer.observe({ remaining: 590, resetSeconds: 300, limit: 1200, windowSeconds: 300 });
    expect(pacer.currentIntervalMs).toBeCloseTo((300_000 / 600) * 1.02, 9);
    // The 10 went out 255 ms apart, so the next slot was already booked at 2,550; the ones after it use the new spacing.
    expectClose(await acquireTimes(clock, pacer, 3), [2550, 3060, 3570]);
  });

  it('pauses until the reset when the quota is spent, and spaces over a share of one', async () => {
    const { pacer } = await afterSending(10);
    pacer.observe({ remaining: 0, resetSeconds: 120, limit: 1200, windowSeconds: 300 });
    expect(pacer.pausedForMs).toBe(120_000);
    // Others used 1,190: our share is 10.
    expect(pacer.currentIntervalMs).toBeCloseTo((300_000 / 10) * 1.02, 9);
  });

  it('does not pause while some quota remains, even under the reserve', async () => {
    const { pacer } = await afterSending(10);
    pacer.observe({ remaining: 3, resetSeconds: 120, limit: 1200, windowSeconds: 300 });
    expect(pacer.pausedForMs).toBe(0);
  });

  it('counts as ours only the requests inside the window', async () => {
    const { clock, pacer } = await afterSending(10);
    clock.t += 400_000;
    // All 10 are older than 300 s: the one request counted was someone else's.
    pacer.observe({ remaining: 1199, resetSeconds: 300, limit: 1200, windowSeconds: 300 });
    expect(pacer.currentIntervalMs).toBeCloseTo((300_000 / 1199) * 1.02, 9);
  });

  it('never divides by a share under one', async () => {
    const { pacer } = pacerWith({ concurrency: 4 });
    pacer.observe({ remaining: 0, resetSeconds: 0, limit: 5, windowSeconds: 10 });
    expect(pacer.currentIntervalMs).toBeCloseTo(10_000 * 1.02, 9);
  });
});

describe('Pacer abort', () => {
  it('rejects a waiting acquire with the abort reason', async () => {
    const { clock, pacer } = pacerWith();
    await acquireTimes(clock, pacer, 1);
    const controller = new AbortController();
    const waiting = pacer.acquire(controller.signal);
    const outcome = waiting.then(
      () => 'resolved',
      (err: unknown) => err,
    );
    await settle();
    expect(clock.pending).toBe(1);
    const reason = new Error('cancelled by test');
    controller.abort(reason);
    expect(await outcome).toBe(reason);
    expect(clock.pending).toBe(0);
  });

  it('rejects an acquire waiting out a pause', async () => {
    const { pacer } = pacerWith();
    pacer.pause(10_000);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(pacer.acquire(controller.signal)).rejects.toThrow('stop');
  });

  it('rejects with the real sleep too, without waiting for the slot', async () => {
    // Real timers: the second slot is 61 s away, so only the abort can end it quickly.
    const pacer = new Pacer({ budget: 1, windowMs: 60_000, concurrency: 1 });
    await pacer.acquire();
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('gone')), 20);
    await expect(pacer.acquire(controller.signal)).rejects.toThrow('gone');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('abortableSleep', () => {
  it('resolves after the time', async () => {
    const started = Date.now();
    await abortableSleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const reason = new Error('already');
    await expect(abortableSleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('rejects when aborted while sleeping', async () => {
    const controller = new AbortController();
    const reason = new Error('later');
    setTimeout(() => controller.abort(reason), 10);
    await expect(abortableSleep(60_000, controller.signal)).rejects.toBe(reason);
  });
});

describe('parseRateLimitHeaders', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name];
  const NOW = 1_700_000_000_000;

  it('reads the modern Ratelimit header with the policy quota', () => {
    expect(parseRateLimitHeaders(headers({ ratelimit: '"default";r=50;t=30', 'ratelimit-policy': '"burst";q=1200;w=300' }), NOW)).toEqual({
      remaining: 50,
      resetSeconds: 30,
      limit: 1200,
      windowSeconds: 300,
    });
  });

  it.each<[string, Record<string, string>, object]>([
    ['without a policy', { ratelimit: '"default";r=0;t=299' }, { remaining: 0, resetSeconds: 299 }],
    ['with spaces after the semicolons', { ratelimit: '"default"; r=7; t=12' }, { remaining: 7, resetSeconds: 12 }],
    ['with t before r', { ratelimit: '"default";t=5;r=9' }, { remaining: 9, resetSeconds: 5 }],
    ['with a policy without q', { ratelimit: '"default";r=1;t=2', 'ratelimit-policy': '"burst";w=300' }, { remaining: 1, resetSeconds: 2, windowSeconds: 300 }],
    ['with a policy without w', { ratelimit: '"default";r=1;t=2', 'ratelimit-policy': '"burst";q=10' }, { remaining: 1, resetSeconds: 2, limit: 10 }],
  ])('reads the modern form %s', (_what, h, expected) => {
    expect(parseRateLimitHeaders(headers(h), NOW)).toEqual(expected);
  });

  it('reads the legacy form with the reset in seconds', () => {
    expect(parseRateLimitHeaders(headers({ 'x-ratelimit-remaining': '49', 'x-ratelimit-reset': '300', 'x-ratelimit-limit': '50' }), NOW)).toEqual({
      remaining: 49,
      resetSeconds: 300,
      limit: 50,
    });
  });

  it('reads the legacy form with the reset as an epoch time, relative to now', () => {
    expect(parseRateLimitHeaders(headers({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(NOW / 1000 + 45) }), NOW)).toEqual({
      remaining: 10,
      resetSeconds: 45,
    });
  });

  it('gives 0 seconds for an epoch reset already past', () => {
    expect(parseRateLimitHeaders(headers({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(NOW / 1000 - 45) }), NOW)).toEqual({
      remaining: 10,
      resetSeconds: 0,
    });
  });

  it('ignores a legacy limit that is not a number', () => {
    expect(parseRateLimitHeaders(headers({ 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '2', 'x-ratelimit-limit': 'lots' }), NOW)).toEqual({
      remaining: 1,
      resetSeconds: 2,
    });
  });

  it('prefers the modern form when both are present', () => {
    expect(
      parseRateLimitHeaders(headers({ ratelimit: '"default";r=5;t=6', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '99' }), NOW),
    ).toEqual({ remaining: 5, resetSeconds: 6 });
  });

  it('falls back to the legacy form when the modern one is unreadable', () => {
    expect(parseRateLimitHeaders(headers({ ratelimit: 'garbage', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '4' }), NOW)).toEqual({
      remaining: 3,
      resetSeconds: 4,
    });
  });

  it.each<[string, Record<string, string>]>([
    ['no headers', {}],
    ['garbage Ratelimit', { ratelimit: 'lots left' }],
    ['Ratelimit without t', { ratelimit: '"default";r=5' }],
    ['Ratelimit without r', { ratelimit: '"default";t=5' }],
    ['negative r', { ratelimit: '"default";r=-5;t=5' }],
    ['remaining without reset', { 'x-ratelimit-remaining': '5' }],
    ['reset without remaining', { 'x-ratelimit-reset': '5' }],
    ['non-numeric remaining', { 'x-ratelimit-remaining': 'five', 'x-ratelimit-reset': '5' }],
    ['fractional reset', { 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '1.5' }],
    ['empty legacy values', { 'x-ratelimit-remaining': '', 'x-ratelimit-reset': '' }],
  ])('gives null for %s', (_what, h) => {
    expect(parseRateLimitHeaders(headers(h), NOW)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  const NOW = Date.UTC(2024, 0, 15, 12, 0, 0);

  it.each<[string, number]>([
    ['120', 120_000],
    ['0', 0],
    ['1.5', 1500],
    [' 30 ', 30_000],
  ])('reads %j seconds as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter('Mon, 15 Jan 2024 12:05:00 GMT', NOW)).toBe(300_000);
  });

  it('gives 0 for an HTTP date already past', () => {
    expect(parseRetryAfter('Mon, 15 Jan 2024 11:00:00 GMT', NOW)).toBe(0);
  });

  it.each<[string | undefined]>([[undefined], [''], ['soon'], ['5 minutes'], ['1e3'], ['0x10']])('gives null for %j', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeNull();
  });
});

describe('Pacer under late timers', () => {
  it('never sends waiters woken together as a burst: starts stay most of an interval apart', async () => {
    // The event loop is blocked until t = 1000 (a large page write): every timer due before then
    // fires at once when it frees.
    const clock = new FakeClock();
    const lateSleep = (ms: number, signal?: AbortSignal) => clock.sleep(Math.max(ms, 1000 - clock.t), signal);
    const pacer = new Pacer({ budget: 10, windowMs: 1000, concurrency: 8, now: clock.now, sleep: lateSleep });
    const starts: number[] = [];
    const waiters = Array.from({ length: 6 }, () => pacer.acquire().then(() => starts.push(clock.now())));
    await clock.run();
    await Promise.all(waiters);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(starts).toHaveLength(6);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(pacer.baseIntervalMs * 0.9 - 1e-9);
  });
});
