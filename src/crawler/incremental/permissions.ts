import type { ApiClient } from '../../api/client.js';
import { ZONE_OBJECT_READS, type DeclaredReads } from '../../api/endpoints.js';
import { ApiAuthError, ApiError } from '../../api/errors.js';
import type { Logger } from '../../common/logger.js';
import { fillPath, partitionsWhere, specOf } from '../../cloudflare/reads.js';
import { entryOf } from '../../common/map-entry.js';
import type { Partition } from '../../snapshot/tables.js';
import { credentialOf } from '../first-calls.js';
import type { ZoneItem } from '../zone-item.js';

/**
 * What a credential may still read, learnt each night before anything is carried forward: losing a
 * permission leaves no entry in any audit log, so carrying yesterday's answers would judge zones on
 * data the token can no longer see. A refusal of one read of a permission group (docs/first-scan.md,
 * after the vendor's API token permissions) is the group refused for every zone of that credential:
 * their parts of it are denied tonight, not carried. Tonight's reads say it for free; a group none
 * of them answered is asked one request (a probe), shared by every zone of the credential.
 */

export interface PermissionGroup {
  /** The permission as the token form names it. */
  label: string;
  partitions: readonly Partition[];
  /** One request of the group about a zone: the cheapest call it answers (one object, or a list's smallest page). */
  probe(zone: ZoneItem, settings: readonly string[]): { path: string; query?: Record<string, string> } | null;
}

/**
 * The permission groups of the zone reads (vendor docs: API token permissions), from the registry's
 * `permission` and `probe`; a partition probed `alone` is a group of its own. The migration's reads
 * have none (the vendor names no group, and a completed migration, the only status carried, cannot be undone).
 */
export const PERMISSION_GROUPS: readonly PermissionGroup[] = groupsOfRegistry();

function groupsOfRegistry(): PermissionGroup[] {
  const groups = new Map<string, { label: string; partitions: Partition[]; probe?: Partition }>();
  for (const p of partitionsWhere((s) => s.kind === 'zone' && s.permission !== undefined && (s.api?.startsWith('/zones/{zone_id}/') ?? false))) {
    const spec = specOf(p);
    const group = entryOf(groups, spec.probe === 'alone' ? p : spec.permission!, () => ({ label: spec.permission!, partitions: [] }));
    group.partitions.push(p);
    if (spec.probe) group.probe = p;
  }
  return [...groups.values()].map(({ label, partitions, probe }) => {
    if (!probe) throw new Error(`registry of reads: no partition of ${label} (${partitions.join(', ')}) says probe, so a night cannot check the permission`);
    return { label, partitions, probe: probeOf(probe) };
  });
}

/** The cheapest request of a partition about a zone: the object, the first setting asked, or a list's smallest page. */
function probeOf(partition: Partition): PermissionGroup['probe'] {
  const { api, paging } = specOf(partition);
  const path = (zone: ZoneItem, setting?: string) => fillPath(api!, { zone_id: zone.id, ...(setting === undefined ? {} : { setting_id: setting }) });
  if (paging.kind === 'object') return (z) => ({ path: path(z) });
  if (paging.kind === 'per-setting') return (z, settings) => (settings[0] === undefined ? null : { path: path(z, settings[0]) });
  if (paging.kind === 'list') return (z) => ({ path: path(z), query: { page: '1', per_page: String(paging.minPerPage) } });
  if (paging.kind === 'cursor' && paging.minPerPage !== undefined) return (z) => ({ path: path(z), query: { per_page: String(paging.minPerPage) } });
  throw new Error(`registry of reads: ${partition} probes its permission group, but a ${paging.kind} read has no smallest request (a cursor list needs its minPerPage)`);
}

const GROUP_OF = new Map<Partition, PermissionGroup>(PERMISSION_GROUPS.flatMap((g) => g.partitions.map((p) => [p, g] as const)));

/** Whether tonight's rules ask for a zone part: an object or the settings when a rule declares them, the lists always. */
export function askedTonight(partition: Partition, reads: DeclaredReads | undefined): boolean {
  if (partition in ZONE_OBJECT_READS) return reads?.objects.includes(partition as keyof typeof ZONE_OBJECT_READS) ?? false;
  if (partition === 'zone_settings') return (reads?.settings.length ?? 0) > 0;
  return true;
}

type Standing = { kind: 'granted' } | { kind: 'refused'; error: ApiError; what: string } | { kind: 'unconfirmed' };

