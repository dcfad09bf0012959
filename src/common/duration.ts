/**
 * Durations as people write them in flags and config files: `36h`, `90m`, `2d`, `1d12h`, `45s`.
 * A bare number is refused, because minutes and hours are both plausible readings of `36`.
 */
const UNITS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
const DURATION = /^(?:\d+[dhms])+$/;

/** Milliseconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const compact = text.trim().toLowerCase();
  if (!DURATION.test(compact)) return null;
  let ms = 0;
  for (const [, n, unit] of compact.matchAll(/(\d+)([dhms])/g)) ms += Number(n) * UNITS[unit!]!;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}

/** At most two adjacent units, e.g. `2 days 4 hours`, `5 minutes`, `12 seconds`. */
export function formatDuration(ms: number): string {
  const units = [['day', 86_400], ['hour', 3600], ['minute', 60], ['second', 1]] as const;
  const seconds = Math.max(0, Math.round(ms / 1000));
  const first = units.findIndex(([, size]) => seconds >= size);
  if (first === -1) return '0 seconds';
  const word = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  const [name, size] = units[first]!;
  const n = Math.floor(seconds / size);
  const next = units[first + 1];
  const m = next ? Math.floor((seconds - n * size) / next[1]) : 0;
  return next && m > 0 ? `${word(n, name)} ${word(m, next[0])}` : word(n, name);
}
