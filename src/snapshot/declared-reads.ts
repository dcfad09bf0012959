import type { DeclaredReads } from '../api/endpoints.js';
import type { Db } from './db.js';

/** What the rules asked a scan to read beyond the lists (its summary's declaredReads); null when not known (a scan from before it was recorded, or pruned). */
export function storedDeclaredReads(db: Db, scanId: number): DeclaredReads | null {
  const summary = db.prepare('SELECT summary FROM scans WHERE id = ?').pluck().get(scanId) as string | null | undefined;
  if (!summary) return null;
  let declared: { settings?: unknown; objects?: unknown } | undefined;
  try {
    declared = (JSON.parse(summary) as { declaredReads?: typeof declared } | null)?.declaredReads;
  } catch {
    return null;
  }
  if (!declared || !Array.isArray(declared.settings) || !Array.isArray(declared.objects)) return null;
  return { settings: declared.settings as DeclaredReads['settings'], objects: declared.objects as DeclaredReads['objects'] };
}
