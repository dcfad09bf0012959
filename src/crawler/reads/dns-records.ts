import type { ZoneRead } from './zone-read.js';

/** The zone's DNS records: changed only by writes, which the audit log records. */
export const dnsRecords: ZoneRead = {
  name: 'DNS records',
  endpoint: 'GET /zones/{zone_id}/dns_records',
  scope: 'zone',
  partitions: ['dns_records'],
  refresh: 'zone-changed',
  run: async (kit, { zone }) => void (await kit.readZoneList(zone, 'dnsRecords', 'dns_records')),
};
