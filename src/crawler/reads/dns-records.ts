import { DEFERRED, repairedThenHeld, type ZoneRead } from './zone-read.js';

/** The zone's DNS records: changed only by writes, which the audit log records. */
export const dnsRecords: ZoneRead = {
  name: 'DNS records',
  endpoint: 'GET /zones/{zone_id}/dns_records',
  scope: 'zone',
  partitions: ['dns_records'],
  refresh: 'zone-changed',
  async run(kit, facts) {
    // Deferred to the repair pass: what is resolved from the records (dns-targets.ts) waits with them.
    const read = await kit.readZoneList(facts.zone, 'dnsRecords', 'dns_records', () => repairedThenHeld(dnsRecords, kit, facts));
    return read === null ? DEFERRED : undefined;
  },
};
