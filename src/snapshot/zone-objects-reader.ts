import { ZONE_OBJECT_PARTITIONS, type ZoneObjectPartition } from '../cloudflare/reads.js';
import type { Partition } from './tables.js';
import { byZone } from './read-ahead.js';
import { byDataRef, dataRef } from './data-ref.js';
import type { CoverageReader } from './coverage-reader.js';
import type { CoverageRow, Readout } from './coverage-row.js';
import type { RawRow } from './row-reader.js';
import type { ScanView } from './scan-view.js';

/** A zone's single-object endpoints and settings (zone_objects), read for a zone or a run of zones in one query. */

/** A zone_objects row as read (after its zone_id). */
const ZONE_OBJECT_COLUMNS = 'endpoint, item_id, raw';
type ZoneObjectRow = [zoneId: string, endpoint: string, id: string, raw: string];

export class ZoneObjectsReader {
  /** The zone objects of the zone asked about last, by partition (see zoneObjects). */
  private keptObjects: { zoneId: string; byPartition: Map<string, RawRow[]> } | null = null;

  constructor(
    private readonly view: ScanView,
    private readonly coverage: CoverageReader,
  ) {}

  /** Forgets the zone kept (the read-ahead changed: what it holds is read again through it). */
  forget(): void {
    this.keptObjects = null;
  }

  /** A single-object endpoint of a zone (migration status, check, config, entry points, DNSSEC...), or the zone's settings, one row each. */
  zoneObject(zoneId: string, partition: ZoneObjectPartition): Readout<RawRow> {
    // A copy: the rows are kept for the zone's other questions, and a caller may sort what it gets.
    return this.coverage.readout('zone', zoneId, partition, () => this.zoneObjects(zoneId).get(partition)?.slice() ?? []);
  }

  /**
   * A zone's objects by endpoint, in item_id order, kept until another zone is asked about: one
   * query rather than one per endpoint, each of which walked all the run's objects to find its own.
   */
  private zoneObjects(zoneId: string): Map<string, RawRow[]> {
    if (this.keptObjects?.zoneId !== zoneId) {
      const weight = this.view.weightOf(...ZONE_OBJECT_PARTITIONS);
      const rows = this.view.ahead?.rows('zone_objects', zoneId, (ids) => this.runZoneObjects(ids), { weight }) ?? this.oneZoneObjects(zoneId);
      this.keptObjects = { zoneId, byPartition: byZone(rows, (r) => r[1], (r): RawRow => ({ id: r[2], raw: r[3] })) };
    }
    return this.keptObjects.byPartition;
  }

  /** The zone objects of a zone read alone: at each data reference its partitions have, the rows of the endpoints read there. */
  private oneZoneObjects(zoneId: string): ZoneObjectRow[] {
    const refOf = (endpoint: string) => dataRef(this.view, this.coverage.coverageOf('zone', zoneId, endpoint as Partition));
    const refs = new Set(ZONE_OBJECT_PARTITIONS.map(refOf));
    const rows: ZoneObjectRow[] = [];
    for (const ref of refs) {
      const sql = `${this.view.valid('zone_objects', `zone_id, ${ZONE_OBJECT_COLUMNS}`, ref)} AND zone_id = ? ORDER BY item_id`;
      for (const r of this.view.statement(sql, 'raw').all(zoneId) as ZoneObjectRow[]) if (refs.size === 1 || refOf(r[1]) === ref) rows.push(r);
    }
    return rows;
  }

  /** The zone objects of a run of zones, every endpoint in one query (one per data reference, see byDataRef). */
  private runZoneObjects(zoneIds: string[]): Map<string, ZoneObjectRow[]> {
    const view = this.view;
    const groups = byDataRef(view, zoneIds, ZONE_OBJECT_PARTITIONS);
    const single = groups.size === 1;
    const rows: ZoneObjectRow[] = [];
    for (const [ref, ids] of groups) {
      for (const r of view.statement(view.forZones('zone_objects', ZONE_OBJECT_COLUMNS, ref), 'raw').iterate(JSON.stringify(ids)) as Iterable<ZoneObjectRow>) {
        // Rows of an endpoint read in another scan than this group's belong to that scan's group.
        if (single || dataRef(view, view.ahead?.peek<CoverageRow>('coverage', r[0])?.find((c) => c.endpoint === r[1])) === ref) rows.push(r);
      }
    }
    return byZone(rows, (r) => r[0], (r) => r);
  }
}
