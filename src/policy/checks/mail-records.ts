import { mailRecords, type MailRecords } from '../../cloudflare/dns/email-records.js';
import type { RuleOptions, ZoneContext } from '../rule.js';

/** The zone's mail records, or undefined once answered: a pass where public DNS is not here, unknown when not read. */
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