/** One night's standings, per credential (its client) and permission group. */
export class PermissionStandings {
  private readonly known = new Map<ApiClient, Map<PermissionGroup, Standing>>();
  private readonly probes = new Map<ApiClient, Map<PermissionGroup, Promise<void>>>();
  /** Zones read in full now, per credential: their reads will say what a probe would. */
  private readonly fullReads = new Map<ApiClient, number>();
  private waiters: Array<() => void> = [];

  constructor(private readonly logger: Logger) {}

  /**
   * A read of the zone's partition answered or was refused tonight: said for the whole group. A
   * refusal counts only when the part could be read before (`readBefore`): a token's policies may
   * leave some zones out of a group (vendor docs: API token permissions, zone resources).
   */
  observe(client: ApiClient, partition: Partition, outcome: { granted: true } | { refused: ApiError; what: string; readBefore: boolean }): void {
    const group = GROUP_OF.get(partition);
    if (!group) return;
    this.wake();
    if ('refused' in outcome && !outcome.readBefore) return;
    const byGroup = this.of(client);
    const before = byGroup.get(group);
    // A refusal stands for the night: one read refused is the permission the token lacks.
    if (before?.kind === 'refused') return;
    if ('granted' in outcome) {
      byGroup.set(group, { kind: 'granted' });
      return;
    }
    byGroup.set(group, { kind: 'refused', error: outcome.refused, what: outcome.what });
    this.logger.warn(
      `${credentialOf(client)} was refused ${group.label} (${outcome.what}): what it covers is denied for every zone of that credential tonight, not carried forward from earlier reads`,
    );
  }

  async duringFullRead<T>(client: ApiClient, read: () => Promise<T>): Promise<T> {
    this.fullReads.set(client, (this.fullReads.get(client) ?? 0) + 1);
    try {
      return await read();
    } finally {
      this.fullReads.set(client, this.fullReads.get(client)! - 1);
      this.wake();
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  unknownGroups(client: ApiClient): PermissionGroup[] {
    const known = this.known.get(client);
    return PERMISSION_GROUPS.filter((g) => !known?.has(g));
  }

  refusal(client: ApiClient, partition: Partition): { group: PermissionGroup; error: ApiError; what: string } | null {
    const group = GROUP_OF.get(partition);
    const standing = group ? this.known.get(client)?.get(group) : undefined;
    return group && standing?.kind === 'refused' ? { group, error: standing.error, what: standing.what } : null;
  }

  /** The credential's standing with each group of these partitions, known before the zone carries any: a probe each, shared. */
  async confirm(client: ApiClient, zone: ZoneItem, partitions: readonly Partition[], settings: readonly string[], signal: AbortSignal): Promise<void> {
    const groups = new Set(partitions.map((p) => GROUP_OF.get(p)).filter((g): g is PermissionGroup => g !== undefined));
    const waits: Array<Promise<void>> = [];
    for (const group of groups) {
      if (this.known.get(client)?.has(group)) continue;
      const probes = entryOf(this.probes, client, () => new Map<PermissionGroup, Promise<void>>());
      waits.push(entryOf(probes, group, () => this.probe(client, group, zone, settings, signal)));
    }
    await Promise.all(waits);
  }

  private async probe(client: ApiClient, group: PermissionGroup, zone: ZoneItem, settings: readonly string[], signal: AbortSignal): Promise<void> {
    // Zones of the credential being read in full answer for free: only what none of them answered is asked.
    while (!this.known.get(client)?.has(group) && (this.fullReads.get(client) ?? 0) > 0 && !signal.aborted) {
      // The abort listener goes once the wait ends: a probe waits many times, listeners would pile up on the signal.
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
    if (this.known.get(client)?.has(group)) return;
    const call = group.probe(zone, settings);
    if (!call) return;
    const what = `GET ${call.path.replace(/^\/zones\/[^/]+/, '/zones/{zone_id}')} of ${zone.name}`;
    try {
      await client.get(call.path, { query: call.query, signal });
      this.observe(client, group.partitions[0]!, { granted: true });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code === 'ZW_API_ABORTED') throw err;
      // The probed zone carries parts of the group read yesterday: a refusal now is a permission lost.
      if (err instanceof ApiAuthError) return this.observe(client, group.partitions[0]!, { refused: err, what, readBefore: true });
      // An answer that says nothing of the permission: carried as before, and the next night asks again.
      if (this.of(client).get(group)?.kind !== undefined) return;
      this.of(client).set(group, { kind: 'unconfirmed' });
      this.logger.warn(`${credentialOf(client)}: whether it may still read ${group.label} could not be confirmed (${what}: ${err.message}); its zones' data of it is carried forward unconfirmed tonight`);
    }
  }

  private of(client: ApiClient): Map<PermissionGroup, Standing> {
    return entryOf(this.known, client, () => new Map());
  }
}
