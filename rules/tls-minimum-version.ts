import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer } from '../src/policy/checks/zone-security.js';

const VERSIONS = ['1.0', '1.1', '1.2', '1.3'];

export default defineRule({
  meta: {
    id: 'tls-minimum-version',
    title: 'Visitors connect with TLS 1.2 or later',
    description:
      'TLS 1.0 and 1.1 are deprecated (RFC 8996): they lack modern cipher suites and fail PCI DSS. While the zone accepts them, a downgraded or outdated client still gets a weak connection.',
    severity: 'medium',
    category: 'tls',
    scope: 'zone',
    resource: 'zone',
    reads: ['setting:min_tls_version'],
    messages: {
      tooLow: 'the zone accepts TLS {{version}}: the minimum should be TLS {{minimum}} or later{{locked}}',
      unknownVersion: 'minimum TLS version "{{version}}" is not one the API documents{{locked}}',
    },
    remediation: 'Set the minimum TLS version to 1.2 (`PATCH /zones/{zone_id}/settings/min_tls_version` with value `"1.2"`) after checking that no client you must serve still needs 1.0 or 1.1.',
    references: ['vendor docs: zone settings (min_tls_version: "1.0", "1.1", "1.2", "1.3")', 'RFC 8996: Deprecating TLS 1.0 and TLS 1.1'],
    optionHelp: { minimum: 'the lowest acceptable minimum version: "1.0", "1.1", "1.2" or "1.3"' },
  },
  defaultOptions: { minimum: '1.2' },
  check(ctx) {
    const setting = settingOrAnswer(ctx, 'min_tls_version');
    if (!setting) return;
    const version = String(setting.value);
    const at = VERSIONS.indexOf(version);
    if (at === -1) return ctx.fail(ctx.zone.resource, 'unknownVersion', { locked: setting.lockedNote, version }, 'low');
    if (at >= VERSIONS.indexOf(ctx.options.minimum)) return ctx.pass();
    // TLS 1.0 is broken more thoroughly than 1.1 (BEAST, no AEAD ciphers at all).
    ctx.fail(ctx.zone.resource, 'tooLow', { locked: setting.lockedNote, version, minimum: ctx.options.minimum }, version === '1.0' ? 'high' : 'medium');
  },
});
