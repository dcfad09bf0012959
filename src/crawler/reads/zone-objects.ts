import { fillPath, ZONE_OBJECT_READS } from '../../api/endpoints.js';
import { readEntrypoint } from './entrypoint.js';
import type { ZoneRead } from './zone-read.js';

/**
 * DNSSEC: changed by logged writes, but a pending state moves on when the registrar publishes the
 * DS record, which no log of this API records: read every night while pending.
 */
export const dnssec: ZoneRead = {
  name: 'DNSSEC',
  endpoint: `GET ${ZONE_OBJECT_READS.dnssec}`,
  scope: 'zone',
  partitions: ['dnssec'],
  refresh: 'date',
  dueByDate: ({ stored }) => stored === null || stored.dnssecPending(),
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('dnssec')) return;
    await kit.readObject(zone, 'dnssec', fillPath(ZONE_OBJECT_READS.dnssec, { zone_id: zone.id }));
  },
};

export const universalSsl: ZoneRead = {
  name: 'Universal SSL settings',
  endpoint: `GET ${ZONE_OBJECT_READS.universal_ssl}`,
  scope: 'zone',
  partitions: ['universal_ssl'],
  refresh: 'zone-changed',
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('universal_ssl')) return;
    await kit.readObject(zone, 'universal_ssl', fillPath(ZONE_OBJECT_READS.universal_ssl, { zone_id: zone.id }));
  },
};

/** The custom rules phase entry point, by its version in the rulesets list. */
export const customEntrypoint: ZoneRead = {
  name: 'custom rules entry point',
  endpoint: `GET ${ZONE_OBJECT_READS.custom_entrypoint}`,
  scope: 'zone',
  partitions: ['custom_entrypoint'],
  refresh: 'ruleset-version',
  async run(kit, facts) {
    if (!kit.reads?.objects.includes('custom_entrypoint')) return;
    await readEntrypoint(kit, facts, 'custom_entrypoint', 'http_request_firewall_custom');
  },
};

/**
 * The zone's bot settings (Bot Fight Mode, Super Bot Fight Mode or Bot Management, by plan): one
 * object every zone has, changed only by logged writes.
 */
export const botManagement: ZoneRead = {
  name: 'bot management settings',
  endpoint: `GET ${ZONE_OBJECT_READS.bot_management}`,
  scope: 'zone',
  partitions: ['bot_management'],
  refresh: 'zone-changed',
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('bot_management')) return;
    await kit.readObject(zone, 'bot_management', fillPath(ZONE_OBJECT_READS.bot_management, { zone_id: zone.id }));
  },
};

/** Whether zone-level authenticated origin pulls is on (`{enabled}`, false by default). */
export const originPulls: ZoneRead = {
  name: 'authenticated origin pulls setting',
  endpoint: `GET ${ZONE_OBJECT_READS.origin_pulls}`,
  scope: 'zone',
  partitions: ['origin_pulls'],
  refresh: 'zone-changed',
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('origin_pulls')) return;
    await kit.readObject(zone, 'origin_pulls', fillPath(ZONE_OBJECT_READS.origin_pulls, { zone_id: zone.id }));
  },
};

/** The rate limiting rules phase entry point (`http_ratelimit`), by its version in the rulesets list. */
export const ratelimitEntrypoint: ZoneRead = {
  name: 'rate limiting rules entry point',
  endpoint: `GET ${ZONE_OBJECT_READS.ratelimit_entrypoint}`,
  scope: 'zone',
  partitions: ['ratelimit_entrypoint'],
  refresh: 'ruleset-version',
  async run(kit, facts) {
    if (!kit.reads?.objects.includes('ratelimit_entrypoint')) return;
    await readEntrypoint(kit, facts, 'ratelimit_entrypoint', 'http_ratelimit');
  },
};
