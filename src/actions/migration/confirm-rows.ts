import type { ApiClient } from '../../api/client.js';
import { confirmStates, type BulkRow, type Confirmation, type WaitOptions } from './apply.js';
import type { MigrationMode } from './facts.js';

/** After a bulk apply: written rows become `migrated` once their status shows it; the rest stay `requested`. */
export async function confirmRows(
  client: ApiClient,
  rows: BulkRow[],
  mode: MigrationMode,
  options: WaitOptions,
  unconfirmed: (row: BulkRow, c: Confirmation) => string,
): Promise<BulkRow[]> {
  const written = rows.filter((r) => r.outcome === 'requested').map((r) => ({ id: r.zone.id, mode }));
  if (!written.length) return rows;
  const seen = await confirmStates(client, written, options);
  return rows.map((r) => {
    const c = r.outcome === 'requested' ? seen.get(r.zone.id) : undefined;
    if (!c) return r;
    return c.confirmed ? { ...r, outcome: 'migrated', reason: `the status shows ${c.state ?? ''}` } : { ...r, reason: unconfirmed(r, c) };
  });
}
