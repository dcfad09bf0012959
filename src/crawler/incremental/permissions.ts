import type { ApiClient } from '../../api/client.js';
import { ZONE_OBJECT_READS, type DeclaredReads } from '../../api/endpoints.js';
import { ApiAuthError, ApiError } from '../../api/errors.js';
import type { Logger } from '../../common/logger.js';
import { fillPath, partitionsWhere, specOf } from '../../cloudflare/reads.js';
import { entryOf } from '../../common/map-entry.js';
import type { Partition } from '../../snapshot/tables.js';
import { credentialOf } from '../first-calls.js';
import type { ZoneItem } from '../reads/zone-read.js';

/**
 * What a credential may still read, learnt each night before anything of a zone is carried forward.
 * A token's permissions are not a zone's resource: losing one leaves no entry in any audit log, so a
 * night that carried yesterday's answers would go on judging zones on data the token can no longer
 * see, for up to `--full-every` nights. Each read belongs to a permission group (the README's and
 * docs/first-scan.md's table, after the vendor's API token permissions); a refusal of one read of a
 * group, for one zone of a credential, is the group refused for every zone of that credential, and
 * their parts of that group are recorded denied tonight, not carried.
 *
 * The reads the night makes anyway (zones read in full, reads due by date) say it for free: the
 * first carried zone of a credential to ask waits while zones of that credential are being read in
 * full. When none of them answered for a group, that zone is asked one request of the group (a
 * probe), shared by every zone of the credential.
 */

export interface PermissionGroup {
  /** The permission as the token form names it. */
  label: string;
  /** The zone partitions read with it (carried ones are checked). */
  partitions: readonly Partition[];
  /** One request of the group about a zone: the cheapest call it answers (one object, or a list's smallest page). */
  probe(zone: ZoneItem, settings: readonly string[]): { path: string; query?: Record<string, string> } | null;
}

/**
 * The permission groups of the zone reads (vendor docs: API token permissions; docs/first-scan.md),
 * from the registry's `permission` and `probe`: the partitions read from the zone's own API path,
 * grouped by permission in the registry's order; a partition probed `alone` is a group of its own.
 * Those with no permission are left out: the migration's status, check and configuration (the
 * vendor's reference names no group for them, and a completed migration, the only status carried,
 * cannot be undone).
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

export function permissionGroupOf(partition: Partition): PermissionGroup | undefined {
  return GROUP_OF.get(partition);
}

/**
 * Whether tonight's rules ask for a zone part: an object or the settings only when a rule declares
 * them (a part no rule reads is carried as it was, whatever the token may read), the lists always.
 */
export function askedTonight(partition: Partition, reads: DeclaredReads | undefined): boolean {
  if (partition in ZONE_OBJECT_READS) return reads?.objects.includes(partition as keyof typeof ZONE_OBJECT_READS) ?? false;
  if (partition === 'zone_settings') return (reads?.settings.length ?? 0) > 0;
  return true;
}

/** How a credential stands with a group tonight: answered, refused (with the refusal and what was refused), or not known. */
export type Standing = { kind: 'granted' } | { kind: 'refused'; error: ApiError; what: string } | { kind: 'unconfirmed' };

/** One night's standings, per credential (its client) and permission group, and the probes made. */
export class PermissionStandings {
  private readonly known = new Map<ApiClient, Map<PermissionGroup, Standing>>();
  private readonly probes = new Map<ApiClient, Map<PermissionGroup, Promise<void>>>();
  /** Zones read in full now, per credential: their reads will say what a probe would. */
  private readonly fullReads = new Map<ApiClient, number>();
  /** Woken on each standing learnt and each full read ended. */
  private waiters: Array<() => void> = [];

  constructor(private readonly logger: Logger) {}

  /**
   * A read of the zone's partition answered (granted), or was refused, tonight: said for the whole
   * group. A refusal counts only when the zone's part could be read before (`readBefore`): a token's
   * policies may leave some zones out of a group (vendor docs: API token permissions, zone
   * resources), and a zone the token never could read the group of, refused again tonight, says
   * nothing of the others; its own part is denied by its own read. Such a refusal leaves the group
   * unknown, for the zones' own reads or a probe to answer.
   */
  observe(client: ApiClient, partition: Partition, outcome: { granted: true } | { refused: ApiError; what: string; readBefore: boolean }): void {
    const group = permissionGroupOf(partition);
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

  /** A zone of the credential is read in full: until it ends, its reads may answer for the groups. */
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

  /** The groups the credential's standing with is not known yet tonight. */
  unknownGroups(client: ApiClient): PermissionGroup[] {
    const known = this.known.get(client);
    return PERMISSION_GROUPS.filter((g) => !known?.has(g));
  }

  /** The refusal that keeps a partition from being carried for zones of this credential, if any. */
  refusal(client: ApiClient, partition: Partition): { group: PermissionGroup; error: ApiError; what: string } | null {
    const group = permissionGroupOf(partition);
    const standing = group ? this.known.get(client)?.get(group) : undefined;
    return group && standing?.kind === 'refused' ? { group, error: standing.error, what: standing.what } : null;
  }

  /**
   * Makes sure the credential's standing with each group of these partitions is known before the
   * zone carries any of them: a group no read has answered for yet is asked once, of this zone,
   * and every other zone of the credential waits for that one answer.
   */
  async confirm(client: ApiClient, zone: ZoneItem, partitions: readonly Partition[], settings: readonly string[], signal: AbortSignal): Promise<void> {
    const groups = new Set(partitions.map(permissionGroupOf).filter((g): g is PermissionGroup => g !== undefined));
    const waits: Array<Promise<void>> = [];
    for (const group of groups) {
      if (this.known.get(client)?.has(group)) continue;
      const probes = entryOf(this.probes, client, () => new Map<PermissionGroup, Promise<void>>());
      waits.push(entryOf(probes, group, () => this.probe(client, group, zone, settings, signal)));
    }
    await Promise.all(waits);
  }

  private async probe(client: ApiClient, group: PermissionGroup, zone: ZoneItem, settings: readonly string[], signal: AbortSignal): Promise<void> {
    // Zones of the credential being read in full read the group too, as a rule: their answer, when
    // it comes before they end, costs nothing. Only what none of them answered is asked.
    while (!this.known.get(client)?.has(group) && (this.fullReads.get(client) ?? 0) > 0 && !signal.aborted) {
      // The abort listener goes once the wait ends either way: a probe waits many times in a night,
      // and listeners left on the scan's one signal would pile up on it.
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
      // An answer that says nothing of the permission (a failure that outlasted the retries, a retired
      // route): yesterday's data is carried as before, and the next night asks again.
      if (this.of(client).get(group)?.kind !== undefined) return;
      this.of(client).set(group, { kind: 'unconfirmed' });
      this.logger.warn(`${credentialOf(client)}: whether it may still read ${group.label} could not be confirmed (${what}: ${err.message}); its zones' data of it is carried forward unconfirmed tonight`);
    }
  }

  private of(client: ApiClient): Map<PermissionGroup, Standing> {
    return entryOf(this.known, client, () => new Map());
  }
}
