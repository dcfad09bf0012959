import { HostPatterns } from './hostnames.js';
import type { Certificate, CertificatePack } from './models.js';

/**
 * What the vendor documents about its certificate packs, shared by the certificate rules:
 * which packs renew on their own, when renewal starts, and whether another pack serves a
 * certificate's hosts.
 */

export const DAY_MS = 86_400_000;

/** Pack types whose certificates the vendor orders and renews; every other type is uploaded by the customer. */
export const MANAGED_PACK_TYPES: ReadonlySet<string> = new Set(['universal', 'advanced', 'total_tls']);

/**
 * The status a pack is judged by: its own, or for an older answer without one, its
 * certificates' (`active` when any of them is, else the status they share).
 */
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
 * Days before expiry at which the vendor starts renewing a managed certificate (vendor docs,
 * certificate renewal): 30 for 90-day and 1-year certificates, 7 for 30-day ones, 3 for 14-day
 * ones. A validity between those is given the window of the next longer one; an unknown validity
 * the 30-day window of the default 90-day certificate.
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
 * The hosts served by certificates that are active and not themselves in their renewal window:
 * a certificate whose hosts all match is superseded (renewed, or replaced by another pack).
 * `except` leaves out the pack or the certificate being judged, and only certificates that expire
 * after `expiring` count (an older certificate supersedes nothing).
 */
export function freshCoverage(packs: readonly CertificatePack[], now: number, except: CertificatePack | Certificate, expiring: number): HostPatterns<true> {
  const patterns = new HostPatterns<true>();
  for (const pack of packs) {
    if (pack === except || packStatus(pack) !== 'active') continue;
    for (const cert of pack.certificates) {
      if (cert === except || cert.expiresOn === null || (cert.status !== null && cert.status !== 'active')) continue;
      const left = cert.expiresOn.getTime() - now;
      const window = isManaged(pack) ? renewalWindowDays(validityDays(pack, cert)) * DAY_MS : 0;
      if (left <= window || cert.expiresOn.getTime() <= expiring) continue;
      for (const host of cert.hosts.length ? cert.hosts : pack.hosts) patterns.add(host, true);
    }
  }
  return patterns;
}

/** Whether every one of `hosts` is covered by `coverage` (false for no hosts: nothing shows it is served). */
export function allCovered(hosts: readonly string[], coverage: HostPatterns<true>): boolean {
  return hosts.length > 0 && hosts.every((h) => coverage.covers(h));
}
