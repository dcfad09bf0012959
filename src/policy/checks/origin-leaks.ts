import { specialOptions, type AddressOptions } from './address-options.js';
import { targetJudge } from './dangling-targets.js';
import { originExposures, type Exposure } from '../../cloudflare/dns/origin-exposure.js';
import type { ZoneContext } from '../rule.js';
import type { DnsRecordFields } from '../../snapshot/reader.js';

/** The records that reveal an origin at a public address (dns-origin-exposed, origin-pulls-off), dangling targets aside. */
export function originLeaks(ctx: ZoneContext<AddressOptions>, records: readonly DnsRecordFields[]): Exposure[] {
  const judge = targetJudge(ctx);
  return originExposures(records, ctx.zone.originAnsweredAs, specialOptions(ctx.options)).filter((e) => judge(e.record).status !== 'dangling');
}
