import type { ClientStats } from '../api/stats.js';
import type { CrawlProgress } from './crawl.js';

/**
 * Progress of a scan on stderr: a bar redrawn in place on a terminal, a plain line now and then
 * otherwise (logs and CI), nothing with --quiet.
 */
export interface ProgressOptions {
  tty: boolean;
  quiet: boolean;
  write: (text: string) => void;
  stats: () => ClientStats;
  /** Plain-line interval when not on a terminal. */
  intervalMs?: number;
  now?: () => number;
}

export interface ProgressReporter {
  update(p: CrawlProgress): void;
  stop(): void;
}

const BAR = 24;

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function progressLine(p: CrawlProgress, stats: ClientStats, elapsedMs: number, bar: boolean): string {
  const share = p.zonesKnown ? p.zonesDone / p.zonesKnown : 0;
  const listing = p.accountsDone < p.accountsKnown;
  const eta = !listing && p.zonesDone > 0 && p.zonesDone < p.zonesKnown ? ` · ETA ${formatDuration((elapsedMs / p.zonesDone) * (p.zonesKnown - p.zonesDone))}` : '';
  const filled = Math.round(share * BAR);
  const head = bar ? `[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ` : '';
  const zones = `${p.zonesDone}/${p.zonesKnown}${listing ? '+' : ''} zones`;
  const t = stats.total;
  return `${head}${zones} · ${t.requests} requests · ${t.retries} retries · ${t.rateLimited} rate limited · ${formatDuration(elapsedMs)}${eta}`;
}

export function createProgress(o: ProgressOptions): ProgressReporter {
  if (o.quiet) return { update: () => {}, stop: () => {} };
  const now = o.now ?? (() => performance.now());
  const started = now();
  let last: CrawlProgress = { zonesDone: 0, zonesKnown: 0, accountsDone: 0, accountsKnown: 0 };
  let lastDraw = -Infinity;
  const interval = o.tty ? 200 : (o.intervalMs ?? 10_000);
  const draw = () => {
    lastDraw = now();
    const line = progressLine(last, o.stats(), lastDraw - started, o.tty);
    o.write(o.tty ? `\r\u001b[2K${line}` : `scan: ${line}\n`);
  };
  const timer = setInterval(draw, interval);
  timer.unref();
  return {
    update(p) {
      last = p;
      if (o.tty && now() - lastDraw >= interval) draw();
    },
    stop() {
      clearInterval(timer);
      if (o.tty) o.write('\r\u001b[2K');
    },
  };
}
