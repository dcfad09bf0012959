import { PACKAGE } from '../common/package-info.js';
import type { Statement } from 'better-sqlite3';
import { largerPageCache, smallPageCache, UTF16_ORDER, type Db } from '../snapshot/db.js';
import type { AuditCounts, AuditResult } from './audit-result.js';
import type { FindingSink, RuleRunError } from '../policy/engine.js';
import { byText, STATUS_ORDER, type Finding } from '../policy/findings.js';
import { severityRank } from '../policy/rule.js';
import type { WaiverReport } from '../policy/waivers.js';
import { collectAbove, HeapCeiling } from '../common/heap.js';
import { overridesOf } from '../policy/zone-overrides.js';
import { mergedInListingOrder, referencedAudits, rowParts, type RowCondition } from './reuse-rows.js';
import { officialAuditId, placeAudit, type AuditIdentity, type AuditMaker, type StoredAs } from './audit-identity.js';
import { judgementOf } from '../policy/judgement.js';

/**
 * Audits and their findings. Passes are stored as counts only: a zone rule passes a zone exactly
 * when it stored nothing else for it, so no row per zone and rule (200,000 a night at 10,000
 * zones). A scan may have several audits, one official (audit-identity.ts): all here is by audit id.
 */

/** An audit without its findings. */
export interface AuditHeader {
  auditId: number;
  scanId: number;
  /** null: the scan's official audit; else why it is a trial. */
  trial: string | null;
  madeBy: AuditMaker;
  evaluatedAt: string;
  toolVersion: string;
  rules: Array<{ id: string; severity: string | null; options: unknown; overrides?: unknown[] }>;
  counts: AuditCounts;
  errors: RuleRunError[];
  waivers: WaiverReport;
}

const COLUMNS = `audit_id, fingerprint, rule, category, severity, status, account_id, account_name, zone_id, zone_name,
  resource_type, resource_id, resource_name, message, message_id, data, waiver`;
const PLACEHOLDERS = COLUMNS.split(',')
  .map(() => '?')
  .join(', ');

/** Staging keys: a bucket's findings take the keys from bucket * SPAN on, in listing order. */
const SPAN = 2 ** 32;
/** A unit with more findings than this is sorted by SQLite rather than in memory (one rule on one huge zone). */
const MAX_UNIT_IN_MEMORY = 2_000;
/**
 * Findings kept in memory until the audit is stored, at most (their text, in UTF-16 units: a
 * night's 16,000 findings of 10,000 zones hold about 10 MB). Past it they are staged in SQLite.
 */
const MAX_AUDIT_CHARS_IN_MEMORY = 24_000_000;

/** The findings of one status, severity and rule: the listing keeps them together, by zone and resource. */
interface Bucket {
  id: number;
  status: number;
  severity: number;
  rule: string;
  /** The next key's offset within the bucket. */
  next: number;
  /** The bucket's findings while the audit's are in memory (their column values, in listing order). */
  inMemory: unknown[][];
}

/** Zone name and id, then resource: how the findings of one bucket are listed (compareFindings). */
const byZoneAndResource = (a: Finding, b: Finding): number =>
  byText(a.zone?.name ?? '', b.zone?.name ?? '') || byText(a.zone?.id ?? '', b.zone?.id ?? '') || byText(a.resource.name ?? a.resource.id, b.resource.name ?? b.resource.id);

/** Staged findings carry no audit id yet (a new audit gets one when stored): this stands in. */
const STAGED = 0;

/** A finding's row, column by column (COLUMNS). */
function values(auditId: number, f: Finding): unknown[] {
  return [
    auditId,
    f.fingerprint,
    f.rule,
    f.category,
    f.severity,
    f.status,
    f.account?.id ?? null,
    f.account?.name ?? null,
    f.zone?.id ?? null,
    f.zone?.name ?? null,
    f.resource.type,
    f.resource.id,
    f.resource.name,
    f.message,
    f.messageId,
    JSON.stringify(f.data),
    f.waiver ? JSON.stringify(f.waiver) : null,
  ];
}

