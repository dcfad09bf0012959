import { parseCertificatePack } from '../policy/models.js';
import type { Db } from '../snapshot/db.js';
import type { SnapshotReader } from '../snapshot/reader.js';
import { parseScope, sameScope, type ScanScope } from '../snapshot/scope.js';

/**
 * The report's two charts as geometry for inline SVG, computed here so the template only draws
 * rectangles and a polyline: certificates by the week they expire, and failures over recent scans.
 */

const DAY = 86_400_000;
export const CHART = { width: 640, height: 160, pad: 24 } as const;

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
  count: number;
  /** `expired`, `soon` (two weeks), or `later`: the colour. */
  tone: 'expired' | 'soon' | 'later';
}

/** Certificates of the scan's zones by expiry: expired, then each of the next 13 weeks. */
export function expiryTimeline(reader: SnapshotReader, now: Date): { bars: Bar[]; total: number; beyond: number } {
  const buckets = Array.from({ length: 14 }, () => 0);
  let total = 0;
  let beyond = 0;
  for (const zone of reader.zones()) {
    const packs = reader.certificatePacks(zone.id);
    if (!packs.known) continue;
    for (const row of packs.items) {
      for (const cert of parseCertificatePack(row.id, row.raw).certificates) {
        if (!cert.expiresOn) continue;
        total++;
        const days = (cert.expiresOn.getTime() - now.getTime()) / DAY;
        if (days < 0) buckets[0]!++;
        else if (days < 91) buckets[1 + Math.floor(days / 7)]!++;
        else beyond++;
      }
    }
  }
  const max = Math.max(1, ...buckets);
  const step = (CHART.width - 2 * CHART.pad) / buckets.length;
  const bars = buckets.map((count, i): Bar => {
    const height = Math.round(((CHART.height - 2 * CHART.pad) * count) / max);
    return {
      x: Math.round(CHART.pad + i * step + 2),
      y: CHART.height - CHART.pad - height,
      width: Math.round(step - 4),
      height,
      label: i === 0 ? 'expired' : `week ${i}`,
      count,
      tone: i === 0 ? 'expired' : i <= 2 ? 'soon' : 'later',
    };
  });
  return { bars, total, beyond };
}

export interface TrendPoint {
  scanId: number;
  startedAt: string;
  failing: number;
  x: number;
  y: number;
}

/** Failures (not waived) in the last `count` audited scans, oldest first, as polyline points. */
export function failureTrend(db: Db, upTo: number, scope: ScanScope, count = 30): { points: TrendPoint[]; polyline: string; max: number } {
  // Scans of one scope only: a one-zone rescan between two full scans is not a fall in failures.
  const rows: Array<{ id: number; started_at: string; counts: string }> = [];
  const audited = db
    .prepare('SELECT s.id, s.started_at, s.scope, a.counts FROM scans s JOIN audits a ON a.scan_id = s.id WHERE s.id <= ? ORDER BY s.id DESC')
    .iterate(upTo) as Iterable<{ id: number; started_at: string; scope: string; counts: string }>;
  for (const r of audited) {
    if (!sameScope(parseScope(r.scope), scope)) continue;
    rows.unshift(r);
    if (rows.length >= count) break;
  }
  const failing = rows.map((r) => (JSON.parse(r.counts) as { byStatus: { fail: number } }).byStatus.fail);
  const max = Math.max(1, ...failing);
  const span = CHART.width - 2 * CHART.pad;
  const points = rows.map((r, i): TrendPoint => ({
    scanId: r.id,
    startedAt: r.started_at,
    failing: failing[i]!,
    x: Math.round(CHART.pad + (rows.length === 1 ? span / 2 : (span * i) / (rows.length - 1))),
    y: Math.round(CHART.height - CHART.pad - ((CHART.height - 2 * CHART.pad) * failing[i]!) / max),
  }));
  return { points, polyline: points.map((p) => `${p.x},${p.y}`).join(' '), max };
}
