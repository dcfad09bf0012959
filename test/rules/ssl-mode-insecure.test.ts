import rule from '../../rules/ssl-mode-insecure.js';
import { locked, NOT_OFFERED, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: zone settings: ssl value off | flexible | full | strict | origin_pull; strict and origin_pull validate the origin certificate.
const www = (proxied: boolean): Item => ({ id: `r-www-${proxied}`, type: 'A', name: 'www.shop.example', content: '8.8.8.8', proxied, ttl: 1 });
const zone = (ssl: unknown, dnsRecords: Item[] = [www(true)]) => ({ zones: [{ name: 'shop.example', settings: { ssl }, dnsRecords }] });

testRule(rule, {
  valid: [
    // vendor docs: Encryption modes: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked setting with a sound value passes', snapshot: zone(locked('strict')) },
    { name: 'strict validates the origin certificate', snapshot: zone('strict') },
    // vendor docs: Strict (SSL-Only Origin Pull): connections to the origin always use TLS, and the
    // certificate the origin presents is validated the same as with Full (strict): the strictest mode.
    { name: 'origin_pull (strict, SSL-only origin pull) is validated as strict', snapshot: zone('origin_pull') },
    { name: 'full passes when the option accepts it', options: { acceptFull: true }, snapshot: zone('full') },
  ],
  invalid: [
    // vendor docs: Encryption modes: available on every plan (src/cloudflare/zone-settings/availability.ts), so editable: false
    // means the value is locked (by the plan or an account policy), not that the setting is not offered: judged.
    { name: 'a locked weak value fails, and the finding says it is locked', snapshot: zone(locked('flexible')), findings: [{ messageId: 'flexible', message: ['the value is locked', 'account policy holds it'] }] },
    {
      name: 'off with a proxied record serves it in clear text',
      snapshot: zone('off'),
      findings: [{ messageId: 'off', severity: 'critical', resourceType: 'zone', zone: 'shop.example' }],
    },
    {
      // vendor docs: proxy status: only proxied records send their traffic through the edge, so with
      // none, off encrypts nothing that passes there today.
      name: 'off on a zone with no proxied record is low, and says why',
      snapshot: zone('off', [www(false)]),
      findings: [{ messageId: 'offUnproxied', severity: 'low', message: 'no DNS record is proxied' }],
    },
    { name: 'off on a zone with no records at all is low', snapshot: zone('off', []), findings: [{ messageId: 'offUnproxied', severity: 'low' }] },
    {
      // Which records are proxied is not known: the finding keeps the severity of the worse case.
      name: 'off keeps its severity when the DNS records were not read',
      snapshot: { zones: [{ name: 'shop.example', settings: { ssl: 'off' }, unread: { dns_records: 'failed' } }] },
      findings: [{ messageId: 'off', severity: 'critical' }],
    },
    { name: 'flexible sends origin traffic in clear', snapshot: zone('flexible'), findings: [{ messageId: 'flexible', severity: 'high', message: 'edge to the origin in clear text' }] },
    { name: 'full does not validate the origin', snapshot: zone('full'), findings: [{ messageId: 'notStrict', severity: 'low' }] },
    { name: 'an undocumented mode is reported as such', snapshot: zone('strict_only'), findings: [{ messageId: 'unknownMode', message: '"strict_only"' }] },
    {
      name: 'unknown when the settings were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { zone_settings: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'zone_settings could not be read' }],
    },
    {
      name: 'unknown when the setting was not among those read',
      snapshot: { zones: [{ name: 'a.example', settings: { tls_1_3: 'on' } }] },
      findings: [{ status: 'unknown', message: 'did not read the zone setting ssl' }],
    },
  ],
});
