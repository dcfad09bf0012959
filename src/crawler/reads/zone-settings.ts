import { migration } from './migration.js';
import { listTellsDevelopmentMode, type ReadModule } from './zone-read.js';

/**
 * The settings the catalogue's rules declare, one call each (the all-settings call was switched
 * off on 2026-09-15), into one partition. A setting the zone's plan does not offer is answered 200
 * with `editable: false` (vendor's API reference), stored as answered. An error, a 404 code 7003
 * included (a route the API does not know), is a failed read: the partition is left failed with
 * what was read before it, never taken for "not offered". The legacy `waf` switch is not asked of
 * a migrated zone (gone with the previous managed rules) nor of a Free zone (never offered).
 * Development Mode is not asked where the zone list carries it (`development_mode`, its seconds
 * left): the rule judges it from there; a list without the field has the setting read as before.
 */
export const zoneSettings: ReadModule = {
  name: 'zone settings',
  endpoint: 'GET /zones/{zone_id}/settings/{setting_id} (one call per declared setting)',
  scope: 'zone',
  partitions: ['zone_settings'],
  refresh: 'zone-changed',
  // The legacy waf switch is asked of a zone not migrated only.
  decidedBy: [migration],
  async run(kit, facts) {
    const reads = kit.reads;
    if (!reads) return;
    const zone = facts.zone;
    const settings = reads.settings.filter((s) => (s !== 'waf' || (!facts.migrated && zone.plan?.legacy_id !== 'free')) && (s !== 'development_mode' || !listTellsDevelopmentMode(zone)));
    if (settings.length === 0) return;
    const partition = kit.partition('zone', zone.id, 'zone_settings');
    const items: Array<Record<string, unknown>> = [];
    for (const id of settings) {
      try {
        const answer = await kit.client(zone).get<Record<string, unknown>>(`/zones/${encodeURIComponent(zone.id)}/settings/${id}`, { signal: kit.signal });
        const r = answer.result;
        items.push(r && typeof r === 'object' ? { ...r, id } : { id, value: r });
        kit.succeeded(zone, 'zone_settings');
      } catch (err) {
        // A failure that may pass: every setting is read again in the repair pass, into this partition.
        if (kit.deferred(err, partition, () => zoneSettings.run(kit, facts))) return;
        partition.write(items);
        kit.failed(partition, err, items.length, items.length, zone.name);
        return;
      }
    }
    partition.write(items);
    partition.finish({ state: 'ok', pages: settings.length, items: items.length });
  },
};
