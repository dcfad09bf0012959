/**
 * The incremental plan (this folder) decides what a night may leave unread: which scan it reads on
 * from, which zones are read in full (audit logs, the zone list, each zone's turn), what is due
 * although nothing was logged (stored-zone.ts), and what may be carried (permissions.ts, carry.ts).
 */
import { createHash } from 'node:crypto';
import { entryOf } from '../../common/map-entry.js';
import type { ApiClient } from '../../api/client.js';
import type { Logger } from '../../common/logger.js';
import type { Db } from '../../snapshot/db.js';
import type { ScanScope } from '../../snapshot/scope.js';
import { scanToReadOn } from '../../snapshot/scan-choice.js';
import type { ScanWriter } from '../../snapshot/writer.js';
import { accountChanges, type AccountChanges } from './audit-log.js';
import type { ZoneMode } from '../zone-item.js';
import { partitionsWhere, type DeclarableObject } from '../../cloudflare/reads.js';
import type { DeclaredReads } from '../../api/endpoints.js';
import type { Partition } from '../../snapshot/tables.js';
import { StoredScan } from './stored-zone.js';
import { storedDeclaredReads } from '../../snapshot/declared-reads.js';

export interface ReadPlanOptions {
  /** `--full` */
  full: boolean;
  /** `--full-every N` */
  fullEvery: number;
}

/** The log is kept 18 months (vendor docs: audit logs); a scan older than that cannot be vouched for. */
const LOG_RETENTION_DAYS = 540;
/** Entries can reach the log a little after the change: the window starts this long before the last scan did. */
const LOG_OVERLAP_MS = 60 * 60 * 1000;
const DAY_MS = 86_400_000;
/** A zone read in full this long short of `fullEvery` days ago is read tonight whatever the share (nights are not exactly 24 h apart). */
const TURN_SLACK_MS = 6 * 60 * 60 * 1000;

/** The entry points read only when a rule declares them; each needs the rulesets list on any plan (reads/rulesets-list.ts). */
export const DECLARED_ENTRYPOINTS = partitionsWhere((s) => s.rules === 'object' && s.api?.endsWith('/entrypoint') === true) as DeclarableObject[];

interface ZonePlan {
  mode: ZoneMode;
  why: string;
}

/**
 * Which zones a night reads in full and which only where something can have changed unlogged. A
 * night is incremental when the audit logs can vouch for the time since the last scan of the scope
 * that read every zone it listed; a zone is then read in full when its account's log names it or
 * cannot be read, when the zone list shows it new or changed, and on its turn.
 */
export class ReadPlan {
  private readonly changes = new Map<string, Promise<AccountChanges>>();
  private readonly deniedSaid = new Set<ApiClient>();
  private outlivedSaid = false;
  /** Per scan that read a partition to carry: what tonight's rules ask that it was not asked for. */
  private readonly newlySince = new Map<number, ReadonlySet<Partition>>();

