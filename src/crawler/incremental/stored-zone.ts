import type { Db } from '../../snapshot/db.js';
import { SnapshotReader, type RawRow } from '../../snapshot/reader.js';

/**
 * Managed certificates renew from 30 days before expiry at most (vendor docs: certificate renewal),
 * unlogged: a zone with a certificate this close to its expiry is read every night.
 */
export const RENEWAL_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export type EntrypointPartition = 'entrypoint' | 'custom_entrypoint' | 'ratelimit_entrypoint';

/** A ruleset's state: its version, and its id, since one deleted and created again (Terraform) starts at version 1. */
export function rulesetStamp(ruleset: Record<string, unknown>): string | null {
  const { id, version } = ruleset;
  const known = (v: unknown) => typeof v === 'string' || typeof v === 'number';
  return known(id) && known(version) ? `${String(id)} version ${String(version)}` : null;
}

/** What the last complete scan of the scope holds for a zone, as far as tonight's reads need it. */
export class StoredZone {
  constructor(
    private readonly reader: SnapshotReader,
    private readonly storedId: string,
  ) {}

  /** The stored stamp of an entry point (rulesetStamp): null when stored as absent, undefined when not known. */
  entrypointStamp(partition: EntrypointPartition): string | null | undefined {
    const read = this.reader.zoneObject(this.storedId, partition);
    if (!read.known) return undefined;
    const row = read.items[0];
    return row ? (rulesetStamp(parsed(row)) ?? undefined) : null;
  }

  /** A certificate pack not active, a certificate not active, or one in its renewal window. */
  certificatesDue(now: number): boolean {
    const packs = this.reader.certificatePacks(this.storedId);
    return !packs.known || packs.items.some((row) => packDue(parsed(row), now));
  }

  /** The registrar's DS record is awaited, unlogged. */
  dnssecPending(): boolean {
    const read = this.reader.zoneObject(this.storedId, 'dnssec');
    const status = read.known && read.items[0] ? parsed(read.items[0])['status'] : undefined;
    return typeof status === 'string' && status.startsWith('pending');
  }
}

export class StoredScan {
  private readonly reader: SnapshotReader;

  constructor(db: Db, readonly scanId: number) {
    this.reader = new SnapshotReader(db, scanId);
  }

  get startedAt(): string {
    return this.reader.scan.startedAt;
  }

  /** When the scan started by the API's clock (see ApiClient.serverNow); its own clock's for scans that did not record it. */
  get apiStartedAt(): string {
    const summary = this.reader.scan.summary as { reads?: { apiStartedAt?: unknown } } | null;
    const at = summary?.reads?.apiStartedAt;
    return typeof at === 'string' && Number.isFinite(Date.parse(at)) ? at : this.reader.scan.startedAt;
  }

  zoneIds(): string[] {
    return this.reader.zones().map((z) => z.id);
  }

  zone(storedId: string): StoredZone {
    return new StoredZone(this.reader, storedId);
  }
}

function packDue(pack: Record<string, unknown>, now: number): boolean {
  if (pack['status'] !== 'active') return true;
  const certificates = Array.isArray(pack['certificates']) ? (pack['certificates'] as unknown[]) : [];
  for (const c of certificates) {
    if (!c || typeof c !== 'object') continue;
    const cert = c as Record<string, unknown>;
    if (typeof cert['status'] === 'string' && cert['status'] !== 'active') return true;
    const expires = typeof cert['expires_on'] === 'string' ? Date.parse(cert['expires_on']) : Number.NaN;
    if (Number.isFinite(expires) && expires - now <= RENEWAL_WINDOW_DAYS * DAY_MS) return true;
  }
  return false;
}

function parsed(row: RawRow): Record<string, unknown> {
  try {
    const v = JSON.parse(row.raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
