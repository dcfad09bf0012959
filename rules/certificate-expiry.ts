import { allCovered, DAY_MS, freshCoverage, isManaged, LAST_ATTEMPT_DAYS, packExpiry, packStatus, renewalWindowDays, SERVING_STATUSES, successors, validityDays, type ServedCertificate } from '../src/cloudflare/ssl/certificates.js';
import type { Certificate, CertificatePack } from '../src/cloudflare/ssl/certificate-pack.js';
import { defineRule, SEVERITIES, type Severity } from '../src/policy/rule.js';

const period = (days: number) => (days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days.toLocaleString('en-US')} days`);

/** A custom certificate whose hosts another serves once it is gone: one step below its tier, never above medium. */
function softened(severity: Severity): Severity {
  return SEVERITIES[Math.min(SEVERITIES.length - 1, Math.max(SEVERITIES.indexOf(severity) + 1, SEVERITIES.indexOf('medium')))]!;
}

const TYPE_NAMES: Readonly<Record<string, string>> = { total_tls: 'advanced (Total TLS)', sni_custom: 'custom', legacy_custom: 'custom legacy', mh_custom: 'custom hostname' };

/**
 * An uploaded pack is judged once, on its serving certificate that expires first, for all its hosts
 * (vendor docs, custom certificates, "Renewal and expiration": the pack expires as one). Null: no expiry.
 */
function uploadedPackJudged(pack: CertificatePack): { cert: Certificate & { expiresOn: Date }; hosts: string[] } | null {
  let first: (Certificate & { expiresOn: Date }) | null = null;
  for (const c of pack.certificates) {
    if (c.expiresOn === null || (c.status !== null && !SERVING_STATUSES.has(c.status))) continue;
    if (first === null || c.expiresOn < first.expiresOn) first = c as Certificate & { expiresOn: Date };
  }
  if (first === null) return null;
  const hosts = [...new Set(pack.certificates.flatMap((c) => (c.hosts.length ? c.hosts : pack.hosts)))];
  return { cert: first, hosts };
}

/** The certificates that take over a leaving one's hosts, named for its message: type, hosts, end. */
function describeSuccessors(served: readonly ServedCertificate[]): string {
  return served
    .map(({ pack, hosts, until }) => `the ${pack.type === null ? 'other' : (TYPE_NAMES[pack.type] ?? pack.type)} certificate for ${hosts.join(', ')} (valid until ${until.toISOString().slice(0, 10)})`)
    .join(' and ');
}

export default defineRule({
  meta: {
    id: 'certificate-expiry',
    title: 'Certificates are renewed before they expire',
    description:
      'An expired edge certificate breaks every HTTPS request to its hosts: browsers show a full-page warning and API clients refuse to connect. Managed certificates renew on their own from a window before expiry that depends on their validity (30 days for 90-day and 1-year certificates, 7 for 30-day, 3 for 14-day), so a managed certificate fails only once it is inside that window and no fresher certificate serves its hosts: the renewal is not happening (a CAA record, a moved DNS record). Custom certificates never renew on their own and are judged by fixed tiers of days left. When a custom certificate expires the vendor removes it and serves the next certificate covering each of its hosts (a universal or advanced one): HTTPS goes on, but with a certificate the owner did not choose, so such a certificate is still reported, one step lower (at most medium), naming the certificate that takes over. One replaced by a later custom certificate for all its hosts is not reported. The certificates of an uploaded pack are one object: the pack expires at the soonest expiry among them and is removed whole, so it is judged once, at that date, for the hosts of all its certificates, and neither its own other certificates nor a pack that is itself removed sooner count as taking over.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'certificate',
    messages: {
      expired: 'the certificate for {{hosts}} expired {{period}} ago, on {{date}}',
      notRenewed: 'the certificate for {{hosts}} expires in {{period}}, on {{date}}, and has not been renewed: renewal of {{kind}} starts {{window}} days before expiry',
      expiring: 'the custom certificate for {{hosts}} expires in {{period}}, on {{date}}; custom certificates are not renewed automatically',
      expiringFallback:
        'the custom certificate for {{hosts}} expires in {{period}}, on {{date}}, and is not renewed automatically; once it expires the vendor serves {{successors}} in its place',
      expiredFallback: 'the custom certificate for {{hosts}} expired {{period}} ago, on {{date}}; the vendor serves {{successors}} in its place',
    },
    remediation:
      'For a managed certificate, find out why the renewal did not happen (the pack status and its validation errors say), fix the validation (DNS, CAA records) or order a new certificate pack for the hosts. For a custom certificate, upload a renewed certificate before the date, or, where the certificate that takes over will do, delete the custom one.',
    references: [
      'API spec: Resources and their fields (Certificate pack: validity_days; Certificate: uploaded_on, expires_on)',
      'vendor docs: certificate renewal (renewal starts 30 days before expiry for 90-day and 1-year certificates, 7 for 30-day, 3 for 14-day; attempts continue until a day before)',
      'docs/api-surface.md, answers beyond the spec: a certificate can have no expires_on while its pack is being issued',
      'vendor docs: Certificate and hostname priority (exact hostname before wildcard; then keyless, custom legacy, custom, custom hostname, advanced, Total TLS, universal; then the latest)',
      'vendor docs: custom certificates, renewal and expiration (an expired custom certificate is removed and its hosts fall back to any other active certificate covering them; the certificates of a pack are treated as one object, the pack expires at the soonest Not After among them and is removed whole)',
    ],
    optionHelp: {
      tiers:
        'for custom certificates (which never renew on their own): days before expiry from which a certificate is reported at each severity (0 for critical: expired); one whose hosts another certificate serves after it is reported one step lower, at most medium',
    },
  },
  defaultOptions: { tiers: { critical: 0, high: 7, medium: 14, low: 30 } as Record<string, number> },
  check(ctx) {
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);
    const now = ctx.now.getTime();
    // The most severe tier whose window the certificate is in wins, whatever the tiers' order.
    const tiers = SEVERITIES.flatMap((severity): Array<[Severity, number]> => {
      const days = ctx.options.tiers[severity];
      return days === undefined ? [] : [[severity, days * DAY_MS]];
    });

    /** The verdict on one certificate: null when it passes. */
    const judge = (pack: CertificatePack, cert: Certificate, left: number): { messageId: string; severity: Severity; extra?: Record<string, unknown> } | null => {
      if (left <= 0) return { messageId: 'expired', severity: 'critical' };
      if (!isManaged(pack)) {
        const tier = tiers.find(([, window]) => left <= window);
        return tier ? { messageId: 'expiring', severity: tier[0] } : null;
      }
      const validity = validityDays(pack, cert);
      const window = renewalWindowDays(validity);
      if (left > window * DAY_MS) return null;
      // Close to expiry: the second half of the renewal window, and always the last day, when the vendor has stopped trying.
      const close = left <= Math.max(LAST_ATTEMPT_DAYS, window / 2) * DAY_MS;
      return { messageId: 'notRenewed', severity: close ? 'high' : 'medium', extra: { validity, window, kind: validity === null ? 'a certificate of unknown validity' : `a ${validity}-day certificate` } };
    };

    let clean = true;
    for (const pack of packs.items) {
      const status = packStatus(pack);
      if (status !== null && !SERVING_STATUSES.has(status)) continue;
      const managed = isManaged(pack);
      const uploaded = managed ? null : uploadedPackJudged(pack);
      for (const cert of pack.certificates) {
        if (cert.status !== null && !SERVING_STATUSES.has(cert.status)) continue;
        // An uploaded pack is judged once, on its first-expiring certificate (uploadedPackJudged).
        if (uploaded && cert.expiresOn !== null && cert !== uploaded.cert) continue;
        const hostList = uploaded && cert === uploaded.cert ? uploaded.hosts : cert.hosts.length ? cert.hosts : pack.hosts;
        const hosts = hostList.join(', ');
        const resource = { type: 'certificate', id: cert.id, name: hosts || null };
        if (cert.expiresOn === null) {
          // Being issued is normal for a pending pack; an active pack serves a certificate whose end is unknown.
          if (status === 'active') {
            ctx.unknown(resource, 'the active certificate has no expires_on');
            clean = false;
          }
          continue;
        }
        // When the vendor stops serving it: for an uploaded pack, the soonest expiry of the pack.
        const expiresOn = managed ? cert.expiresOn : (packExpiry(pack) ?? cert.expiresOn);
        const left = expiresOn.getTime() - now;
        let verdict = judge(pack, cert, left);
        if (!verdict) continue;
        if (managed) {
          // Renewed, or replaced by another pack: the hosts are served by a certificate outside its renewal window.
          if (allCovered(hostList, freshCoverage(packs.items, now, cert, expiresOn.getTime()))) continue;
        } else if (hostList.length) {
          // The rest of the certificate's own pack is removed with it, so it takes over nothing.
          const next = successors(packs.items, now, cert, expiresOn.getTime(), hostList);
          if (next) {
            const served = [...new Set(next.values())];
            // Replaced by the owner: later custom certificates cover every host (the vendor removes the expiring one).
            if (served.every((s) => !isManaged(s.pack))) continue;
            verdict = {
              messageId: left <= 0 ? 'expiredFallback' : 'expiringFallback',
              severity: softened(verdict.severity),
              extra: { successors: describeSuccessors(served), successorCertificates: served.map((s) => ({ certificate: s.cert.id, pack: s.pack.id, type: s.pack.type })) },
            };
          }
        }
        // Rounded to the nearest day: a scan a few seconds after a renewal says "5 days", not 4.
        const days = Math.round(Math.abs(left) / DAY_MS);
        const data = { hosts: hosts || cert.id, days, period: period(days), date: expiresOn.toISOString().slice(0, 10), expiresOn: expiresOn.toISOString(), pack: pack.id, ...verdict.extra };
        ctx.fail(resource, verdict.messageId, data, verdict.severity);
        clean = false;
      }
    }
    if (clean) ctx.pass();
  },
});
