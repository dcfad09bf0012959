/**
 * What the scan learnt of a name: it exists (any answer, or NOERROR with no data of the type
 * asked: RFC 2308 2.2), it does not (NXDOMAIN: RFC 1034 4.3.2, RFC 2308 2.1), or it could not be
 * told (SERVFAIL, a timeout, a refusal), which is never a pass or a failure.
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

/**
 * Whether a scan's resolver was believed, asked first about a few names known to exist (name
 * servers the API assigned to the scanned zones). One that answers NXDOMAIN for them (a locked-down
 * CI runner, a broken forwarder) or nothing is believed about no name: every target is `unknown`.
 * Kept in the scan's summary (`resolver`), which says it once.
 */
export interface ResolverCheck {
  /** --resolver's, or the system's. */
  servers: string[];
  names: Array<{ name: string; answer: TargetAnswer['answer']; reason?: string }>;
  trusted: boolean;
  /** Why the resolver was not believed, naming what to do; null when it was. */
  reason: string | null;
}

/** What each target's answer says when the resolver was not believed: short, the summary says the rest. */
export function unbelievedAnswer(check: ResolverCheck): TargetAnswer {
  const denied = check.names.some((n) => n.answer === 'nxdomain');
  const why = denied
    ? 'the resolver answered NXDOMAIN for names known to exist, so none of its answers was believed'
    : check.names.length === 0
      ? 'the resolver could not be checked against names known to exist, so none of its answers was believed'
      : 'the resolver gave no answer about names known to exist';
  return { answer: 'unknown', reason: `${why} (the scan's summary and the report's scan health say which and what to pass as --resolver)` };
}
