import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'tls-1-3-disabled',
    title: 'TLS 1.3 is offered to visitors',
    description: 'TLS 1.3 drops the legacy ciphers and handshakes that downgrade attacks use, and always gives forward secrecy. With it off, every visitor negotiates TLS 1.2 or lower.',
    severity: 'low',
    category: 'tls',
    scope: 'zone',
    resource: 'zone',
    reads: ['setting:tls_1_3'],
    messages: { off: 'TLS 1.3 is off: visitors negotiate TLS 1.2 or lower{{locked}}' },
    remediation: 'Turn TLS 1.3 on (`PATCH /zones/{zone_id}/settings/tls_1_3` with value `on`).',
    references: ['vendor docs: zone settings (tls_1_3: on, off, zrt)', 'RFC 8446: TLS 1.3'],
  },
  defaultOptions: {},
  check(ctx) {
    const setting = settingOrAnswer(ctx, 'tls_1_3');
    if (!setting) return;
    // `zrt` is TLS 1.3 with 0-RTT resumption: on.
    if (setting.value === 'off') return ctx.fail(ctx.zone.resource, 'off', { locked: setting.lockedNote, value: 'off' });
    ctx.pass();
  },
});
