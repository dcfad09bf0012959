import { describe, expect, it } from 'vitest';
import { PER_SECOND_LIMIT, Pacer, abortableSleep, parseRateLimitHeaders, parseRetryAfter, type PacerOptions } from '../../src/api/pacer.js';

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
  const pacer = new Pacer({ budget: 100, windowMs: 1000, concurrency: 4, perSecond: 0, now: clock.now, sleep: clock.sleep, ...options });
  return { clock, pacer };
}

/**
 * Sends `n` requests at once through the pacer, each answered `latencyMs` after it starts (fake
 * time), and returns when each started and ended, in call order.
 */
async function send(clock: FakeClock, pacer: Pacer, n: number, latencyMs = 0): Promise<{ starts: number[]; ends: number[] }> {
  const starts: number[] = new Array(n);
  const ends: number[] = new Array(n);
  const all = Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const ticket = await pacer.acquire();
      starts[i] = clock.t;
      if (latencyMs > 0) await clock.sleep(latencyMs);
      ends[i] = clock.t;
      ticket.release();
    }),
  );
  await clock.run();
  await all;
  return { starts, ends };
}

/** Start times of `n` requests sent at once and answered at once. */
async function acquireTimes(clock: FakeClock, pacer: Pacer, n: number): Promise<number[]> {
  return (await send(clock, pacer, n)).starts;
}

function expectClose(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => expect(a, `index ${i}`).toBeCloseTo(expected[i]!, 6));
}

/** The most of `starts` inside any window of `windowMs` that counts each from its start to its end plus the window. */
function mostInAnyWindow(starts: number[], ends: number[], windowMs: number): number {
  let most = 0;
  for (const t of starts) {
    const inside = starts.filter((s, i) => s <= t && ends[i]! + windowMs > t).length;
    most = Math.max(most, inside);
  }
  return most;
}

describe('Pacer sliding window', () => {
  it('lets requests through at once while the window has room: no spacing', async () => {
    const { clock, pacer } = pacerWith({ budget: 100, windowMs: 1000 });
    expectClose(await acquireTimes(clock, pacer, 5), [0, 0, 0, 0, 0]);
    expect(pacer.waitedMs).toBe(0);
  });

  it('sends the next requests as the earlier ones leave the window, never more than the budget in it', async () => {
    const { clock, pacer } = pacerWith({ budget: 3, windowMs: 1000 });
    // Each leaves the window a window after its answer (at once here).
    expectClose(await acquireTimes(clock, pacer, 7), [0, 0, 0, 1000, 1000, 1000, 2000]);
  });

  it('counts a request until a window after its answer, so the server (which counts it on arrival) never sees more', async () => {
    const { clock, pacer } = pacerWith({ budget: 50, windowMs: 1000 });
    const { starts, ends } = await send(clock, pacer, 200, 37);
    expect(mostInAnyWindow(starts, ends, 1000)).toBe(50);
    // Sorted by start, the 51st after any request starts only a window after that one's answer.
    const order = starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]!);
    for (let i = 0; i + 50 < order.length; i++) expect(starts[order[i + 50]!]! - ends[order[i]!]!).toBeGreaterThanOrEqual(1000);
  });

  it('finishes work the budget holds in the time its latency takes', async () => {
    const { clock, pacer } = pacerWith({ budget: 1000, windowMs: 300_000 });
    const { ends } = await send(clock, pacer, 300, 20);
    expect(Math.max(...ends)).toBe(20);
  });

  it('waits for a request in flight when the window is full of requests in flight', async () => {
    const { clock, pacer } = pacerWith({ budget: 2, windowMs: 1000 });
    const first = await pacer.acquire();
    await pacer.acquire();
    let startedAt = -1;
    const third = pacer.acquire().then((t) => (startedAt = clock.t) && t);
    await clock.runUntil(50);
    expect(startedAt).toBe(-1);
    first.release();
    await clock.run();
    await third;
    // Released at 50: it leaves the window at 1050.
    expect(startedAt).toBe(1050);
  });

  it('releases a ticket once, however often it is called', async () => {
    const { clock, pacer } = pacerWith({ budget: 2, windowMs: 1000 });
    const ticket = await pacer.acquire();
    ticket.release();
    ticket.release();
    expect(pacer.status().used).toBe(1);
    clock.t = 1000;
    expect(pacer.status().used).toBe(0);
  });

  it('keeps to the API\'s requests per second from one address as well', async () => {
    const { clock, pacer } = pacerWith({ budget: 1_000_000, windowMs: 300_000, perSecond: 200 });
    const starts = await acquireTimes(clock, pacer, 250);
    expect(starts.filter((t) => t === 0)).toHaveLength(200);
    expect(starts.filter((t) => t === 1000)).toHaveLength(50);
  });

  it('keeps the 200 a second of the API unless told otherwise', () => {
    expect(PER_SECOND_LIMIT).toBe(200);
  });
});

