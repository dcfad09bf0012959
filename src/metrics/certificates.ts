import { allCovered, DAY_MS, freshCoverage, isManaged, isServing, renewalWindowDays, servedUntil, validityDays } from '../cloudflare/ssl/certificates.js';
import { parseCertificatePack } from '../cloudflare/ssl/certificate-pack.js';
import type { SnapshotReader } from '../snapshot/reader.js';
import { gauge, type MetricFamily, type Sample } from './exposition.js';

/**
 * One series per served certificate of the audited scan, in three families with the same labels
 * (an alert joins them one to one), asked as the certificate-expiry rule asks, at the time the
 * metrics are taken. hosts adds no series (one value per certificate); at most HOSTS_SHOWN are named.
 */

/** An uploaded certificate is never renewed by the vendor: the rule's default lowest tier (30 days before expiry). */
const CUSTOM_RENEWAL_DAYS = 30;
const HOSTS_SHOWN = 5;

function hostsLabel(hosts: readonly string[]): string {
  const shown = hosts.slice(0, HOSTS_SHOWN).join(',');
  return hosts.length > HOSTS_SHOWN ? `${shown},+${hosts.length - HOSTS_SHOWN} more` : shown;
}

export function certificateFamilies(reader: SnapshotReader | null, now: Date): MetricFamily[] {
  const expiry: Sample[] = [];
  const window: Sample[] = [];
  const successor: Sample[] = [];
  for (const zone of reader?.zones() ?? []) {
    const readout = reader!.certificatePacks(zone.id);
    if (!readout.known) continue;
    const packs = readout.items.map((r) => parseCertificatePack(r.id, r.raw));
    for (const pack of packs) {
      for (const cert of pack.certificates) {
        const until = servedUntil(pack, cert);
        if (until === null || !isServing(pack, cert)) continue;
        const hosts = cert.hosts.length ? cert.hosts : pack.hosts;
        const labels = { zone: zone.name, certificate: cert.id, pack_type: pack.type ?? '', hosts: hostsLabel(hosts) };
        const days = isManaged(pack) ? renewalWindowDays(validityDays(pack, cert)) : CUSTOM_RENEWAL_DAYS;
        expiry.push({ labels, value: until.getTime() / 1000 });
        window.push({ labels, value: (days * DAY_MS) / 1000 });
        successor.push({ labels, value: allCovered(hosts, freshCoverage(packs, now.getTime(), cert, until.getTime())) ? 1 : 0 });
      }
    }
  }
  return [
    gauge(
      'zonewarden_certificate_expiry_timestamp_seconds',
      'When the vendor stops serving the certificate: its expiry (for an uploaded pack, the soonest expiry of the pack, which is removed whole).',
      expiry,
    ),
    gauge(
      'zonewarden_certificate_renewal_window_seconds',
      'How long before expiry the certificate should be renewed: the vendor starts renewing a managed one then (30 days for 90-day and 1-year certificates, 7 for 30-day, 3 for 14-day); 30 days for an uploaded one.',
      window,
    ),
    gauge(
      'zonewarden_certificate_has_successor',
      '1 when newer active certificates, outside their own renewal window and served longer, cover every host of the certificate (renewed or replaced), else 0.',
      successor,
    ),
  ];
}
