import type { PacerStatus } from '../api/pacer.js';
import type { ClientStats } from '../api/stats.js';
import type { CrawlProgress } from '../crawler/outcome.js';
import type { ScanSummary } from '../crawler/summary.js';

/**
 * What a job is given to talk to the world (progress, warnings and summaries on stderr; the paths it wrote on
 * stdout). The CLI hands its own (CommandIO, a superset); a job never imports the CLI, whose output room draws a
 * scan's progress and writes its summary (scanDisplay).
 */
export interface JobIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether stderr is a terminal (progress bars redraw in place there). */
  stderrIsTTY?: boolean;
  /** Resolves when the user asks the process to stop (SIGINT/SIGTERM). */
  stopSignal: Promise<string>;
  /** How people see a scan: its progress while it runs, its summary after; without it, neither is shown. */
  scanDisplay?: ScanDisplay;
}

export interface ProgressOptions {
  tty: boolean;
  quiet: boolean;
  write: (text: string) => void;
  stats: () => ClientStats;
  /** The request budget's state, to say when it holds requests back and to estimate the time left. */
  budget?: () => PacerStatus;
}

/** A scan's progress being shown: `update` with each step the crawler reports, `stop` when it ends. */
export interface ProgressReporter {
  update(p: CrawlProgress): void;
  stop(): void;
}

export interface ScanDisplay {
  progress(o: ProgressOptions): ProgressReporter;
  summary(s: ScanSummary): string;
}