describe('Pacer status, for the progress line', () => {
  it('says how much of the window is used and how many requests the budget holds back', async () => {
    const { clock, pacer } = pacerWith({ budget: 2, windowMs: 300_000 });
    const inFlight = await pacer.acquire();
    (await pacer.acquire()).release();
    const waiting = [pacer.acquire(), pacer.acquire()];
    await settle();
    expect(pacer.status()).toEqual({ used: 2, allowed: 2, windowMs: 300_000, heldBack: 2 });
    inFlight.release();
    await clock.run();
    await Promise.all(waiting);
    expect(pacer.status().heldBack).toBe(0);
  });

  it('does not count requests held by the per-second limit as held back by the budget', async () => {
    const { pacer } = pacerWith({ budget: 1000, windowMs: 300_000, perSecond: 1 });
    (await pacer.acquire()).release();
    const next = pacer.acquire();
    await settle();
    expect(pacer.status().heldBack).toBe(0);
    void next;
  });
});

describe('Pacer pause', () => {
  it('delays every waiter, including those already waiting', async () => {
    const { clock, pacer } = pacerWith({ budget: 1, windowMs: 100 });
    const times: number[] = [];
    const all = Promise.all([0, 1, 2].map((i) => pacer.acquire().then((t) => ((times[i] = clock.t), t.release()))));
    await settle();
    // The first went through at 0; the others wait for the window when a 429 arrives.
    pacer.pause(500);
    expect(pacer.pausedForMs).toBe(500);
    await clock.run();
    await all;
    expectClose(times, [0, 500, 600]);
  });

  it('makes new requests wait for the pause', async () => {
    const { clock, pacer } = pacerWith();
    pacer.pause(1000);
    expectClose(await acquireTimes(clock, pacer, 2), [1000, 1000]);
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

  it('counts requests waiting out a pause as held back', async () => {
    const { pacer } = pacerWith();
    pacer.pause(10_000);
    const waiting = pacer.acquire();
    await settle();
    expect(pacer.status().heldBack).toBe(1);
    void waiting;
  });
});

describe('Pacer observe without a stated policy', () => {
  it('widens spacing as the remaining quota falls, so what is left above the reserve lasts until the reset', async () => {
    const { clock, pacer } = pacerWith({ budget: 100, windowMs: 1000, concurrency: 4 });
    pacer.observe({ remaining: 9, resetSeconds: 1 });
    // concurrency 4: reserve 5; 1000 ms over the 4 requests above it: 250 ms apart.
    expectClose(await acquireTimes(clock, pacer, 3), [0, 250, 500]);
  });

  it('counts requests spaced for a low remaining quota as held back by the budget', async () => {
    const { pacer } = pacerWith({ budget: 100, windowMs: 1000, concurrency: 4 });
    pacer.observe({ remaining: 9, resetSeconds: 1 });
    (await pacer.acquire()).release();
    const next = pacer.acquire();
    await settle();
    expect(pacer.status().heldBack).toBe(1);
    void next;
  });

  it('sends at once again when plenty of the quota remains (4 x the reserve or more)', async () => {
    const { clock, pacer } = pacerWith({ budget: 100, windowMs: 1000, concurrency: 4 });
    pacer.observe({ remaining: 9, resetSeconds: 1 });
    pacer.observe({ remaining: 20, resetSeconds: 1 });
    expectClose(await acquireTimes(clock, pacer, 3), [0, 0, 0]);
  });

  it.each<[number]>([[5], [1], [0]])('pauses everything until the reset when remaining is %i (at or under concurrency + 1)', async (remaining) => {
    const { clock, pacer } = pacerWith({ concurrency: 4 });
    pacer.observe({ remaining, resetSeconds: 30 });
    expect(pacer.pausedForMs).toBe(30_000);
    expectClose(await acquireTimes(clock, pacer, 2), [30_000, 30_000]);
  });

  it('keeps concurrency + 1 in reserve: one more than that does not pause', () => {
    const { pacer } = pacerWith({ concurrency: 8 });
    pacer.observe({ remaining: 10, resetSeconds: 20 });
    expect(pacer.pausedForMs).toBe(0);
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
  /** A pacer at the server's own budget that has sent (and had answered) `sent` requests at time 0. */
  async function afterSending(sent: number) {
    const { clock, pacer } = pacerWith({ budget: 1200, windowMs: 300_000, concurrency: 4 });
    await acquireTimes(clock, pacer, sent);
    clock.t = 1;
    return { clock, pacer };
  }

  it('leaves the budget alone when every request the server counted was ours', async () => {
    const { pacer } = await afterSending(10);
    pacer.observe({ remaining: 1190, resetSeconds: 300, limit: 1200, windowSeconds: 300 }, 1);
    // Less the one kept in reserve for others' requests on their way.
    expect(pacer.status()).toMatchObject({ used: 10, allowed: 1199 });
  });

  it('gives ours what others leave of the server\'s quota, and holds the rest back', async () => {
    const { clock, pacer } = await afterSending(10);
    // Others made 600 of the 610 counted: ours may be 599 in the window, 10 of which are used.
    pacer.observe({ remaining: 590, resetSeconds: 300, limit: 1200, windowSeconds: 300 }, 1);
    expect(pacer.status()).toMatchObject({ used: 10, allowed: 599 });
    const starts = await acquireTimes(clock, pacer, 590);
    expect(starts.filter((t) => t === 1)).toHaveLength(589);
    // The last waits until the first of ours leaves the server's window.
    expect(Math.max(...starts)).toBe(300_000);
  });

  it('counts as ours only the requests the server had surely counted: those answered before the observed one started', async () => {
    const { pacer } = await afterSending(10);
    // The observed request started at 0, before the 10 were answered: for all we know, the 10
    // counted were others', so ours get 1,200 - 10 - 1.
    pacer.observe({ remaining: 1190, resetSeconds: 300, limit: 1200, windowSeconds: 300 }, 0);
    expect(pacer.status().allowed).toBe(1189);
  });

  it('counts as ours only the requests inside the server\'s window', async () => {
    const { clock, pacer } = await afterSending(10);
    clock.t += 400_000;
    // All 10 are older than 300 s: the one request counted was someone else's.
    pacer.observe({ remaining: 1199, resetSeconds: 300, limit: 1200, windowSeconds: 300 });
    expect(pacer.status()).toMatchObject({ used: 0, allowed: 1198 });
  });

  it('pauses until the reset when the quota is spent', async () => {
    const { pacer } = await afterSending(10);
    pacer.observe({ remaining: 0, resetSeconds: 120, limit: 1200, windowSeconds: 300 }, 1);
    expect(pacer.pausedForMs).toBe(120_000);
    // Others used 1,190: ours may be 9 in the window (and already are 10).
    expect(pacer.status().allowed).toBe(9);
  });

  it('never gives ours a share under one', () => {
    const { pacer } = pacerWith({ budget: 5, windowMs: 10_000, concurrency: 4 });
    pacer.observe({ remaining: 0, resetSeconds: 0, limit: 5, windowSeconds: 10 });
    expect(pacer.status().allowed).toBe(1);
  });

  it('keeps our budget when it is the smaller', async () => {
    const { pacer } = pacerWith({ budget: 100, windowMs: 300_000 });
    pacer.observe({ remaining: 1200, resetSeconds: 300, limit: 1200, windowSeconds: 300 });
    expect(pacer.status().allowed).toBe(100);
  });
});

describe('Pacer abort', () => {
  it('rejects a waiting acquire with the abort reason', async () => {
    const { clock, pacer } = pacerWith({ budget: 1 });
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
    // Real timers: the second slot is a minute away, so only the abort can end it quickly.
    const pacer = new Pacer({ budget: 1, windowMs: 60_000, concurrency: 1 });
    (await pacer.acquire()).release();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('gone')), 20);
    // The abort's own reason: the sleep ended by the abort, not by the slot (which would acquire).
    await expect(pacer.acquire(controller.signal)).rejects.toThrow('gone');
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
