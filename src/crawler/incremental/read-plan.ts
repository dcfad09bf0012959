/**
 * The incremental plan (this folder, src/crawler/incremental/) decides what a night may leave
 * unread: whether the scan reads on from an earlier one, and which (read-plan.ts); which zones are
 * read in full and which only where due, from the account audit logs (audit-log.ts), the zone list
 * (listing-change.ts) and each zone's turn (read-plan.ts); what the stored scan says is due although
 * nothing was logged (stored-zone.ts); and whether a zone's part may be carried forward instead of
 * read: not when tonight's rules ask more of it than its read was asked, nor when its credential
 * was refused the part's permission tonight (permissions.ts, carry.ts). The crawler asks it and
 * reads what it says; its own requests are the audit logs and the permission probes.
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
import type { ZoneMode } from '../reads/zone-read.js';
import { DECLARED_ENTRYPOINTS } from '../reads/rulesets-list.js';
import type { DeclaredReads } from '../../api/endpoints.js';
import type { Partition } from '../../snapshot/tables.js';
import { StoredScan } from './stored-zone.js';
import { storedDeclaredReads } from '../../snapshot/declared-reads.js';

/**
 * Which zones a scan reads in full tonight, and which it reads only where something can have
 * changed unlogged (the rest carried forward from the last scan). A night is incremental when the
 * last scan of the same scope that read every zone it listed (scanToReadOn) is one the account
 * audit logs can vouch for since; a zone
 * is then read in full when its account's log names it, when the zone list shows it new or
 * changed, when its account's log cannot be read, and on its turn: every zone once every
 * `fullEvery` nights, the longest unread first, a share of them each night.
 */

export interface ReadPlanOptions {
  /** `--full`: read every zone in full. */
  full: boolean;
  /** `--full-every N`: every zone is read in full at least every N nights. */
  fullEvery: number;
}

/** The log is kept 18 months (vendor docs: audit logs); a scan older than that cannot be vouched for. */
export const LOG_RETENTION_DAYS = 540;
/** Entries can reach the log a little after the change: the window starts this long before the last scan did. */
export const LOG_OVERLAP_MS = 60 * 60 * 1000;
const DAY_MS = 86_400_000;
/** A zone read in full this long short of `fullEvery` days ago is read tonight whatever the share (nights are not exactly 24 h apart). */
const TURN_SLACK_MS = 6 * 60 * 60 * 1000;

export interface ZonePlan {
  mode: ZoneMode;
  why: string;
}

export class ReadPlan {
  private readonly changes = new Map<string, Promise<AccountChanges>>();
  /** Credentials (by their clients) whose refusal of the audit log has been said: once each. */
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
    /** Partitions read for every zone tonight, never carried (partitionsNewlyDeclared). */
    readonly readAgain: ReadonlySet<Partition> = new Set(),
    /** The database and what tonight's rules ask to read (an incremental night's; null otherwise). */
    private readonly declared: { db: Db; reads: DeclaredReads } | null = null,
    /** The zones (stored ids) the scan read on from read: its audit-log window vouches for these alone. */
    private readonly baseZones: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * Whether a partition may be carried forward from the scan whose read holds it: not when the scan
   * read on from was not asked for it (readAgain), nor when the scan that read it was asked for less
   * of it than tonight's rules ask (a settings partition read by a scoped, aborted or passed-over
   * scan made with fewer rules on, since the scan read on from). A scan pruned since, or from before
   * scans recorded what they were asked, is taken as asked what tonight asks: refusing to carry what
   * it read would read again every zone whose data is older than `--keep` scans, each night, and the
   * zone's full-read turn reads it within `--full-every` nights.
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

  /**
   * How to read a zone tonight. `listChanged`: the zone list served it new, or other than stored.
   * The account's audit log is read at the first zone of the account that asks.
   */
  async zone(client: ApiClient, zone: { id: string; account?: { id?: string } }, listChanged: boolean, signal: AbortSignal): Promise<ZonePlan> {
    if (!this.incremental) return { mode: 'full', why: this.why };
    if (listChanged) return { mode: 'full', why: 'the zone list shows it new or changed' };
    const stored = this.writer.storedId(zone.id);
    // Known from an earlier scan but not read by this one (its account hidden from the token, or its
    // credential unmapped, that night): the audit log since then says nothing of what changed before.
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
      // In the API's time: the last scan's start as the API told it, to the API's now. The Date
      // header counts whole seconds: a minute past it, where no entry can be yet, misses none.
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

  /** The scan read on from is older, by the API's clock, than the audit log keeps: not asked, every zone read in full (said once). */
  private logOutlived(accountId: string): AccountChanges {
    const why = `the last scan to read on from (${this.base!.scanId}) is older than the audit log keeps (18 months) by the API's clock`;
    this.writer.partition('account', accountId, 'audit_log').finish({ state: 'skipped', pages: 0, items: 0, message: why });
    if (!this.outlivedSaid) this.logger.warn(`${why}: every zone is read in full`);
    this.outlivedSaid = true;
    return { kind: 'all', why };
  }

  /** Records the log's read as a partition of the account, and says why an account is read in full (a refusal once per credential). */
  private recorded(accountId: string, changes: AccountChanges, client: ApiClient): AccountChanges {
    const partition = this.writer.partition('account', accountId, 'audit_log');
    if (changes.kind === 'zones') {
      partition.finish({ state: 'ok', pages: changes.pages, items: changes.entries });
      return changes;
    }
    const e = changes.error;
    partition.finish({ state: changes.denied ? 'denied' : e ? 'failed' : 'ok', pages: 0, items: 0, httpStatus: e?.status ?? null, errorCode: e?.code ?? null, message: changes.why });
    if (!changes.denied) this.logger.warn(`account ${accountId}: ${changes.why}; its zones are read in full`);
    else if (!this.deniedSaid.has(client)) {
      // Said once per credential: every account it reads is refused alike, and read in full.
      this.logger.warn(`${changes.why}: the zones of every account it reads are read in full (refused first for account ${accountId})`);
    }
    if (changes.denied) this.deniedSaid.add(client);
    return changes;
  }
}

/**
 * The partitions tonight's rules need that the scan read on from was not asked to read: read for
 * every zone tonight, never carried. A rule switched on since asks for an object or a setting that
 * scan did not read, or that was read before the rule was switched off, longer ago than the audit
 * log window vouches for; no log entry says anything of it. A scan from before scans recorded what
 * they were asked (null) is taken to have been asked what tonight's rules ask, as nights did then:
 * reading every zone's settings and objects again on the first night after an upgrade would cost
 * most of a full read, and each zone's turn reads them within `--full-every` nights anyway.
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
 * The zones (stored ids) whose turn to be read in full is tonight: a `1/fullEvery` share of the
 * zones of the last scan (`zones`), those read in full longest ago first (ties in a fixed order of their
 * ids, so that the share of a first full scan spreads over the nights), and any read in full
 * `fullEvery` nights ago or more. A zone never read in full is read in full anyway.
 *
 * The share is whole zones: `zones / fullEvery` rounded down, and one more on as many nights of
 * each cycle of `fullEvery` days (by the date) as the division leaves over, so that the nights of
 * a cycle read every zone once between them. Rounded up every night, an organisation of fewer
 * zones than `fullEvery` was read in full every night.
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
