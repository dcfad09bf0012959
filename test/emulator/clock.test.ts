import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/emulator/clock.js';

const START = new Date('2026-11-01T11:00:00.000Z');
const tick = () => new Promise((r) => setTimeout(r, 30));

describe('the emulator clock', () => {
  it('moves with real time from its start, and jumps when advanced', async () => {
    const clock = createClock(START);
    await tick();
    expect(clock.now().getTime()).toBeGreaterThan(START.getTime());
    clock.advance(86_400_000);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(START.getTime() + 86_400_000);
    expect(clock.start).toEqual(START);
  });

  it('frozen, stands still however long requests take, and moves only when advanced', async () => {
    const clock = createClock(START, true);
    await tick();
    expect(clock.now()).toEqual(START);
    clock.advance(86_400_000);
    expect(clock.now()).toEqual(new Date(START.getTime() + 86_400_000));
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});
