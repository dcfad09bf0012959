/**
 * What the scan learnt of a name: it exists (any answer, or NOERROR with no data of the type
 * asked: RFC 2308 2.2), it does not (NXDOMAIN, name error: RFC 1034 4.3.2, RFC 2308 2.1), or it
 * could not be told (SERVFAIL, a timeout, a refusal), which is never a pass or a failure.
 */
export type TargetAnswer = { answer: 'exists' } | { answer: 'nxdomain' } | { answer: 'unknown'; reason: string };

/** One stored resolution, a zone_objects row of `dns_targets` per name (item id: the name). */
export interface DnsTargetItem {
  name: string;
  /** The types of the zone's records that point at the name, e.g. `CNAME` or `MX,SRV`. */
  type: string;
  answer: TargetAnswer['answer'];
  reason?: string;
}

export function isDnsTargetItem(value: unknown): value is DnsTargetItem {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v['name'] === 'string' && typeof v['type'] === 'string' && (v['answer'] === 'exists' || v['answer'] === 'nxdomain' || v['answer'] === 'unknown');
}