/**
 * Stores one audit of a scan (see audit-identity.ts), its findings in listing order (worst first)
 * so that reading them back needs no sort. While the rules run, findings are held in memory, or past
 * MAX_AUDIT_CHARS_IN_MEMORY staged in a temporary table: that takes no lock, and finish() writes
 * them in one short write transaction, so a scan writing the file meanwhile does not wait for an
 * audit that takes seconds.
 *
 * The engine delivers findings unit by unit (one rule on one zone), zones in name order, so within
 * a bucket (status, severity, rule) units arrive in listing order and only a unit's findings need
 * sorting: in memory, or by SQLite for a unit too large to hold (a rule reporting most records of
 * a zone of 400,000). A staged finding's key is its bucket's base plus its place in the bucket.
 */
export class AuditRecorder implements FindingSink {
  private readonly stage: Statement;
  private readonly spill: Statement;
  /** Moves a spilled unit's findings of one bucket into the stage, sorted. */
  private readonly place: Statement;
  private readonly buckets = new Map<string, Bucket>();
  /** The unit's findings until it stands, each with its bucket. */
  private unit: Array<{ bucket: Bucket; finding: Finding }> = [];
  /** Buckets of the unit's findings moved to temp.audit_spill. */
  private spilled = new Set<Bucket>();
  /** Whether the audit's findings are in memory rather than staged in a temporary table. */
  private inMemory = true;
  private inMemoryChars = 0;

