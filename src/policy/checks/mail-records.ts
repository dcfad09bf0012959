import { mailRecords, type MailRecords } from '../../cloudflare/dns/email-records.js';
import type { RuleOptions, ZoneContext } from '../rule.js';

/**
 * The zone's mail records, or undefined once the check has been answered: not applicable (a pass)
 * where what receivers resolve is not these records (partial, secondary and internal zones, see
 * ZoneView.publicDnsIsHere), unknown where the DNS records were not read.
 */
export function mailRecordsOrAnswer(ctx: ZoneContext<RuleOptions>): MailRecords | undefined {
  if (!ctx.zone.publicDnsIsHere) {
    ctx.pass();
    return undefined;
  }
  const records = ctx.zone.dnsRecords();
  if (!records.known) {
    ctx.unknown(ctx.zone.resource, records.reason);
    return undefined;
  }
  return mailRecords(ctx.zone.name, records.items);
}
