import type { CrawlParts } from './crawl-parts.js';
import { listingChanged } from './incremental/listing-change.js';
import type { PermissionStandings } from './incremental/permissions.js';
import { readZoneParts } from './read-zone.js';
import type { ReadKit } from './read-kit.js';
import type { ZoneFacts } from './reads/zone-read.js';
import type { ZoneItem } from './zone-item.js';

/** Each zone listed, once: recorded, then read within its credential's concurrency as the plan says (read-zone.ts). */
export class ZoneQueue {
  private readonly seen = new Set<string>();

  constructor(
    private readonly parts: CrawlParts,
    private readonly kit: ReadKit,
    private readonly permissions: PermissionStandings,
  ) {}

  enqueue(zone: ZoneItem): void {
    const { book, credentials, outcome, tasks, plan, options } = this.parts;
    if (this.seen.has(zone.id)) return;
    this.seen.add(zone.id);
    this.kit.resolver?.offerKnownNames(zone);
    credentials.listed(zone);
    const partition = book.partition('zone', zone.id, 'zone');
    partition.write([zone]);
    partition.finish({ state: 'ok', pages: 1, items: 1 });
    // Compared with the last complete listing and with the scan read on from: a scan stopped since
    // may have listed it changed and read none of its parts.
    const listChanged = listingChanged(partition, zone, plan.base?.scanId, (t) => options.writer.redactRaw(t));
    outcome.progress.zonesKnown++;
    tasks.track(
      tasks.limitOf(credentials.clientOf(zone.account?.id))(async () => {
        if (tasks.signal.aborted) return;
        await this.read(zone, listChanged);
        outcome.progress.zonesDone++;
        outcome.report();
      }),
    );
  }

  private async read(zone: ZoneItem, listChanged: boolean): Promise<void> {
    const { credentials, tasks, plan, options } = this.parts;
    const client = credentials.clientOf(zone.account?.id);
    const zonePlan = await plan.zone(client, zone, listChanged, tasks.signal);
    if (zonePlan.mode === 'due-only') await this.kit.carrier.confirmPermissions(client, zone, tasks.signal);
    const storedId = options.writer.storedId(zone.id);
    const facts: ZoneFacts = {
      zone,
      mode: zonePlan.mode,
      stored: plan.base?.zone(storedId) ?? null,
      phases: null,
      migrated: this.kit.migratedBefore(zone),
      migrationState: null,
      now: client.serverNow().getTime(),
      waitingOn: new Map(),
      decidedAlike: new Map(),
    };
    const inFull = zonePlan.mode === 'full';
    if (inFull) await this.permissions.duringFullRead(client, () => readZoneParts(this.kit, facts));
    else await readZoneParts(this.kit, facts);
    if (inFull) options.writer.zoneReadInFull(zone.id);
    this.parts.outcome.progress[inFull ? 'zonesRead' : 'zonesCarried']++;
  }
}
