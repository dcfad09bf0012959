import { defineRule } from '../src/policy/rule.js';
import { judgeSwitch } from '../src/policy/checks/zone-security.js';

/** Informational: IP Geolocation (CF-IPCountry) blocks nothing; off loses the country the origin relies on. */
export default defineRule({
  meta: {
    id: 'ip-geolocation-off',
    title: "The origin is told each visitor's country (CF-IPCountry)",
    description:
      "With IP Geolocation, every request passed to the origin carries the CF-IPCountry header: the visitor's country code (XX when unknown, T1 for Tor). Origin logs and application rules that act by country (blocking, extra checks for Tor visitors, incident investigation) depend on it. Off, the header is missing and such logic silently sees no country. It is on by default; the visitor location headers managed transform is the vendor's richer alternative (city, continent, coordinates).",
    severity: 'info',
    category: 'zone',
    scope: 'zone',
    resource: 'zone setting (ip_geolocation)',
    reads: ['setting:ip_geolocation'],
    messages: {
      off: "IP Geolocation is off: requests reach the origin without the CF-IPCountry header, so its logs and country-based logic see no visitor country{{locked}}",
    },
    remediation:
      'Turn IP Geolocation on (`PATCH /zones/{zone_id}/settings/ip_geolocation` with `{"value": "on"}`), or enable the "Add visitor location headers" managed transform for more location fields.',
    references: [
      "vendor docs: IP geolocation (adds the visitor's country, ISO 3166-1 alpha-2, in the CF-IPCountry request header to the origin; XX unknown, T1 Tor)",
      'vendor docs: HTTP request headers (CF-IPCountry is added when IP Geolocation is enabled)',
      'vendor API reference: zone settings, ip_geolocation (value on | off, default on)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    judgeSwitch(ctx, 'ip_geolocation', 'off');
  },
});
