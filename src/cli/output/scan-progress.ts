import type { PacerStatus } from '../../api/pacer.js';
import type { ClientStats } from '../../api/stats.js';
import type { CrawlProgress } from '../../crawler/outcome.js';
import type { ProgressOptions, ProgressReporter } from '../../jobs/job-io.js';

/**
 * Progress of a scan on stderr: a bar redrawn in place on a terminal, a plain line now and then
 * otherwise (logs and CI), nothing with --quiet.
 */

const BAR = 24;

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** `5 min`, `30 s`, `1 h`: a budget window as people say it. */
function formatWindow(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s % 3600 === 0) return `${s / 3600} h`;
  if (s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Time left: the zones left at the pace so far, or, when the budget is the limit, the windows it
 * takes to let the requests those zones need through (requests per zone so far), whichever is later.
 */
function timeLeft(p: CrawlProgress, stats: ClientStats, elapsedMs: number, budget: PacerStatus | undefined): number {
  const zonesLeft = p.zonesKnown - p.zonesDone;
  const byPace = (elapsedMs / p.zonesDone) * zonesLeft;
  if (!budget || budget.allowed <= 0) return byPace;
  const requestsLeft = (stats.total.requests / p.zonesDone) * zonesLeft;
  const freeNow = Math.max(0, budget.allowed - budget.used);
  const byBudget = requestsLeft > freeNow ? ((requestsLeft - freeNow) / budget.allowed) * budget.windowMs : 0;
  return Math.max(byPace, byBudget);
}

export function progressLine(p: CrawlProgress, stats: ClientStats, elapsedMs: number, bar: boolean, budget?: PacerStatus): string {
  const share = p.zonesKnown ? p.zonesDone / p.zonesKnown : 0;
  const listing = p.accountsDone < p.accountsKnown;
  const repairing = (p.repairing ?? 0) > 0;
  const eta = !listing && !repairing && p.zonesDone > 0 && p.zonesDone < p.zonesKnown ? ` · ETA ${formatDuration(timeLeft(p, stats, elapsedMs, budget))}` : '';
  const filled = Math.round(share * BAR);
  const head = bar ? `[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ` : '';
  // An incremental scan: of the zones done, how many were read in full and how many carried forward.
  const carried = (p.zonesCarried ?? 0) > 0 ? ` (${count(p.zonesRead ?? 0)} read in full, ${count(p.zonesCarried!)} carried forward)` : '';
  const zones = `${p.zonesDone}/${p.zonesKnown}${listing ? '+' : ''} zones${carried}`;
  const t = stats.total;
  // With a credential per account, one budget: the one holding the most requests back, named (never the sum of several).
  const busiest = budget?.holding;
  const waiting = !budget || budget.heldBack === 0 ? '' : busiest
    ? ` · waiting for the API budget of ${busiest.label}: ${count(busiest.used)} of ${count(busiest.allowed)} used in the last ${formatWindow(busiest.windowMs)}`
    : ` · waiting for the API budget: ${count(budget.used)} of ${count(budget.allowed)} used in the last ${formatWindow(budget.windowMs)}`;
  const again = repairing ? ` · ${count(p.repairing!)} failed ${p.repairing === 1 ? 'read' : 'reads'}: reading again after a pause` : '';
  return `${head}${zones} · ${t.requests} requests · ${t.retries} retries · ${t.rateLimited} rate limited · ${formatDuration(elapsedMs)}${eta}${waiting}${again}`;
}

/** `intervalMs`: how often a plain line is written when not on a terminal. */
export function createProgress(o: ProgressOptions & { intervalMs?: number; now?: () => number }): ProgressReporter {
  if (o.quiet) return { update: () => {}, stop: () => {} };
  const now = o.now ?? (() => performance.now());
  const started = now();
  let last: CrawlProgress = { zonesDone: 0, zonesKnown: 0, accountsDone: 0, accountsKnown: 0 };
  let lastDraw = -Infinity;
  const interval = o.tty ? 200 : (o.intervalMs ?? 10_000);
  const draw = () => {
    lastDraw = now();
    const line = progressLine(last, o.stats(), lastDraw - started, o.tty, o.budget?.());
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
