import { defineRule, SEVERITIES, type Severity } from '../src/policy/rule.js';

const DAY_MS = 86_400_000;

const period = (days: number) => (days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days.toLocaleString('en-US')} days`);

export default defineRule({
  meta: {
    id: 'certificate-expiry',
    title: 'Certificates are renewed well before they expire',
    description:
      'An expired edge certificate breaks every HTTPS request to its hosts: browsers show a full-page warning and API clients refuse to connect. Renewal is automatic for managed packs, but it can fail silently (a CAA record, a moved DNS record), and the only sign is a certificate that keeps getting closer to its end date.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'certificate',
    messages: {
      expired: 'the certificate for {{hosts}} expired {{period}} ago, on {{date}}',
      expiring: 'the certificate for {{hosts}} expires in {{period}}, on {{date}}',
    },
    remediation:
      'Find out why the renewal did not happen (the pack status and its validation errors say), fix the validation (DNS, CAA records), or order a new certificate pack for the hosts.',
    references: ['API spec: Resources and their fields (Certificate: expires_on)', 'api-facts: certificate expires_on can be absent while a pack is being issued'],
    optionHelp: {
      tiers: 'days before expiry from which a certificate is reported at each severity (0 for critical: expired)',
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
    let failed = false;
    for (const pack of packs.items) {
      if (pack.status === 'deleted') continue;
      for (const cert of pack.certificates) {
        if (cert.expiresOn === null) continue;
        const left = cert.expiresOn.getTime() - now;
        const tier = tiers.find(([, window]) => left <= window);
        if (!tier) continue;
        const hosts = (cert.hosts.length ? cert.hosts : pack.hosts).join(', ');
        // Rounded to the nearest day: a scan a few seconds after a renewal says "5 days", not 4.
        const days = Math.round(Math.abs(left) / DAY_MS);
        const data = { hosts: hosts || cert.id, days, period: period(days), date: cert.expiresOn.toISOString().slice(0, 10), expiresOn: cert.expiresOn.toISOString(), pack: pack.id };
        ctx.fail({ type: 'certificate', id: cert.id, name: hosts || null }, left <= 0 ? 'expired' : 'expiring', data, tier[0]);
        failed = true;
      }
    }
    if (!failed) ctx.pass();
  },
});