  private constructor(
    readonly incremental: boolean,
    readonly why: string,
    readonly base: StoredScan | null,
    private readonly writer: ScanWriter,
    private readonly logger: Logger,
    private readonly turn: ReadonlySet<string>,
    readonly readAgain: ReadonlySet<Partition> = new Set(),
    private readonly declared: { db: Db; reads: DeclaredReads } | null = null,
    /** The zones (stored ids) the scan read on from read: its audit-log window vouches for these alone. */
    private readonly baseZones: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * Whether a partition may be carried from the scan whose read holds it: not when that scan, or the
   * one read on from, was asked for less of it than tonight's rules ask. A scan pruned since, or from
   * before scans recorded what they were asked, is taken as asked: refusing would read again every
   * zone whose data is older than `--keep` scans, each night, and the zone's turn reads it anyway.
   */
  mayCarry(partition: Partition, sourceScanId: number): boolean {
    if (this.readAgain.has(partition)) return false;
    if (!this.declared) return true;
    const declared = this.declared;
    return !entryOf(this.newlySince, sourceScanId, () => partitionsNewlyDeclared(storedDeclaredReads(declared.db, sourceScanId), declared.reads)).has(partition);
  }

  /** A plan that reads everything (write commands' rescans, tests of the crawler alone). */
  static full(writer: ScanWriter, logger: Logger, why = 'a full read'): ReadPlan {
    return new ReadPlan(false, why, null, writer, logger, new Set());
  }

  static create(db: Db, writer: ScanWriter, scope: ScanScope, options: ReadPlanOptions, declared: DeclaredReads, logger: Logger, now = new Date()): ReadPlan {
    const baseId = scanToReadOn(db, scope, writer.scanId);
    const base = baseId === null ? null : new StoredScan(db, baseId);
    const full = (why: string) => new ReadPlan(false, why, base, writer, logger, new Set());
    if (options.full) return full('--full asks for every zone to be read in full');
    if (options.fullEvery <= 1) return full('--full-every 1 reads every zone in full every night');
    if (!base) return full('there is no earlier scan of this scope to read on from (complete, or missing only parts the token was refused)');
    const age = now.getTime() - Date.parse(base.startedAt);
    if (!(age >= 0) || age > LOG_RETENTION_DAYS * DAY_MS) return full(`the last scan to read on from (${base.scanId}) is older than the audit log keeps (18 months)`);
    const baseZones = base.zoneIds();
    const turn = zonesOnTheirTurn(baseZones, writer.fullReads(), options.fullEvery, now);
    const readAgain = partitionsNewlyDeclared(storedDeclaredReads(db, base.scanId), declared);
    if (readAgain.size > 0) logger.info(`scan ${base.scanId} was not asked for ${[...readAgain].join(', ')}, which the rules need now: read for every zone tonight`);
    return new ReadPlan(true, `reading on from scan ${base.scanId} (${base.startedAt}) with the account audit logs since`, base, writer, logger, turn, readAgain, { db, reads: declared }, new Set(baseZones));
  }

  /** How to read a zone tonight; the account's audit log is read at the first zone of the account that asks. */
  async zone(client: ApiClient, zone: { id: string; account?: { id?: string } }, listChanged: boolean, signal: AbortSignal): Promise<ZonePlan> {
    if (!this.incremental) return { mode: 'full', why: this.why };
    if (listChanged) return { mode: 'full', why: 'the zone list shows it new or changed' };
    const stored = this.writer.storedId(zone.id);
    // Not read by the scan read on from: the audit log since then says nothing of what changed before.
    if (!this.baseZones.has(stored)) return { mode: 'full', why: `scan ${this.base!.scanId}, read on from, did not read it` };
    if (this.turn.has(stored)) return { mode: 'full', why: 'its turn to be read in full' };
    const accountId = zone.account?.id;
    if (typeof accountId !== 'string') return { mode: 'full', why: 'the zone names no account whose audit log could vouch for it' };
    const changes = await this.accountChanges(client, accountId, signal);
    if (changes.kind === 'all') return { mode: 'full', why: changes.why };
    if (changes.zones.has(zone.id)) return { mode: 'full', why: 'the audit log records a change' };
    return { mode: 'due-only', why: 'no change recorded since the last scan' };
  }

  private accountChanges(client: ApiClient, accountId: string, signal: AbortSignal): Promise<AccountChanges> {
    return entryOf(this.changes, accountId, () => {
      // In the API's time. The Date header counts whole seconds: a minute past it misses no entry.
      const lastStart = Date.parse(this.base!.apiStartedAt);
      const apiNow = client.serverNow().getTime();
      const since = new Date(lastStart - LOG_OVERLAP_MS);
      const before = new Date(apiNow + 60_000);
      // The age was checked by this machine's clock; the log keeps 18 months by the API's (the two can disagree).
      const tooOld = apiNow - lastStart > LOG_RETENTION_DAYS * DAY_MS;
      return tooOld
        ? Promise.resolve(this.logOutlived(accountId))
        : accountChanges(client, accountId, since, before, signal).then((changes) => this.recorded(accountId, changes, client));
    });
  }

  /** The scan read on from is older, by the API's clock, than the audit log keeps: every zone read in full (said once). */
  private logOutlived(accountId: string): AccountChanges {
    const why = `the last scan to read on from (${this.base!.scanId}) is older than the audit log keeps (18 months) by the API's clock`;
    this.writer.partition('account', accountId, 'audit_log').finish({ state: 'skipped', pages: 0, items: 0, message: why });
    if (!this.outlivedSaid) this.logger.warn(`${why}: every zone is read in full`);
    this.outlivedSaid = true;
    return { kind: 'all', why };
  }

  /** Records the log's read as the account's partition, and says why an account is read in full (a refusal once per credential). */
  private recorded(accountId: string, changes: AccountChanges, client: ApiClient): AccountChanges {
    const partition = this.writer.partition('account', accountId, 'audit_log');
    if (changes.kind === 'zones') {
      partition.finish({ state: 'ok', pages: changes.pages, items: changes.entries });
      return changes;
    }
    const e = changes.error;
    partition.finish({ state: changes.denied ? 'denied' : e ? 'failed' : 'ok', pages: 0, items: 0, httpStatus: e?.status ?? null, errorCode: e?.code ?? null, message: changes.why });
    // A refusal is said once per credential: every account it reads is refused alike.
    if (!changes.denied) this.logger.warn(`account ${accountId}: ${changes.why}; its zones are read in full`);
    else if (!this.deniedSaid.has(client)) this.logger.warn(`${changes.why}: the zones of every account it reads are read in full (refused first for account ${accountId})`);
    if (changes.denied) this.deniedSaid.add(client);
    return changes;
  }
}

/**
 * What tonight's rules need that `before` was not asked to read (a rule switched on since): read for
 * every zone, never carried, since no log entry says anything of it. A scan from before scans recorded
 * what they were asked (null) is taken as asked: reading all again after an upgrade would cost a full read.
 */
export function partitionsNewlyDeclared(before: DeclaredReads | null, tonight: DeclaredReads): Set<Partition> {
  const again = new Set<Partition>();
  if (!before) return again;
  const objects = new Set<string>(before.objects);
  for (const o of tonight.objects) if (!objects.has(o)) again.add(o as Partition);
  const settings = new Set<string>(before.settings);
  if (tonight.settings.some((s) => !settings.has(s))) again.add('zone_settings');
  // A Free zone's rulesets list is read only for a custom or rate limiting entry point (reads/rulesets-list.ts).
  if (DECLARED_ENTRYPOINTS.some((e) => again.has(e))) again.add('rulesets');
  return again;
}

/**
 * The zones (stored ids) whose turn to be read in full is tonight: a `1/fullEvery` share, longest
 * unread first (ties in a fixed order of ids, so a first full scan's share spreads over the nights),
 * and any read `fullEvery` nights ago or more, or never. The share is rounded down, plus one on as
 * many nights of each `fullEvery`-day cycle as the division leaves over (rounded up every night, an
 * organisation of fewer zones than `fullEvery` was read in full every night).
 */
export function zonesOnTheirTurn(zones: readonly string[], fullReads: ReadonlyMap<string, string>, fullEvery: number, now: Date): Set<string> {
  const order = zones
    .map((id) => ({ id, at: fullReads.get(id) ?? '', tie: createHash('sha1').update(id).digest('hex') }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.tie < b.tie ? -1 : 1));
  const day = Math.floor(now.getTime() / DAY_MS);
  const share = Math.floor(zones.length / fullEvery) + (day % fullEvery < zones.length % fullEvery ? 1 : 0);
  const due = new Set(order.slice(0, share).map((z) => z.id));
  const overdue = now.getTime() - fullEvery * DAY_MS + TURN_SLACK_MS;
  for (const z of order) if (z.at === '' || Date.parse(z.at) <= overdue) due.add(z.id);
  return due;
}
