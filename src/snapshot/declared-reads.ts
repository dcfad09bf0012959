import type { ZoneReads } from '../api/endpoints.js';
import type { Db } from './db.js';

/** What the rules asked a scan to read beyond the lists (its summary's declaredReads); null when not known (a scan from before it was recorded, or pruned). */
export function declaredReadsOf(db: Db, scanId: number): ZoneReads | null {
  const summary = db.prepare('SELECT summary FROM scans WHERE id = ?').pluck().get(scanId) as string | null | undefined;
  if (!summary) return null;
  let declared: { settings?: unknown; objects?: unknown } | undefined;
  try {
    declared = (JSON.parse(summary) as { declaredReads?: typeof declared } | null)?.declaredReads;
  } catch {
    return null;
  }
  if (!declared || !Array.isArray(declared.settings) || !Array.isArray(declared.objects)) return null;
  return { settings: declared.settings as ZoneReads['settings'], objects: declared.objects as ZoneReads['objects'] };
}

/**
 * Whether a scan was asked for everything these reads need (each object and setting); a scan
 * whose declared reads are not known is taken as asked (see declaredReadsOf).
 */
export function askedFor(declared: ZoneReads | null, reads: ZoneReads): boolean {
  if (!declared) return true;
  const objects = new Set<string>(declared.objects);
  const settings = new Set<string>(declared.settings);
  return reads.objects.every((o) => objects.has(o)) && reads.settings.every((s) => settings.has(s));
}
