import { migration } from './migration.js';
import { listTellsDevelopmentMode } from '../zone-item.js';
import type { ReadModule } from './zone-read.js';

/**
 * The settings the rules declare, one call each (the all-settings call was switched off on
 * 2026-09-15). A setting the plan does not offer answers 200 with `editable: false` (vendor's API
 * reference); an error, 404 code 7003 included, fails the partition, never "not offered". The legacy
 * `waf` switch is not asked of a migrated or Free zone, nor Development Mode where the zone list carries it.
 */
export const zoneSettings: ReadModule = {
  name: 'zone settings',
  endpoint: 'GET /zones/{zone_id}/settings/{setting_id} (one call per declared setting)',
  scope: 'zone',
  partitions: ['zone_settings'],
  refresh: 'zone-changed',
  decidedBy: [migration],
  async run(kit, facts) {
    const reads = kit.reads;
    if (!reads) return;
    const zone = facts.zone;
    const settings = reads.settings.filter((s) => (s !== 'waf' || (!facts.migrated && zone.plan?.legacy_id !== 'free')) && (s !== 'development_mode' || !listTellsDevelopmentMode(zone)));
    if (settings.length === 0) return;
    const partition = kit.book.partition('zone', zone.id, 'zone_settings');
    const items: Array<Record<string, unknown>> = [];
    for (const id of settings) {
      try {
        const answer = await kit.client(zone).get<Record<string, unknown>>(`/zones/${encodeURIComponent(zone.id)}/settings/${id}`, { signal: kit.signal });
        const r = answer.result;
        items.push(r && typeof r === 'object' ? { ...r, id } : { id, value: r });
        kit.book.answered('zone', zone.id, 'zone_settings');
      } catch (err) {
        if (kit.book.deferred(err, partition, () => zoneSettings.run(kit, facts))) return;
        partition.write(items);
        kit.book.failed(partition, err, items.length, items.length, zone.name);
        return;
      }
    }
    partition.write(items);
    partition.finish({ state: 'ok', pages: settings.length, items: items.length });
  },
};
