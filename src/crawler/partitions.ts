import { ApiAuthError, ApiError, ApiGoneError } from '../api/errors.js';
import { partitionsWhere, readDeclarationOf, type ReadPartition } from '../cloudflare/reads.js';
import type { ListSummary } from '../api/paginate.js';
import type { Logger } from '../common/logger.js';
import type { Partition, PartitionKind } from '../snapshot/tables.js';
import type { PartitionWriter, ScanWriter } from '../snapshot/writer.js';
import { ACCOUNT_OWNED_TOKEN, type ScanCredentials } from './credentials.js';
import type { PermissionStandings } from './incremental/permissions.js';
import { listProblem } from './list-problem.js';
import type { CrawlOutcome } from './outcome.js';
import type { RepairPass } from './repair.js';
import type { ZoneItem } from './zone-item.js';

/**
 * The scan's account of its partitions: each one's writer (kept open while its read waits for the
 * repair pass), and each outcome, by which the scan's completeness is judged.
 */
export class PartitionBook {
  private readonly awaitingRepair = new Map<string, PartitionWriter>();
  private readonly retiredPartitions = new Map<string, { status: number | null; message: string }>();

  constructor(
    private readonly writer: ScanWriter,
    private readonly outcome: CrawlOutcome,
    private readonly credentials: ScanCredentials,
    private readonly repair: RepairPass,
    private readonly permissions: PermissionStandings,
    private readonly logger: Logger,
  ) {}

  /** The partition's writer: the one a deferred read left open, or a new one. */
  partition(kind: PartitionKind, scopeId: string, partition: Partition): PartitionWriter {
    const key = `${kind}\u0000${partitionKey(scopeId, partition)}`;
    const open = this.awaitingRepair.get(key);
    this.awaitingRepair.delete(key);
    return open ?? this.writer.partition(kind, scopeId, partition);
  }

  /**
   * Holds a read that failed after its retries for the repair pass, when the failure may pass; the
   * partition stays open until then. A failure of the first calls may end the scan instead.
   */
  deferred(err: unknown, partition: PartitionWriter | null, redo: () => Promise<unknown>): boolean {
    this.credentials.stopIfFirst(err);
    if (!this.repair.defer(err, redo)) return false;
    if (partition) this.awaitingRepair.set(`${partition.kind}\u0000${partitionKey(partition.scopeId, partition.partition)}`, partition);
    return true;
  }

  /** Finishes a list's partition, failed and missing when the list is not whole (listProblem); the problem, or null. */
  finishList(writer: PartitionWriter, s: ListSummary, name: string | null): string | null {
    const problem = listProblem(s);
    writer.finish({ state: problem ? 'failed' : 'ok', pages: s.pages, items: s.items, truncated: s.truncated, message: problem });
    if (problem) this.missing(writer.kind, writer.scopeId, name, writer.partition, 'failed', problem);
    return problem;
  }

  /** A part read tonight was answered: of a zone, its credential holds the permission group of it. */
  answered(kind: PartitionKind, scopeId: string, partition: Partition): void {
    this.credentials.anyReadSucceeded = true;
    if (kind === 'zone') this.permissions.observe(this.credentials.clientOfZone(scopeId), partition, { granted: true });
  }

  failed(partition: PartitionWriter, err: unknown, pages: number, items: number, name: string | null): void {
    if (!(err instanceof ApiError) || err.code === 'ZW_API_ABORTED') throw err;
    this.credentials.stopIfFirst(err);
    const apiCode = err.firstCode;
    if (err instanceof ApiGoneError) {
      const message = retiredReason(err);
      partition.finish({ state: 'retired', pages, items, httpStatus: err.status, apiCode, errorCode: err.code, message });
      this.retiredPartitions.set(partitionKey(partition.scopeId, partition.partition), { status: err.status, message });
      this.missing(partition.kind, partition.scopeId, name, partition.partition, 'retired', message, 'retired');
      return;
    }
    // Token kinds that may not read invites (an account-owned token) answer 1001 as well as 401/403.
    const refused = err instanceof ApiAuthError || (partition.partition === 'invites' && err.hasCode(ACCOUNT_OWNED_TOKEN));
    const state = refused ? 'denied' : 'failed';
    // Whether the zone's part could be read before: only then is its refusal a permission lost (incremental/permissions.ts).
    const before = refused && partition.kind === 'zone' ? partition.previousState() : null;
    partition.finish({ state, pages, items, httpStatus: err.status, apiCode, errorCode: err.code, message: err.message });
    if (refused && partition.kind === 'zone') {
      this.permissions.observe(this.credentials.clientOfZone(partition.scopeId), partition.partition, { refused: err, what: `${err.route}${name ? ` of ${name}` : ''}`, readBefore: before === 'ok' });
    }
    this.missing(partition.kind, partition.scopeId, name, partition.partition, state, err.message, state === 'denied' ? refusedList(partition.partition) : 'missing');
  }

  /** A zone's part recorded denied without a read, as its read would have been (`err`: the refusal that says so). */
  denied(zone: ZoneItem, partition: Partition, err: ApiError, message: string): void {
    this.partition('zone', zone.id, partition).finish({ state: 'denied', pages: 0, items: 0, httpStatus: err.status, apiCode: err.firstCode, errorCode: err.code, message });
    this.missing('zone', zone.id, zone.name, partition, 'denied', message, refusedList(partition));
  }

  missing(kind: PartitionKind, scopeId: string, name: string | null, partition: Partition, state: string, reason: string, list: 'missing' | 'notPermitted' | 'retired' = 'missing'): void {
    this.outcome.result[list].push({ kind, scopeId, name, endpoint: partition, state, reason });
    this.logger.debug(`could not read ${partition} of ${name ?? (scopeId || 'the user')}: ${reason}`);
  }

  /** Records a partition as not read, for a reason that makes it pointless (not a gap). */
  skip(zone: ZoneItem, partition: Partition, why: string): void {
    this.partition('zone', zone.id, partition).finish({ state: 'skipped', pages: 0, items: 0, message: why });
    this.outcome.result.skipped++;
  }

  /** Set when a part answered as retired this scan: what lives under it went with it. */
  retired(scopeId: string, partition: Partition): { status: number | null; message: string } | undefined {
    return this.retiredPartitions.get(partitionKey(scopeId, partition));
  }
}

/** A partition's key among a scan's partitions: its scope's id and its endpoint. */
export const partitionKey = (scopeId: string, partition: Partition): string => `${scopeId}\u0000${partition}`;

function retiredReason(err: ApiGoneError): string {
  const said = err.apiErrors.map((e) => e.message).join('; ');
  return `the API retired this endpoint (HTTP ${err.status ?? '?'}${said ? `: ${said}` : ''}); the data it served no longer exists there`;
}

/** Partitions whose refusal leaves the scan complete: the user's invites (an account-owned token may not read them), and optional zone reads. */
const OPTIONAL_PARTITIONS: ReadonlySet<Partition> = new Set<Partition>([
  'invites',
  ...partitionsWhere((s) => s.read?.optional === true).flatMap((p) => readDeclarationOf(p as ReadPartition).partitions),
]);

const refusedList = (partition: Partition) => (OPTIONAL_PARTITIONS.has(partition) ? 'notPermitted' : 'missing');
