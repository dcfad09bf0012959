import { defineRule } from '../src/policy/rule.js';
import { judgeSwitch } from '../src/policy/checks/zone-security.js';

/**
 * Always Online is on by default (vendor API reference); on is the finding (as Prowler's
 * zone_always_online_disabled). Low: the archived pages were public when copied.
 */
export default defineRule({
  meta: {
    id: 'always-online-on',
    title: 'Always Online is off: pages are not handed to the Internet Archive nor served stale from it',
    description:
      "With Always Online, the vendor shares the zone's hostname and its most requested URL paths (GET requests answered 200 in the previous 5 hours) with the Internet Archive so that its crawler stores them, and the crawler ignores robots.txt. When the origin is unreachable, visitors are served those archived copies. Pages once reachable without a login, including ones later removed or moved behind authentication, are kept and published by a third party, and visitors may be shown outdated content. The setting is on by default.",
    severity: 'low',
    category: 'zone',
    scope: 'zone',
    resource: 'zone setting (always_online)',
    reads: ['setting:always_online'],
    messages: {
      on: "Always Online is on: the zone's popular URL paths are handed to the Internet Archive, whose crawler keeps public copies of them (ignoring robots.txt), and stale copies are served when the origin is down{{locked}}",
    },
    remediation:
      'Turn Always Online off (`PATCH /zones/{zone_id}/settings/always_online` with `{"value": "off"}`); ask the Internet Archive to exclude pages it should not keep. For availability during origin outages, rely on cached content (cache rules, serve stale content) under your own control.',
    references: [
      "vendor docs: Always Online (Internet Archive integration: shares the hostname and popular URL paths with the archive's crawler, which ignores robots.txt; serves archived copies when the origin is unreachable)",
      'vendor API reference: zone settings, always_online (value on | off, default on)',
      'Prowler, Cloudflare provider: check zone_always_online_disabled (Always Online on is reported)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    judgeSwitch(ctx, 'always_online', 'on');
  },
});
