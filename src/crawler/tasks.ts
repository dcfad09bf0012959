import { setMaxListeners } from 'node:events';
import pLimit, { type LimitFunction } from 'p-limit';
import type { ApiClient } from '../api/client.js';

/**
 * The crawl's tasks: every one started is tracked until it settles, the first failure that is not
 * an API answer (a full disk, rejected credentials) stops all of them through the scan's signal,
 * and each credential has its own concurrency limit, so that one waiting for its budget holds up
 * none of the others.
 */
export class CrawlTasks {
  /** The first failure that stopped the crawl, once there is one. */
  fatal: { error: unknown } | null = null;
  /** The scan's stop: the caller's, or a fatal failure's. */
  readonly signal: AbortSignal;
  private readonly tasks: Array<Promise<void>> = [];
  private readonly stopper = new AbortController();
  private readonly limits = new Map<ApiClient, LimitFunction>();

  constructor(
    private readonly concurrency: number,
    /** The default credential's client, whose limit is also the one for work of no credential. */
    private readonly defaultClient: ApiClient,
    callerSignal?: AbortSignal,
  ) {
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.stopper.signal]) : this.stopper.signal;
    // Every request in flight listens to the stop signal: more than Node's default of 10 at high concurrency.
    setMaxListeners(Math.max(10, concurrency * 4), this.signal);
  }

  /** The concurrency limit of a credential (its client); the default credential's without one. */
  limitOf(client: ApiClient = this.defaultClient): LimitFunction {
    let limit = this.limits.get(client);
    if (!limit) this.limits.set(client, (limit = pLimit(this.concurrency)));
    return limit;
  }

  /**
   * Runs a task to its end whatever happens. The first failure stops every other task, and the
   * crawl returns only once all of them have settled: none may still be writing when the caller
   * marks the scan and closes the database. Returns the task, settled.
   */
  track(task: Promise<void>): Promise<void> {
    const settled = task.catch((error: unknown) => {
      if (this.fatal) return;
      this.fatal = { error };
      this.stopper.abort(error);
    });
    this.tasks.push(settled);
    return settled;
  }

  /** Waits for every task, including those started while it waits, until the list stops growing. */
  async settle(): Promise<void> {
    for (let i = 0; i < this.tasks.length; i++) await this.tasks[i];
  }
}