  constructor(
    private readonly db: Db,
    private readonly scanId: number,
    private readonly inMemoryLimit = MAX_AUDIT_CHARS_IN_MEMORY,
  ) {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS audit_stage (k INTEGER PRIMARY KEY, ${COLUMNS})`);
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS audit_spill (b INTEGER NOT NULL, ${COLUMNS})`);
    db.exec('DELETE FROM temp.audit_stage');
    db.exec('DELETE FROM temp.audit_spill');
    this.stage = db.prepare(`INSERT INTO temp.audit_stage (k, ${COLUMNS}) VALUES (?, ${PLACEHOLDERS})`);
    this.spill = db.prepare(`INSERT INTO temp.audit_spill (b, ${COLUMNS}) VALUES (?, ${PLACEHOLDERS})`);
    // As byZoneAndResource orders them (a unit of an organisation rule spans zones and accounts):
    // names are free text (a rule's description), compared as JavaScript compares them.
    this.place = db.prepare(
      `INSERT INTO temp.audit_stage (k, ${COLUMNS})
       SELECT ? + row_number() OVER (ORDER BY ${UTF16_ORDER}(coalesce(zone_name, '')), coalesce(zone_id, ''), ${UTF16_ORDER}(coalesce(resource_name, resource_id)), rowid) - 1, ${COLUMNS}
       FROM temp.audit_spill WHERE b = ?`,
    );
  }

  private bucketOf(f: Finding): Bucket {
    const name = `${f.status}|${f.severity}|${f.rule}`;
    let bucket = this.buckets.get(name);
    if (!bucket) {
      // Positions in the listing order (compareFindings): status, then severity, worst first.
      bucket = { id: this.buckets.size, status: STATUS_ORDER[f.status], severity: -severityRank(f.severity), rule: f.rule, next: 0, inMemory: [] };
      this.buckets.set(name, bucket);
    }
    return bucket;
  }

  /** A finding of the unit under way (passes are counted, not stored). */
  add(f: Finding): void {
    if (f.status === 'pass') return;
    this.unit.push({ bucket: this.bucketOf(f), finding: f });
    if (this.unit.length > MAX_UNIT_IN_MEMORY) this.spillUnit();
  }

  private spillUnit(): void {
    this.moveToStage();
    for (const { bucket, finding } of this.unit) {
      this.spill.run(bucket.id, ...values(STAGED, finding));
      this.spilled.add(bucket);
    }
    this.unit = [];
  }

  /** The unit stands: its findings take their places in their buckets. */
  commit(): void {
    if (this.spilled.size > 0) return this.commitSpilled();
    if (this.unit.length === 0) return;
    // Stable: findings on one resource keep the order the rule gave them.
    this.unit.sort((a, b) => byZoneAndResource(a.finding, b.finding));
    if (this.inMemory) {
      for (const { bucket, finding } of this.unit) {
        const row = values(STAGED, finding);
        bucket.inMemory.push(row);
        this.inMemoryChars += finding.message.length + (row[15] as string).length + 200;
      }
      if (this.inMemoryChars > this.inMemoryLimit) this.moveToStage();
    } else for (const { bucket, finding } of this.unit) this.stage.run(bucket.id * SPAN + bucket.next++, ...values(STAGED, finding));
    this.unit = [];
  }

  /** Moves the findings kept in memory so far into the stage: the audit has too many to hold. */
  private moveToStage(): void {
    if (!this.inMemory) return;
    this.inMemory = false;
    for (const bucket of this.buckets.values()) {
      for (const row of bucket.inMemory) this.stage.run(bucket.id * SPAN + bucket.next++, ...row);
      bucket.inMemory = [];
    }
    this.inMemoryChars = 0;
  }

  private commitSpilled(): void {
    this.spillUnit();
    for (const bucket of this.spilled) bucket.next += this.place.run(bucket.id * SPAN + bucket.next, bucket.id).changes;
    this.db.exec('DELETE FROM temp.audit_spill');
    this.spilled = new Set();
  }

  /** The unit's rule failed: none of its findings are kept. */
  rollback(): void {
    this.unit = [];
    if (this.spilled.size > 0) this.db.exec('DELETE FROM temp.audit_spill');
    this.spilled = new Set();
  }

  /** Stores the audit in one write transaction, where placeAudit decides its place: two audits at once cannot both become official. */
  finish(result: Omit<AuditResult, 'findings'>, evaluatedAt: Date, identity: AuditIdentity, zones: ZonePasses): StoredAs {
    // The rules' garbage goes back to the system before the larger page cache is filled (see collectAbove).
    collectAbove(32);
    const restore = largerPageCache(this.db);
    try {
      return this.db
        .transaction((): StoredAs => {
          const place = placeAudit(this.db, this.scanId, identity);
          if (place.replaces !== null) {
            // Audits stored with verdict reuse (before issue 51) may read rows the replaced audit holds: they get their own copy first.
            for (const dependent of dependentsOf(this.db, place.replaces)) materialize(this.db, dependent);
            this.db.prepare('DELETE FROM audits WHERE id = ?').run(place.replaces);
          }
          if (place.demote) this.db.prepare('UPDATE audits SET trial = ? WHERE id = ?').run(place.demote.trial, place.demote.id);
          const auditId = Number(
            this.db
              .prepare(
                `INSERT INTO audits (id, scan_id, evaluated_at, tool_version, rules, counts, errors, waivers, reuse_key, reused_rules, judgement, trial, made_by, account_passes, tally_total)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
              )
              .run(
                place.replaces, this.scanId, evaluatedAt.toISOString(), PACKAGE.version,
                JSON.stringify(result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity, options: r.options, ...overridesOf(r) }))),
                JSON.stringify(result.counts), JSON.stringify(result.errors), JSON.stringify(result.waivers),
                // reuse_key, reused_rules and tally_total are verdict reuse's (schemas 9 to 14): kept, written neutral.
                null, '[]', JSON.stringify(identity.judgement), place.trial, place.madeBy,
                Object.keys(zones.accountPasses).length ? JSON.stringify(zones.accountPasses) : null, null,
              ).lastInsertRowid,
          );
          const last = this.db.prepare('SELECT max(pk) FROM findings').pluck().get() as number | null;
          const inOrder = [...this.buckets.values()].sort(listingOrder);
          let stored = 0;
          if (!this.inMemory) stored = this.copyStaged(auditId, inOrder);
          else {
            const insert = this.db.prepare(`INSERT INTO main.findings (${COLUMNS}) VALUES (${PLACEHOLDERS})`);
            for (const b of inOrder) {
              for (const row of b.inMemory) {
                row[0] = auditId;
                insert.run(...row);
              }
              stored += b.inMemory.length;
              b.inMemory = [];
            }
          }
          // New rows take the keys after the largest (INTEGER PRIMARY KEY), so this audit's are one run, in listing order.
          const first = (last ?? 0) + 1;
          this.db.prepare('UPDATE audits SET findings_from = ?, findings_to = ? WHERE id = ?').run(first, first + stored - 1, auditId);
          this.db.exec('DELETE FROM temp.audit_stage');
          // A row per zone judged: its passes by rule, what a view of some zones counts (audit-view.ts). The
          // columns verdict reuse kept (counts, fails, passes, holds, reads) are written neutral.
          const zone = this.db.prepare(`INSERT INTO audit_zones (audit_id, zone_id, source_audit, counts, other_passes) VALUES (?, ?, ?, '${NO_TALLY}', ?)`);
          for (const zoneId of zones.zoneIds) {
            const passes = zones.zonePasses.get(zoneId);
            zone.run(auditId, zoneId, auditId, passes ? JSON.stringify(passes) : null);
          }
          return { auditId, scanId: this.scanId, trial: place.trial, replaced: place.replaces !== null, official: place.trial !== null ? officialAuditId(this.db, this.scanId) : (place.demote?.id ?? null) };
        })
        .immediate();
    } finally {
      restore();
    }
  }

  /**
   * Copies the staged findings, buckets in listing order, in one statement: SQLite journals every
   * page a statement changes, so a statement per bucket wrote the indexes' pages again per bucket
   * (at 10,000 zones, 750 MB to a temporary file). A table of the buckets' key ranges drives the
   * copy (CROSS JOIN keeps it the outer loop), so each range is read in key order with no sort.
   */
  private copyStaged(auditId: number, inOrder: readonly Bucket[]): number {
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS audit_buckets (position INTEGER PRIMARY KEY, low INTEGER NOT NULL, high INTEGER NOT NULL)');
    this.db.exec('DELETE FROM temp.audit_buckets');
    const bucket = this.db.prepare('INSERT INTO temp.audit_buckets (position, low, high) VALUES (?, ?, ?)');
    inOrder.forEach((b, position) => bucket.run(position, b.id * SPAN, (b.id + 1) * SPAN));
    const stored = this.db
      .prepare(
        `INSERT INTO main.findings (${COLUMNS}) SELECT ? AS audit_id, ${COLUMNS.replace(/^audit_id,/, '')}
         FROM temp.audit_buckets b CROSS JOIN temp.audit_stage s ON s.k >= b.low AND s.k < b.high ORDER BY b.position, s.k`,
      )
      .run(auditId).changes;
    this.db.exec('DELETE FROM temp.audit_buckets');
    return stored;
  }
}

/** audit_zones.counts without a tally: every audit since issue 51 (passes in other_passes), and a zone kept by verdict reuse. */
export const NO_TALLY = '';

/** What an audit keeps per zone and account besides its findings: the passes a view of some of them counts (audit-view.ts). */
export interface ZonePasses {
  /** Every zone judged. */
  zoneIds: readonly string[];
  /** Per zone, passes by rule. */
  zonePasses: ReadonlyMap<string, Record<string, number>>;
  /** Per account, passes of verdicts on the account itself (no zone), by rule. */
  accountPasses: Record<string, Record<string, number>>;
}

/** Audits other than this one that read some of its rows. */
function dependentsOf(db: Db, auditId: number): number[] {
  return db.prepare('SELECT DISTINCT audit_id FROM audit_zones WHERE source_audit = ? AND audit_id <> ?').pluck().all(auditId, auditId) as number[];
}

/**
 * Gives an audit stored with verdict reuse (before issue 51) its own copy of every row it reads,
 * as one run in listing order, before an audit it reads from is replaced or pruned.
 */
export function materialize(db: Db, auditId: number): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS reuse_copy (k INTEGER PRIMARY KEY, ${COLUMNS})`);
  db.exec('DELETE FROM temp.reuse_copy');
  // One statement (SQLite cannot write while a query of the same connection is open), sorted by SQLite.
  const parts = rowParts(db, auditId);
  const union = parts.map((p) => `SELECT ${COLUMNS}, pk FROM findings WHERE ${p.where}`).join(' UNION ALL ');
  db.prepare(`INSERT INTO temp.reuse_copy (${COLUMNS}) SELECT ? AS audit_id, ${COLUMNS.replace(/^audit_id,/, '')} FROM (${union}) ORDER BY ${ORDER}, pk`).run(
    auditId,
    ...parts.flatMap((p) => p.params),
  );
  db.prepare('DELETE FROM findings WHERE audit_id = ?').run(auditId);
  const last = (db.prepare('SELECT max(pk) FROM findings').pluck().get() as number | null) ?? 0;
  const stored = db.prepare(`INSERT INTO main.findings (${COLUMNS}) SELECT ${COLUMNS} FROM temp.reuse_copy ORDER BY k`).run().changes;
  db.prepare('UPDATE audits SET findings_from = ?, findings_to = ? WHERE id = ?').run(last + 1, last + stored, auditId);
  // The counts and reads of kept zones were the source audits': copied too, before the sources go.
  db.prepare(
    `UPDATE audit_zones SET (counts, reads) = (SELECT s.counts, s.reads FROM audit_zones s WHERE s.audit_id = audit_zones.source_audit AND s.zone_id = audit_zones.zone_id)
     WHERE audit_id = ? AND counts = '${NO_TALLY}' AND source_audit <> audit_id`,
  ).run(auditId);
  // And the names their verdicts looked up (audit_names), kept with the audits that judged them.
  for (const source of referencedAudits(db, auditId)) {
    db.prepare(
      `INSERT OR IGNORE INTO audit_names (audit_id, rname, zone_id)
       SELECT ?, rname, zone_id FROM audit_names WHERE audit_id = ? AND zone_id IN (SELECT zone_id FROM audit_zones WHERE audit_id = ? AND source_audit = ?)`,
    ).run(auditId, source, auditId, source);
  }
  db.prepare('UPDATE audit_zones SET source_audit = ? WHERE audit_id = ?').run(auditId, auditId);
  db.exec('DELETE FROM temp.reuse_copy');
}

const listingOrder = (a: Bucket, b: Bucket): number => a.status - b.status || a.severity - b.severity || byText(a.rule, b.rule);

/** Stores an audit kept in memory (runAudit's, passes included: they are counted per zone and account). */
export function saveAudit(db: Db, result: AuditResult, evaluatedAt = new Date(), identity?: AuditIdentity): StoredAs {
  const recorder = new AuditRecorder(db, result.scan.id);
  const zonePasses = new Map<string, Record<string, number>>();
  const accountPasses: Record<string, Record<string, number>> = {};
  db.transaction(() => {
    // Already in listing order: each finding stands alone and takes the next place in its bucket.
    for (const f of result.findings) {
      recorder.add(f);
      recorder.commit();
      if (f.status !== 'pass') continue;
      const passes = f.zone ? (zonePasses.get(f.zone.id) ?? zonePasses.set(f.zone.id, {}).get(f.zone.id)!) : f.account ? (accountPasses[f.account.id] ??= {}) : null;
      if (passes) passes[f.rule] = (passes[f.rule] ?? 0) + 1;
    }
  })();
  return recorder.finish(result, evaluatedAt, identity ?? defaultIdentity(result.rules, result.waivers), { zoneIds: result.zoneIds, zonePasses, accountPasses });
}

/** The identity of an audit stored by a caller that named none (tests, tools): made by `audit`, with these rules and waivers. */
export function defaultIdentity(rules: AuditResult['rules'], waivers: AuditResult['waivers']): AuditIdentity {
  return { judgement: judgementOf(rules, [...waivers.active, ...waivers.expired], null), madeBy: 'audit' };
}

/** Worst first, as compareFindings orders them in memory. */
const ORDER = `CASE status WHEN 'fail' THEN 0 WHEN 'unknown' THEN 1 ELSE 2 END,
  CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END,
  rule, ${UTF16_ORDER}(coalesce(zone_name, '')), coalesce(zone_id, ''), ${UTF16_ORDER}(coalesce(resource_name, resource_id))`;

/** Reads one findings row by its key (as drift's queries give them), as a finding. */
export function findingByKey(db: Db): (pk: number) => Finding {
  const row = db.prepare('SELECT * FROM findings WHERE pk = ?');
  return (pk) => findingFromRow(row.get(pk) as Record<string, string | null>);
}

/** A finding from a row of the findings table (or a query giving its columns). */
function findingFromRow(r: Record<string, string | null>): Finding {
  return {
    rule: r['rule'] as string,
    category: r['category'] as Finding['category'],
    severity: r['severity'] as Finding['severity'],
    status: r['status'] as Finding['status'],
    account: r['account_id'] === null ? null : { id: r['account_id'] as string, name: r['account_name'] ?? null },
    zone: r['zone_id'] === null ? null : { id: r['zone_id'] as string, name: r['zone_name'] ?? null },
    resource: { type: r['resource_type'] as string, id: r['resource_id'] as string, name: r['resource_name'] ?? null },
    message: r['message'] as string,
    messageId: r['message_id'] ?? null,
    data: JSON.parse(r['data'] as string) as Record<string, unknown>,
    fingerprint: r['fingerprint'] as string,
    ...(r['waiver'] ? { waiver: JSON.parse(r['waiver']) as Finding['waiver'] & object } : {}),
  };
}

/** The stored findings of an audit, worst first, one at a time; `where` narrows them (a view of some zones). */
export function* auditFindings(db: Db, auditId: number, where?: RowCondition): Generator<Finding> {
  const heap = new HeapCeiling(96, 1000);
  for (const row of withSmallPageCache(db, () => inListingOrder(db, auditId, '*', false, where))) {
    heap.check();
    yield findingFromRow(row as Record<string, string | null>);
  }
}

/** Rows read with small page caches: the sort's buffers follow them, small as in the audit that wrote the rows. */
function* withSmallPageCache<T>(db: Db, rows: () => Iterable<T>): Generator<T> {
  const restore = smallPageCache(db);
  try {
    yield* rows();
  } finally {
    restore();
  }
}

/**
 * A finding as JSON.stringify writes findingFromRow's (same keys, order and escapes), built by
 * SQLite: the JSON of 200,000 findings then costs no object, parse or stringify per finding.
 */
const FINDING_JSON = `json_object(
  'rule', rule, 'category', category, 'severity', severity, 'status', status,
  'account', CASE WHEN account_id IS NULL THEN NULL ELSE json_object('id', account_id, 'name', account_name) END,
  'zone', CASE WHEN zone_id IS NULL THEN NULL ELSE json_object('id', zone_id, 'name', zone_name) END,
  'resource', json_object('type', resource_type, 'id', resource_id, 'name', resource_name),
  'message', message, 'messageId', message_id, 'data', json(data), 'fingerprint', fingerprint)`;
const FINDING_JSON_WITH_WAIVER = `CASE WHEN waiver IS NULL OR waiver = '' THEN ${FINDING_JSON}
  ELSE json_insert(${FINDING_JSON}, '$.waiver', json(waiver)) END`;

/** The stored findings of an audit as JSON texts, worst first (see auditFindings). */
export function auditFindingsJson(db: Db, auditId: number, where?: RowCondition): Generator<string> {
  return withSmallPageCache(db, () => inListingOrder(db, auditId, FINDING_JSON_WITH_WAIVER, true, where) as Iterable<string>);
}

/**
 * `select` of the audit's findings, worst first (`pluck`: first column alone): a key range (since
 * schema 7), or a sort for audits before it. Queries read the run with `+audit_id`: else SQLite picks
 * the fingerprint index and sorts the run before the first row.
 */
function inListingOrder(db: Db, auditId: number, select: string, pluck: boolean, where?: RowCondition): IterableIterator<unknown> {
  const [{ run }, ...referenced] = rowParts(db, auditId);
  if (referenced.length > 0) return mergedInListingOrder(db, auditId, select, pluck, where);
  const narrow = where ? ` AND (${where.sql})` : '';
  const statement = db.prepare(
    run
      ? `SELECT ${select} FROM findings WHERE pk BETWEEN ? AND ? AND +audit_id = ?${narrow} ORDER BY pk`
      : `SELECT ${select} FROM findings WHERE audit_id = ?${narrow} ORDER BY ${ORDER}`,
  );
  if (pluck) statement.pluck();
  const params = where?.params ?? [];
  return run ? statement.iterate(run.from, run.to, auditId, ...params) : statement.iterate(auditId, ...params);
}

/** The columns of an audit's header stored as JSON texts. */
type StoredAsJson = 'rules' | 'counts' | 'errors' | 'waivers';

/** An audit by its id, without its findings; null when there is none. */
export function auditHeader(db: Db, auditId: number): AuditHeader | null {
  const select = 'SELECT id AS auditId, scan_id AS scanId, trial, made_by AS madeBy, evaluated_at AS evaluatedAt, tool_version AS toolVersion, rules, counts, errors, waivers FROM audits WHERE id = ?';
  const row = db.prepare(select).get(auditId) as (Omit<AuditHeader, StoredAsJson> & Record<StoredAsJson, string>) | undefined;
  return row ? { ...row, rules: JSON.parse(row.rules), counts: JSON.parse(row.counts), errors: JSON.parse(row.errors), waivers: JSON.parse(row.waivers) } : null;
}

/** The official audit of a scan, without its findings; null when the scan has not been audited. */
export function officialAuditHeader(db: Db, scanId: number): AuditHeader | null {
  const auditId = officialAuditId(db, scanId);
  return auditId === null ? null : auditHeader(db, auditId);
}
