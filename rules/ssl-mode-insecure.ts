import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer } from '../src/policy/zone-security.js';

export default defineRule({
  meta: {
    id: 'ssl-mode-insecure',
    title: 'Traffic to the origin is encrypted and the origin certificate validated',
    description:
      'The SSL mode decides how the edge talks to the origin. `off` serves visitors in clear text; `flexible` encrypts the visitor side only and sends every request, cookies and passwords included, to the origin in clear; `full` encrypts but accepts any certificate, so anyone on the path can impersonate the origin. Only `strict` validates it.',
    severity: 'high',
    category: 'tls',
    scope: 'zone',
    resource: 'zone',
    reads: ['setting:ssl'],
    messages: {
      off: 'SSL is off: visitors and the origin are served in clear text',
      flexible: 'SSL mode is flexible: requests travel from the edge to the origin in clear text',
      notStrict: 'SSL mode is full: the origin certificate is not validated, so the origin can be impersonated',
      unknownMode: 'SSL mode "{{mode}}" is not one the API documents',
    },
    remediation: 'Install a certificate on the origin (the vendor\'s origin CA issues free ones) and set the SSL mode to strict (`PATCH /zones/{zone_id}/settings/ssl` with value `strict`).',
    references: ['vendor docs: zone settings (ssl: off, flexible, full, strict)'],
    optionHelp: { acceptFull: 'pass `full` (encrypted, origin certificate not validated) instead of a low finding' },
  },
  defaultOptions: { acceptFull: false },
  check(ctx) {
    const setting = settingOrAnswer(ctx, 'ssl');
    if (!setting) return;
    const mode = setting.value;
    if (mode === 'strict' || (mode === 'full' && ctx.options.acceptFull)) return ctx.pass();
    if (mode === 'off') return ctx.fail(ctx.zone.resource, 'off', { mode }, 'critical');
    if (mode === 'flexible') return ctx.fail(ctx.zone.resource, 'flexible', { mode });
    if (mode === 'full') return ctx.fail(ctx.zone.resource, 'notStrict', { mode }, 'low');
    ctx.fail(ctx.zone.resource, 'unknownMode', { mode: String(mode) }, 'medium');
  },
});
