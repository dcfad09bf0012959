import { defineRule } from '../src/policy/rule.js';
import { judgeSwitch } from '../src/policy/checks/zone-security.js';

/** Low: Hotlink Protection guards bandwidth, not access, and costs images on search and social sites. */
export default defineRule({
  meta: {
    id: 'hotlink-protection-off',
    title: "Other sites cannot embed the zone's images",
    description:
      "Hotlink Protection refuses image requests whose Referer names another site (a blank Referer is still served), so other sites cannot build pages on the zone's images and the bandwidth they use. Off, any site can embed them. It is off by default; turned on, it also keeps images from showing on image search and social sites, so a zone that wants that exposure may leave it off (and disable this rule for it) or allow folders named hotlink-ok.",
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone setting (hotlink_protection)',
    reads: ['setting:hotlink_protection'],
    messages: {
      off: "Hotlink Protection is off: other sites can embed the zone's images and use its bandwidth{{locked}}",
    },
    remediation:
      'Turn Hotlink Protection on (`PATCH /zones/{zone_id}/settings/hotlink_protection` with `{"value": "on"}`); put images that others may embed in a folder named hotlink-ok, or exempt their paths with a configuration rule.',
    references: [
      'vendor docs: Scrape Shield, Hotlink Protection (denies image requests whose Referer is another site and not blank; no effect on crawling; images no longer show on image search and social sites; hotlink-ok folders)',
      'vendor API reference: zone settings, hotlink_protection (value on | off, default off)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    judgeSwitch(ctx, 'hotlink_protection', 'off');
  },
});
