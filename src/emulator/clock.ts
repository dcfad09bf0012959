/**
 * The emulator's clock: from `--now` it moves with real time (a frozen one only when advanced, by the
 * night control). Dataset times are resolved against `start`, so expiry cases are stable.
 */
export interface EmulatorClock {
  readonly start: Date;
  now(): Date;
  iso(): string;
  /** Moves the clock forward by `ms` (never back), as if that much time had passed at once. */
  advance(ms: number): void;
}

export function createClock(start: Date = new Date(), frozen = false): EmulatorClock {
  const startedAt = performance.now();
  const startMs = start.getTime();
  let skipped = 0;
  const now = () => new Date(startMs + skipped + (frozen ? 0 : Math.floor(performance.now() - startedAt)));
  return {
    start: new Date(startMs),
    now,
    iso: () => formatApiTime(now()),
    advance: (ms) => {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`the emulator clock only moves forward; got ${ms} ms`);
      skipped += ms;
    },
  };
}

/** RFC 3339 with microseconds and a trailing Z, as the API writes timestamps. */
export function formatApiTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const RELATIVE = /^now((?:[+-](?:\d+(?:\.\d+)?[dhms])+)*)$/;
/** A signed run of amounts: `-3d`, `+5d12h` (the sign applies to every amount of the run). */
const SIGNED_RUN = /([+-])((?:\d+(?:\.\d+)?[dhms])+)/g;
const AMOUNT = /(\d+(?:\.\d+)?)([dhms])/g;
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Resolves a dataset time (`now`, `now-3d`, `now+5d12h`, or RFC 3339) against `now`.
 * Returns null for strings that are neither, so the loader can name the bad field.
 */
export function resolveTime(value: string, now: Date): Date | null {
  const rel = RELATIVE.exec(value);
  if (rel) {
    let ms = now.getTime();
    for (const [, sign, run] of rel[1]!.matchAll(SIGNED_RUN)) {
      for (const [, amount, unit] of run!.matchAll(AMOUNT)) ms += (sign === '-' ? -1 : 1) * Number(amount) * UNIT_MS[unit!]!;
    }
    return new Date(ms);
  }
  if (!RFC3339.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
