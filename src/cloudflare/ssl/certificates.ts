import { HostPatterns, normaliseHostname } from '../dns/hostnames.js';
import type { Certificate, CertificatePack } from './certificate-pack.js';

/** What the vendor documents about its certificate packs: which renew themselves, when, and what serves a host. */

export const DAY_MS = 86_400_000;

/** Statuses of a pack or certificate that is served: active, or expired and still in place (an absent status counts too). */
export const SERVING_STATUSES: ReadonlySet<string> = new Set(['active', 'expired']);

/** Whether the vendor serves the certificate: its pack's status and its own are serving ones, or say nothing. */
export function isServing(pack: CertificatePack, cert: Certificate): boolean {
  const status = packStatus(pack);
  return (status === null || SERVING_STATUSES.has(status)) && (cert.status === null || SERVING_STATUSES.has(cert.status));
}

/** Pack types whose certificates the vendor orders and renews; every other type is uploaded by the customer. */
const MANAGED_PACK_TYPES: ReadonlySet<string> = new Set(['universal', 'advanced', 'total_tls']);

/** The status a pack is judged by: its own, else (older answers) `active` when a certificate is, else theirs if shared. */
export function packStatus(pack: CertificatePack): string | null {
  if (pack.status !== null) return pack.status;
  const statuses = new Set(pack.certificates.map((c) => c.status).filter((s): s is string => s !== null));
  if (statuses.has('active')) return 'active';
  return statuses.size === 1 ? [...statuses][0]! : null;
}

/** A managed pack renews itself; a pack without a type is taken as managed when it orders a validity. */
export function isManaged(pack: CertificatePack): boolean {
  return pack.type === null ? pack.validityDays !== null : MANAGED_PACK_TYPES.has(pack.type);
}

/** The certificate's validity in days: the pack's `validity_days`, else from its issue and expiry dates. */
export function validityDays(pack: CertificatePack, cert: Certificate): number | null {
  if (pack.validityDays !== null) return pack.validityDays;
  if (cert.expiresOn === null || cert.uploadedOn === null) return null;
  const d = Math.round((cert.expiresOn.getTime() - cert.uploadedOn.getTime()) / DAY_MS);
  return d > 0 ? d : null;
}

/**
 * Days before expiry the vendor starts renewing a managed certificate (vendor docs, certificate renewal): 30 for
 * 90-day and 1-year ones, 7 for 30-day, 3 for 14-day; between, the next longer one's; unknown, the 90-day default's.
 */
export function renewalWindowDays(validity: number | null): number {
  if (validity === null) return 30;
  if (validity <= 14) return 3;
  if (validity <= 30) return 7;
  return 30;
}

/** Renewal attempts continue until a day before expiry (vendor docs, certificate renewal). */
export const LAST_ATTEMPT_DAYS = 1;

/**
 * When the vendor stops serving a certificate: its own expiry in a managed pack (renewal adds fresh ones beside it);
 * in an uploaded pack the pack's soonest expiry (vendor docs, custom certificates, "Renewal and expiration": the pack
 * is one object, removed whole when one certificate expires).
 */
export function servedUntil(pack: CertificatePack, cert: Certificate): Date | null {
  if (cert.expiresOn === null || isManaged(pack)) return cert.expiresOn;
  return packExpiry(pack);
}

/** The soonest expiry of a pack's certificates (the expiry of an uploaded pack, as above); null when none says. */
export function packExpiry(pack: CertificatePack): Date | null {
  let soonest: Date | null = null;
  for (const c of pack.certificates) if (c.expiresOn !== null && (soonest === null || c.expiresOn < soonest)) soonest = c.expiresOn;
  return soonest;
}

/**
 * The hosts of the certificates that supersede `except` (a pack or certificate, its uploaded pack left out whole):
 * active, outside their renewal window, and served after `expiring`.
 */
export function freshCoverage(packs: readonly CertificatePack[], now: number, except: CertificatePack | Certificate, expiring: number): HostPatterns<true> {
  const patterns = new HostPatterns<true>();
  for (const { hosts } of freshCertificates(packs, now, except, expiring)) for (const host of hosts) patterns.add(host, true);
  return patterns;
}

/** A certificate with its pack, the hosts it serves (its own, else its pack's), and until when (servedUntil). */
export interface ServedCertificate {
  pack: CertificatePack;
  cert: Certificate & { expiresOn: Date };
  hosts: readonly string[];
  until: Date;
}

