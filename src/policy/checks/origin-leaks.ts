import { specialOptions, type AddressOptions } from './address-options.js';
import { targetJudge } from './dangling-targets.js';
import { originExposures, type Exposure } from '../../cloudflare/dns/origin-exposure.js';
import type { ZoneContext } from '../rule.js';
import type { DnsRecordFields } from '../../snapshot/reader.js';

/**
 * The records that reveal an origin as dns-origin-exposed reports them, and origin-pulls-off counts
 * them: the exposures of origin-exposure.ts at public addresses (as dns-private-address's options
 * say), without a CNAME or MX whose target does not exist (it reveals nothing; dns-dangling-target
 * reports it).
 */
export function originLeaks(ctx: ZoneContext<AddressOptions>, records: readonly DnsRecordFields[]): Exposure[] {
  const judge = targetJudge(ctx);
  return originExposures(records, ctx.zone.originAnsweredAs, specialOptions(ctx.options)).filter((e) => judge(e.record).status !== 'dangling');
}
