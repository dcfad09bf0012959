import { allCovered, DAY_MS, freshCoverage, isManaged, LAST_ATTEMPT_DAYS, packStatus, renewalWindowDays, validityDays } from '../src/policy/certificates.js';
import type { Certificate, CertificatePack } from '../src/policy/models.js';
import { defineRule, SEVERITIES, type Severity } from '../src/policy/rule.js';

const period = (days: number) => (days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days.toLocaleString('en-US')} days`);

/** Packs whose certificate is served: an active one, an expired one still in place, or one that does not say. */
const SERVING = new Set(['active', 'expired']);

export default defineRule({
  meta: {
    id: 'certificate-expiry',
    title: 'Certificates are renewed before they expire',
    description:
      'An expired edge certificate breaks every HTTPS request to its hosts: browsers show a full-page warning and API clients refuse to connect. Managed certificates renew on their own from a window before expiry that depends on their validity (30 days for 90-day and 1-year certificates, 7 for 30-day, 3 for 14-day), so a managed certificate fails only once it is inside that window and no fresher certificate serves its hosts: the renewal is not happening (a CAA record, a moved DNS record). Custom certificates never renew on their own and are judged by fixed tiers of days left.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'certificate',
    messages: {
      expired: 'the certificate for {{hosts}} expired {{period}} ago, on {{date}}',
      notRenewed: 'the certificate for {{hosts}} expires in {{period}}, on {{date}}, and has not been renewed: renewal of {{kind}} starts {{window}} days before expiry',
      expiring: 'the custom certificate for {{hosts}} expires in {{period}}, on {{date}}; custom certificates are not renewed automatically',
    },
    remediation:
      'For a managed certificate, find out why the renewal did not happen (the pack status and its validation errors say), fix the validation (DNS, CAA records) or order a new certificate pack for the hosts. For a custom certificate, upload a renewed certificate before the date.',
    references: [
      'API spec: Resources and their fields (Certificate pack: validity_days; Certificate: uploaded_on, expires_on)',
      'vendor docs: certificate renewal (renewal starts 30 days before expiry for 90-day and 1-year certificates, 7 for 30-day, 3 for 14-day; attempts continue until a day before)',
      'docs/api-surface.md, answers beyond the spec: a certificate can have no expires_on while its pack is being issued',
    ],
    optionHelp: {
      tiers: 'for custom certificates (which never renew on their own): days before expiry from which a certificate is reported at each severity (0 for critical: expired)',
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
      if (status !== null && !SERVING.has(status)) continue;
      for (const cert of pack.certificates) {
        if (cert.status !== null && !SERVING.has(cert.status)) continue;
        const hostList = cert.hosts.length ? cert.hosts : pack.hosts;
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
        const left = cert.expiresOn.getTime() - now;
        const verdict = judge(pack, cert, left);
        // Renewed, or replaced by another pack: the hosts are served by a certificate outside its renewal window.
        if (!verdict || allCovered(hostList, freshCoverage(packs.items, now, cert, cert.expiresOn.getTime()))) continue;
        // Rounded to the nearest day: a scan a few seconds after a renewal says "5 days", not 4.
        const days = Math.round(Math.abs(left) / DAY_MS);
        const data = { hosts: hosts || cert.id, days, period: period(days), date: cert.expiresOn.toISOString().slice(0, 10), expiresOn: cert.expiresOn.toISOString(), pack: pack.id, ...verdict.extra };
        ctx.fail(resource, verdict.messageId, data, verdict.severity);
        clean = false;
      }
    }
    if (clean) ctx.pass();
  },
});
