import { readDeclarationOf } from '../../cloudflare/reads.js';
import { DEFERRED } from '../zone-item.js';
import { repairedThenWaiting, type ReadModule } from './zone-read.js';

/** The zone's DNS records: changed only by writes, which the audit log records. */
export const dnsRecords: ReadModule = {
  ...readDeclarationOf('dns_records'),
  async run(kit, facts) {
    // Deferred to the repair pass: what is resolved from the records (dns-targets.ts) waits with them.
    const read = await kit.readZoneList(facts.zone, 'dnsRecords', 'dns_records', () => repairedThenWaiting(dnsRecords, kit, facts));
    return read === null ? DEFERRED : undefined;
  },
};
