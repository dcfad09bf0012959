import { renewalWindowDays } from '../cloudflare/ssl/certificates.js';
import { parseCertificatePack } from '../cloudflare/ssl/certificate-pack.js';
import type { Db } from '../snapshot/db.js';
import { officialAudits } from '../audit/audit-identity.js';
import type { SnapshotReader, ZoneRow } from '../snapshot/reader.js';
import { parseScope, sameScope, type ScanScope } from '../snapshot/scope.js';

/**
 * The report's two charts as geometry for inline SVG, so the template only draws rectangles and a
 * polyline: certificates by the week they expire, and failures over recent scans. Each can be read
 * without hovering: a labelled value axis, the count on each bar or point, the renewal window marked.
 */

const DAY = 86_400_000;
/** `left` leaves room for the value axis' labels, `pad` for the labels under and over the bars. */
export const CHART = { width: 640, height: 200, pad: 24, left: 44 } as const;
const PLOT = { top: CHART.pad, bottom: CHART.height - CHART.pad, left: CHART.left, right: CHART.width - 8 } as const;

/** The value axis: `y0` its baseline, `yTop` its top, where the value is `max`. */
const axis = (max: number) => ({ y0: PLOT.bottom, yTop: PLOT.top, x0: PLOT.left, x1: PLOT.right, max });

/** The renewal window of the default 90-day certificate: where a managed certificate should already be renewing. */
export const RENEWAL_WINDOW_DAYS = renewalWindowDays(null);

/** Certificates of the scan's zones (or of `zones`, a report of some) by expiry: expired, then each of the next 13 weeks. */
export function expiryTimeline(reader: SnapshotReader, now: Date, zones: readonly ZoneRow[] = reader.zones()) {
  const buckets = Array.from({ length: 14 }, () => 0);
  let total = 0;
  let beyond = 0;
  for (const zone of zones) {
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
  const step = (PLOT.right - PLOT.left) / buckets.length;
  const bars = buckets.map((count, i) => {
    // Room over the tallest bar for its count.
    const height = Math.round(((PLOT.bottom - PLOT.top - 14) * count) / max);
    const x = Math.round(PLOT.left + i * step + 2);
    const width = Math.round(step - 4);
    // The colour, explained by the legend: `soon` is within the renewal window.
    const tone = i === 0 ? 'expired' : (i - 1) * 7 < RENEWAL_WINDOW_DAYS ? 'soon' : 'later';
    const label = i === 0 ? 'expired' : `week ${i}`;
    // Its count is written over the bar (labelX, labelY).
    return { x, y: PLOT.bottom - height, width, height, label, count, tone, labelX: x + width / 2, labelY: PLOT.bottom - height - 4 };
  });
  // Week 1 starts at the scan: the window runs from there for RENEWAL_WINDOW_DAYS.
  const width = Math.round((step * RENEWAL_WINDOW_DAYS) / 7);
  const window = { x: Math.round(PLOT.left + step), y: PLOT.top, height: PLOT.bottom - PLOT.top, width, days: RENEWAL_WINDOW_DAYS };
  return { bars, total, beyond, axis: axis(max), window };
}

export interface TrendPoint {
  scanId: number;
  startedAt: string;
  failing: number;
  x: number;
  y: number;
  /** Its count is written over the point when there are few enough points to read them all. */
  labelled: boolean;
}

/** Scans the trend shows at most. */
const TREND_SCANS = 30;

/**
 * Failures (not waived) in the last TREND_SCANS audited scans, oldest first, as polyline points.
 * `zoneIds`: a report of some zones (--zone, --account): their failures only, from each audit's counts by zone.
 */
export function failureTrend(db: Db, upTo: number, scope: ScanScope, zoneIds?: ReadonlySet<string>) {
  // Scans of one scope only: a one-zone rescan between two full scans is not a fall in failures.
  const rows: Array<{ id: number; started_at: string; counts: string }> = [];
  for (const r of officialAudits(db, { upTo })) {
    if (!sameScope(parseScope(r.scope), scope)) continue;
    rows.unshift({ id: r.scanId, started_at: r.startedAt, counts: r.counts });
    if (rows.length >= TREND_SCANS) break;
  }
  const failingOf = (counts: { byStatus: { fail: number }; byZone?: Record<string, { fail: number }> }) =>
    zoneIds ? [...zoneIds].reduce((n, id) => n + (counts.byZone?.[id]?.fail ?? 0), 0) : counts.byStatus.fail;
  const failing = rows.map((r) => failingOf(JSON.parse(r.counts) as Parameters<typeof failingOf>[0]));
  const max = Math.max(1, ...failing);
  // Inset so the first and last counts fit inside the chart.
  const left = PLOT.left + 16;
  const span = PLOT.right - 16 - left;
  const height = PLOT.bottom - PLOT.top - 14;
  const top = Math.max(...failing, 0);
  const points = rows.map((r, i): TrendPoint => ({
    scanId: r.id,
    startedAt: r.started_at,
    failing: failing[i]!,
    x: Math.round(left + (rows.length === 1 ? span / 2 : (span * i) / (rows.length - 1))),
    y: Math.round(PLOT.bottom - (height * failing[i]!) / max),
    // All of up to 12 points; beyond that the ends and the peak.
    labelled: rows.length <= 12 || i === 0 || i === rows.length - 1 || failing[i] === top,
  }));
  return {
    points,
    polyline: points.map((p) => `${p.x},${p.y}`).join(' '),
    max,
    axis: axis(max),
    // One scan is a dot in empty space, not a trend: the page says so instead of drawing it.
    shown: rows.length >= 2,
    first: rows[0]?.started_at ?? '',
    last: rows.at(-1)?.started_at ?? '',
  };
}

/** The first screen's small trend: failures per scan as a line, no axes, the last point marked. */
export const SPARK = { width: 180, height: 40, pad: 4 } as const;

/** `min` and `max`: the fewest and most failures it spans, for its label. */
export function sparkline(values: readonly number[]) {
  const max = Math.max(0, ...values);
  const min = values.length ? Math.min(...values) : 0;
  // A flat line sits mid-height rather than on the floor: "no change" reads as level, not as zero.
  const span = max - min;
  const y = (v: number) => Math.round(span === 0 ? SPARK.height / 2 : SPARK.height - SPARK.pad - ((SPARK.height - 2 * SPARK.pad) * (v - min)) / span);
  const x = (i: number) => Math.round(values.length <= 1 ? SPARK.width - SPARK.pad : SPARK.pad + ((SPARK.width - 2 * SPARK.pad) * i) / (values.length - 1));
  const points = values.map((v, i) => ({ x: x(i), y: y(v) }));
  return { polyline: points.map((p) => `${p.x},${p.y}`).join(' '), last: points.at(-1) ?? { x: SPARK.width - SPARK.pad, y: SPARK.height / 2 }, min, max, shown: values.length >= 2 };
}
