import { describe, expect, it } from 'vitest';
import { RateLimiter, secondsUntil } from '../../src/emulator/http/rate-limit.js';

/** The sliding window on a fake clock, so its edges can be checked to the millisecond. */
describe('RateLimiter', () => {
  function limiter(limit: number, windowMs: number) {
    let now = 1000;
    const l = new RateLimiter(limit, windowMs, () => now);
    return { l, advance: (ms: number) => (now += ms) };
  }

  it('allows the limit within a window and reports what remains and when the oldest request leaves', () => {
    const { l, advance } = limiter(3, 1000);
    expect(l.take()).toEqual({ allowed: true, remaining: 2, resetMs: 1000 });
    advance(400);
    expect(l.take()).toMatchObject({ allowed: true, remaining: 1 });
    expect(l.take().resetMs).toBeCloseTo(600, 6);
  });

  it('blocks for a whole window once the limit is passed, even after old requests leave', () => {
    const { l, advance } = limiter(2, 1000);
    l.take();
    l.take();
    expect(l.take()).toEqual({ allowed: false, remaining: 0, resetMs: 1000 });
    advance(999);
    expect(l.take().allowed).toBe(false);
    advance(2);
    expect(l.take()).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('slides: a request leaves the window exactly one window after it was made', () => {
    const { l, advance } = limiter(2, 1000);
    l.take();
    advance(500);
    l.take();
    advance(500);
    expect(l.take()).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('is disabled by a limit of 0', () => {
    const { l } = limiter(0, 1000);
    for (let i = 0; i < 100; i++) expect(l.take().allowed).toBe(true);
    expect(l.enabled).toBe(false);
  });

  it('rounds reset times to whole seconds without float noise', () => {
    expect(secondsUntil(2000.0000000002)).toBe(2);
    expect(secondsUntil(2000.6)).toBe(3);
    expect(secondsUntil(-5)).toBe(0);
  });
});
