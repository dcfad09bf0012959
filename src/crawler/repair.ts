import { ApiAbortedError, ApiAuthError, ApiError } from '../api/errors.js';
import { abortableSleep } from '../api/pacer.js';
import type { Logger } from '../common/logger.js';
import type { CrawlOutcome } from './outcome.js';
import type { CrawlTasks } from './tasks.js';

const REPAIR_PAUSE_MS = 30_000;

/**
 * The repair pass: a read that still fails after the client's retries in a way that may pass (5xx,
 * timeouts, resets, malformed answers) is not recorded yet; it is read once more at the end of the
 * scan, after a pause, so that a short outage can pass. What fails again there is final, and counted.
 */
export class RepairPass {
  private todo: Array<() => Promise<void>> = [];
  private running = false;
  /** Reads of the repair pass that failed again: the ones it did not recover. */
  private failedAgain = 0;

  constructor(
    private readonly tasks: CrawlTasks,
    private readonly outcome: CrawlOutcome,
    private readonly logger: Logger,
    /** The client's retries: with none asked for, nothing is read again either. */
    private readonly retries: number,
    private readonly pauseMs = REPAIR_PAUSE_MS,
  ) {}

  defer(err: unknown, redo: () => Promise<unknown>): boolean {
    if (this.retries === 0) return false;
    if (!(err instanceof ApiError) || !err.retryable || err instanceof ApiAuthError || err.code === 'ZW_API_ABORTED') return false;
    if (this.running) {
      this.failedAgain++;
      return false;
    }
    this.todo.push(async () => void (await redo()));
    this.logger.debug(`${err.route}: failed after ${err.attempts} attempts, to be read again at the end of the scan: ${err.message}`);
    return true;
  }

  async run(): Promise<void> {
    const todo = this.todo;
    this.todo = [];
    if (todo.length === 0) return;
    this.logger.info(`${todo.length} ${todo.length === 1 ? 'read' : 'reads'} failed after their retries: reading ${todo.length === 1 ? 'it' : 'them'} again in ${Math.round(this.pauseMs / 1000)} s`);
    const { progress, result } = this.outcome;
    progress.repairing = todo.length;
    this.outcome.report();
    try {
      await abortableSleep(this.pauseMs, this.tasks.signal);
    } catch {
      throw new ApiAbortedError('the repair pass');
    }
    this.running = true;
    const limit = this.tasks.limitOf();
    for (const redo of todo) this.tasks.track(limit(redo));
    await this.tasks.settle();
    result.repairs.attempted = todo.length;
    result.repairs.recovered = Math.max(0, todo.length - this.failedAgain);
    progress.repairing = 0;
    this.outcome.report();
  }
}
