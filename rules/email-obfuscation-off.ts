import { defineRule } from '../src/policy/rule.js';
import { judgeSwitch } from '../src/policy/checks/zone-security.js';

/** Low: Email Address Obfuscation only keeps simple harvesters from addresses in HTML pages. */
export default defineRule({
  meta: {
    id: 'email-obfuscation-off',
    title: 'Email addresses in pages are hidden from address harvesters',
    description:
      "Email Address Obfuscation encodes the email addresses in the zone's HTML pages so that bots scraping them for spam lists cannot read them, while visitors still see and click them. Off, every address published on the site is plain text in the page for harvesters to collect. It is on by default; the encoding is known, so it stops simple harvesters rather than determined ones.",
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone setting (email_obfuscation)',
    reads: ['setting:email_obfuscation'],
    messages: {
      off: 'Email Address Obfuscation is off: email addresses in the pages are plain text for harvesting bots to collect{{locked}}',
    },
    remediation:
      'Turn Email Address Obfuscation on (`PATCH /zones/{zone_id}/settings/email_obfuscation` with `{"value": "on"}`); if one page must not be rewritten, turn it off for that path with a configuration rule rather than for the zone.',
    references: [
      'vendor docs: Scrape Shield, Email Address Obfuscation (hides email addresses from bots while keeping them visible to visitors; HTML pages only)',
      'vendor API reference: zone settings, email_obfuscation (value on | off, default on)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    judgeSwitch(ctx, 'email_obfuscation', 'off');
  },
});
