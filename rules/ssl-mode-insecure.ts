import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'ssl-mode-insecure',
    title: 'Traffic to the origin is encrypted and the origin certificate validated',
    description:
      'The SSL mode decides how the edge talks to the origin. `off` serves visitors in clear text; `flexible` encrypts the visitor side only and sends every request, cookies and passwords included, to the origin in clear; `full` encrypts but accepts any certificate, so anyone on the path can impersonate the origin. `strict` validates it, and `origin_pull` (Strict, SSL-only origin pull, Enterprise) validates it the same way and always connects to the origin over TLS. `off` on a zone with no proxied record carries no traffic through the edge today, so it is reported low: any record proxied later would be served in clear text.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'zone',
    reads: ['setting:ssl'],
    messages: {
      off: 'SSL is off: visitors and the origin are served in clear text{{locked}}',
      offUnproxied: 'SSL is off, but no DNS record is proxied, so no traffic passes through the edge today; a record proxied later would be served in clear text{{locked}}',
      flexible: 'SSL mode is flexible: requests travel from the edge to the origin in clear text{{locked}}',
      notStrict: 'SSL mode is full: the origin certificate is not validated, so the origin can be impersonated{{locked}}',
      unknownMode: 'SSL mode "{{mode}}" is not one the API documents{{locked}}',
    },
    remediation: 'Install a certificate on the origin (the vendor\'s origin CA issues free ones) and set the SSL mode to strict (`PATCH /zones/{zone_id}/settings/ssl` with value `strict`, or `origin_pull` on Enterprise to always reach the origin over TLS).',
    references: [
      'vendor docs: zone settings (ssl: off, flexible, full, strict, origin_pull)',
      'vendor docs: SSL/TLS encryption modes; Strict (SSL-Only Origin Pull): the origin certificate is validated as in Full (strict)',
      'vendor docs: proxy status (only proxied records send traffic through the edge)',
    ],
    optionHelp: { acceptFull: 'pass `full` (encrypted, origin certificate not validated) instead of a low finding' },
  },
  defaultOptions: { acceptFull: false },
  check(ctx) {
    const setting = settingOrAnswer(ctx, 'ssl');
    if (!setting) return;
    const mode = setting.value;
    // vendor docs: Strict (SSL-Only Origin Pull) validates the origin certificate as Full (strict) does.
    if (mode === 'strict' || mode === 'origin_pull' || (mode === 'full' && ctx.options.acceptFull)) return ctx.pass();
    if (mode === 'off') {
      // Only proxied records send traffic through the edge; records not read keep the full severity.
      const records = ctx.zone.dnsRecords();
      if (records.known && !records.items.some((r) => r.proxied === true)) return ctx.fail(ctx.zone.resource, 'offUnproxied', { locked: setting.lockedNote, mode, proxiedRecords: 0 }, 'low');
      return ctx.fail(ctx.zone.resource, 'off', { locked: setting.lockedNote, mode }, 'critical');
    }
    if (mode === 'flexible') return ctx.fail(ctx.zone.resource, 'flexible', { locked: setting.lockedNote, mode });
    if (mode === 'full') return ctx.fail(ctx.zone.resource, 'notStrict', { locked: setting.lockedNote, mode }, 'low');
    ctx.fail(ctx.zone.resource, 'unknownMode', { locked: setting.lockedNote, mode: String(mode) }, 'medium');
  },
});
