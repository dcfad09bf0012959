/** What a zone's status, pause and DNS setup (`GET /zones`) mean for what resolvers are answered. */

/**
 * Why the zone's DNS answers proxied records with their origin: `paused`, or not active yet (`pending`,
 * `initializing`); null when the proxy serves them (a moved or deleted zone is not answered for at all).
 */
export function originAnsweredAs(status: string | null, paused: boolean | null): string | null {
  if (status === 'pending' || status === 'initializing') return status;
  return paused === true && (status === null || status === 'active') ? 'paused' : null;
}

/**
 * Whether public resolvers get the records the API lists from the vendor's DNS: not for a partial zone (the
 * customer's DNS answers), a secondary (its primary does), nor internal (vendor docs: partial setup, secondary DNS, Internal DNS).
 */
export function publicDnsIsHere(type: string | null): boolean {
  return type !== 'partial' && type !== 'secondary' && type !== 'internal';
}
