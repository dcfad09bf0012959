import type { ApiClient } from '../api/client.js';
import type { ClientSet } from '../api/client-set.js';
import type { DeclaredReads } from '../api/endpoints.js';
import type { Logger } from '../common/logger.js';
import type { ScanScope, ScanWriter } from '../snapshot/writer.js';
import type { ScanCredentials } from './credentials.js';
import type { ReadPlan } from './incremental/read-plan.js';
import type { CrawlOutcome, CrawlProgress } from './outcome.js';
import type { PartitionReader } from './partition-reads.js';
import type { PartitionBook } from './partitions.js';
import type { ResolverOptions } from './resolve/resolver.js';
import type { UnmatchedName } from './scope-match.js';
import type { CrawlTasks } from './tasks.js';

/** What a crawl is given, and the parts it is made of. */
export interface CrawlOptions {
  /** The default client (else the first mapped one): the scan's base URL. */
  client: ApiClient;
  /** A client per credential (the config file's "credentials"). */
  clients?: ClientSet;
  writer: ScanWriter;
  scope: ScanScope;
  concurrency: number;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
  /** Pause before the repair pass (default 30 s). */
  repairPauseMs?: number;
  /** The settings and objects the catalogue's rules declare (`meta.reads`); none when omitted. */
  reads?: DeclaredReads;
  /** Which zones to read in full tonight (default: every zone). */
  plan?: ReadPlan;
  /** How the scan asks DNS about the names records point at (dns_targets); nothing is asked without it. */
  resolver?: ResolverOptions;
}

export interface CrawlParts {
  readonly options: CrawlOptions;
  readonly plan: ReadPlan;
  readonly tasks: CrawlTasks;
  readonly outcome: CrawlOutcome;
  readonly credentials: ScanCredentials;
  readonly book: PartitionBook;
  readonly reader: PartitionReader;
  /** Names in --zone or --account that matched nothing these credentials see. */
  readonly unmatched: UnmatchedName[];
}