/** The certificates freshCoverage counts. */
function freshCertificates(packs: readonly CertificatePack[], now: number, except: CertificatePack | Certificate, expiring: number): ServedCertificate[] {
  const exceptPack = packs.find((p) => p === except || p.certificates.includes(except as Certificate));
  const leavesWhole = exceptPack !== undefined && (exceptPack === except || !isManaged(exceptPack));
  const fresh: ServedCertificate[] = [];
  for (const pack of packs) {
    if ((leavesWhole && pack === exceptPack) || packStatus(pack) !== 'active') continue;
    for (const cert of pack.certificates) {
      if (cert === except || cert.expiresOn === null || (cert.status !== null && cert.status !== 'active')) continue;
      const until = servedUntil(pack, cert)!;
      const left = until.getTime() - now;
      const window = isManaged(pack) ? renewalWindowDays(validityDays(pack, cert)) * DAY_MS : 0;
      if (left <= window || until.getTime() <= expiring) continue;
      fresh.push({ pack, cert: cert as ServedCertificate['cert'], hosts: cert.hosts.length ? cert.hosts : pack.hosts, until });
    }
  }
  return fresh;
}

/** Whether every one of `hosts` is covered by `coverage` (false for no hosts: nothing shows it is served). */
export function allCovered(hosts: readonly string[], coverage: HostPatterns<true>): boolean {
  return hosts.length > 0 && hosts.every((h) => coverage.covers(h));
}

/** Where a pack's start was read from, by trust: the API's `created_on`, its earliest certificate, the first scan that saw it. */
export type PackStartSource = 'created_on' | 'uploaded_on' | 'first_seen';

/**
 * When a pack started: its `created_on`, else its earliest `uploaded_on`, else `firstSeen()` (a pack initializing can
 * come with neither date nor certificates), never before the true start: an age from it is "at least".
 */
export function packStartedAt(pack: CertificatePack, firstSeen: () => Date | null): { at: number; source: PackStartSource } | null {
  if (pack.createdOn) return { at: pack.createdOn.getTime(), source: 'created_on' };
  const issued = pack.certificates.map((c) => c.uploadedOn?.getTime()).filter((t): t is number => t !== undefined);
  if (issued.length) return { at: Math.min(...issued), source: 'uploaded_on' };
  // Asked only now: the history is one more query, needed by packs the API does not date.
  const seen = firstSeen();
  return seen ? { at: seen.getTime(), source: 'first_seen' } : null;
}

/** The type priority after hostname specificity (vendor docs, "Certificate and hostname priority"); unlisted types last. */
const TYPE_PRIORITY: Readonly<Record<string, number>> = {
  keyless: 1,
  legacy_custom: 2,
  sni_custom: 3,
  custom: 3,
  mh_custom: 4,
  managed_hostname: 4,
  advanced: 5,
  total_tls: 6,
  universal: 7,
};
const typePriority = (pack: CertificatePack) => (pack.type === null ? 8 : (TYPE_PRIORITY[pack.type] ?? 8));

/**
 * The certificate serving each of `hosts` once `leaving` is gone, among those freshCoverage counts: exact hostname
 * before wildcard, then type priority, then latest expiry (vendor docs, "Certificate and hostname priority"; custom
 * certificate renewal and expiration). Null when some host is left with none.
 */
export function successors(packs: readonly CertificatePack[], now: number, leaving: Certificate, expiring: number, hosts: readonly string[]): Map<string, ServedCertificate> | null {
  const candidates = freshCertificates(packs, now, leaving, expiring).map((c) => {
    const patterns = new HostPatterns<true>();
    for (const h of c.hosts) patterns.add(h, true);
    return { ...c, exact: new Set(c.hosts.map(normaliseHostname)), patterns };
  });
  const chosen = new Map<string, ServedCertificate>();
  for (const host of hosts) {
    const rank = (c: (typeof candidates)[number]) => [c.exact.has(normaliseHostname(host)) ? 0 : 1, typePriority(c.pack), -c.until.getTime()];
    let best: (typeof candidates)[number] | undefined;
    for (const c of candidates) {
      if (!c.patterns.covers(host)) continue;
      if (!best || lexicallyBefore(rank(c), rank(best))) best = c;
    }
    if (!best) return null;
    // The candidate itself: hosts served by one certificate share one entry.
    chosen.set(host, best);
  }
  return chosen;
}

function lexicallyBefore(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
