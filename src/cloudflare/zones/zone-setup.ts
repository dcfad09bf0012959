/** What a zone's status, pause and DNS setup (`GET /zones`) mean for what resolvers are answered. */

/**
 * Why the zone's DNS answers proxied records with their origin instead of the proxy: `paused`,
 * or a status that is not active yet (`pending`, `initializing`); null when the proxy serves them.
 * A moved or deleted zone is not answered for at all.
 */
export function originAnsweredAs(status: string | null, paused: boolean | null): string | null {
  if (status === 'pending' || status === 'initializing') return status;
  return paused === true && (status === null || status === 'active') ? 'paused' : null;
}

/**
 * Whether public resolvers get the zone's records from the vendor's DNS as the API lists them, by
 * its setup `type`: not a partial (CNAME setup) zone, answered by the customer's own DNS, nor a
 * secondary one, whose records and signatures come from its primary, nor an internal one, not in
 * public DNS at all (vendor docs: partial setup, secondary DNS, Internal DNS).
 */
export function publicDnsIsHere(type: string | null): boolean {
  return type !== 'partial' && type !== 'secondary' && type !== 'internal';
}
