import { setMaxListeners } from 'node:events';
import pLimit, { type LimitFunction } from 'p-limit';
import type { ApiClient } from '../api/client.js';
import { entryOf } from '../common/map-entry.js';

/**
 * The crawl's tasks, tracked until they settle: the first failure that is not an API answer (a full
 * disk, rejected credentials) stops all of them, and each credential has its own concurrency limit,
 * so that one waiting for its budget holds up none of the others.
 */
export class CrawlTasks {
  fatal: { error: unknown } | null = null;
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

  limitOf(client: ApiClient = this.defaultClient): LimitFunction {
    return entryOf(this.limits, client, () => pLimit(this.concurrency));
  }

  /** The task, settled: none may still be writing when the caller marks the scan and closes the database. */
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
