import { defineRule } from '../src/policy/rule.js';
import { customRulesOrAnswer } from '../src/policy/zone-security.js';

/** The custom rule actions that stop or challenge a request (vendor docs: actions; the rest let it through). */
const STOPPING = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);

export default defineRule({
  meta: {
    id: 'firewall-no-blocking-rules',
    title: 'The zone\'s custom rules block or challenge some traffic',
    description:
      'Custom rules (phase `http_request_firewall_custom`) are where a zone blocks or challenges the traffic only its owners know to be unwanted: admin paths from outside the office, countries it does not serve, methods its API does not take. A zone that proxies traffic whose enabled custom rules block or challenge nothing (none at all, or only skip and log rules) relies entirely on the managed rules and bot products, which know nothing of the site (low: a gap in defence in depth, not an opening). Custom rules come with every plan (Free: 5). A zone that proxies nothing passes: custom rules act on proxied requests only. Account-level custom rulesets (Enterprise) are not read.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    reads: ['custom_entrypoint'],
    messages: {
      none: 'the zone proxies traffic and has no custom rules: nothing blocks or challenges traffic specific to this site',
      noneStopping: 'none of the zone\'s {{enabled}} enabled custom rule(s) blocks or challenges ({{actions}}){{disabled}}: nothing stops traffic specific to this site',
    },
    remediation:
      'Add a custom rule that blocks or challenges the traffic the site does not want (action `block` or `managed_challenge`), e.g. admin paths from unknown addresses: `POST /zones/{zone_id}/rulesets/{ruleset_id}/rules` on the `http_request_firewall_custom` entry point, or `PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint` when it does not exist yet. Enable the blocking rules that are kept disabled.',
    references: [
      'vendor docs: WAF custom rules (phase http_request_firewall_custom; availability and rule quota by plan, Free included)',
      'vendor docs: rules language, actions (block, challenge, js_challenge, managed_challenge stop or challenge a request; skip and log let it through)',
      'vendor docs: rulesets (rule `enabled`, default true); proxy status (only proxied traffic meets the edge\'s rules)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    const enabled = entrypoint.rules.filter((r) => r.enabled);
    if (enabled.some((r) => r.action !== null && STOPPING.has(r.action))) return ctx.pass();
    // Custom rules act on proxied requests only: a zone proxying nothing has nothing for them to stop.
    const proxies = ctx.zone.proxiesTraffic();
    if (!proxies.known) return ctx.unknown(ctx.zone.resource, proxies.reason);
    if (!proxies.value) return ctx.pass();
    if (entrypoint.rules.length === 0) return ctx.fail(ctx.zone.resource, 'none', {});
    const actions = [...new Set(enabled.map((r) => r.action ?? 'no action'))].sort().join(', ') || 'none enabled';
    const off = entrypoint.rules.length - enabled.length;
    ctx.fail(ctx.zone.resource, 'noneStopping', { enabled: enabled.length, actions, disabled: off > 0 ? `; ${off} disabled` : '' });
  },
});
