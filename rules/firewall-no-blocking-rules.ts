import { defineRule } from '../src/policy/rule.js';
import type { EntrypointRule } from '../src/cloudflare/rulesets/entrypoint.js';
import { customRulesOrAnswer } from '../src/policy/checks/zone-security.js';
import type { FirewallRule, Filter } from '../src/policy/zone-view.js';

/** The actions that stop or challenge a request, in custom rules and firewall rules alike (vendor docs: actions; the rest let it through). */
const STOPPING = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
const stops = (action: string | null) => action !== null && STOPPING.has(action);

interface FirewallEntry {
  rule: FirewallRule;
  filter: Filter | null;
  expression: string | null;
}

/** Whether a firewall rule runs: neither it nor its filter paused, the filter not deleted. */
function runs(e: FirewallEntry): boolean {
  return e.rule.paused === false && !e.rule.filterDeleted && (e.filter?.paused ?? e.rule.inlineFilterPaused) !== true;
}

/**
 * Whether the custom rules list this firewall rule already (since 2025-06-15 the firewall rules API
 * answers a view of them, vendor docs: firewall rules upgrade): by id, ref, or action and expression.
 */
function listedAsCustomRule(e: FirewallEntry, custom: readonly EntrypointRule[]): boolean {
  return custom.some((c) => c.id === e.rule.id || (c.ref != null && c.ref === e.rule.id) || (c.action === e.rule.action && c.expression !== null && c.expression === e.expression));
}

export default defineRule({
  meta: {
    id: 'firewall-no-blocking-rules',
    title: 'The zone\'s custom rules or firewall rules block or challenge some traffic',
    description:
      'Custom rules (phase `http_request_firewall_custom`) are where a zone blocks or challenges the traffic only its owners know to be unwanted: admin paths from outside the office, countries it does not serve, methods its API does not take. ' +
      'The vendor upgraded the older firewall rules into custom rules with the same protection, and the firewall rules API still answers for them; a firewall rule that is active (not paused, its filter neither paused nor deleted) counts as well, once, even where the custom rules list the same rule. ' +
      'A zone that proxies traffic whose enabled custom rules and active firewall rules block or challenge nothing (none at all, or only skip, log and allow rules) relies entirely on the managed rules and bot products, which know nothing of the site (low: a gap in defence in depth, not an opening). Custom rules come with every plan (Free: 5). ' +
      'A zone that proxies nothing passes: these rules act on proxied requests only. Account-level custom rulesets (Enterprise) are not read.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    reads: ['custom_entrypoint'],
    messages: {
      none: 'the zone proxies traffic and has no custom rules or firewall rules: nothing blocks or challenges traffic specific to this site',
      noneStopping:
        'none of the zone\'s {{enabled}} enabled custom rule(s) and {{active}} active firewall rule(s) blocks or challenges ({{actions}}){{disabled}}: nothing stops traffic specific to this site',
    },
    remediation:
      'Add a custom rule that blocks or challenges the traffic the site does not want (action `block` or `managed_challenge`), e.g. admin paths from unknown addresses: `POST /zones/{zone_id}/rulesets/{ruleset_id}/rules` on the `http_request_firewall_custom` entry point, or `PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint` when it does not exist yet. Enable the blocking custom rules that are kept disabled; firewall rules can no longer be changed through their own API, so change them as the custom rules they became.',
    references: [
      'vendor docs: WAF custom rules (phase http_request_firewall_custom; availability and rule quota by plan, Free included)',
      'vendor docs: Firewall rules upgrade (firewall rules upgraded into custom rules with the same protection; the Firewall Rules and Filters APIs unsupported since 2025-06-15)',
      'vendor docs: rules language, actions (block, challenge, js_challenge, managed_challenge stop or challenge a request; skip and log let it through)',
      'vendor docs: rulesets (rule `enabled`, default true); API spec: firewall rule `paused`, filter `paused`; proxy status (only proxied traffic meets the edge\'s rules)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    const enabled = entrypoint.rules.filter((r) => r.enabled);
    if (enabled.some((r) => stops(r.action))) return ctx.pass();
    const read = ctx.zone.ruleExpressions();
    // Firewall rules the custom rules do not already list, and of those the ones that run.
    const firewall = read.known ? read.items.filter((e) => !listedAsCustomRule(e, entrypoint.rules)) : [];
    const active = firewall.filter(runs);
    if (active.some((e) => stops(e.rule.action))) return ctx.pass();
    // These rules act on proxied requests only: a zone proxying nothing has nothing for them to stop.
    const proxies = ctx.zone.proxiesTraffic();
    if (!proxies.known) return ctx.unknown(ctx.zone.resource, proxies.reason);
    if (!proxies.value) return ctx.pass();
    // A firewall rules API the vendor retired (410) holds no rules beyond the custom ones; one not read might.
    if (!read.known && read.state !== 'retired') return ctx.unknown(ctx.zone.resource, `the firewall rules were not read: ${read.reason}`);
    if (entrypoint.rules.length === 0 && firewall.length === 0) return ctx.fail(ctx.zone.resource, 'none', {});
    const actions = [...new Set([...enabled.map((r) => r.action ?? 'no action'), ...active.map((e) => e.rule.action ?? 'no action')])].sort().join(', ') || 'none enabled';
    const off = [entrypoint.rules.length - enabled.length, firewall.length - active.length];
    const disabled = [...(off[0]! > 0 ? [`${off[0]} custom rule(s) disabled`] : []), ...(off[1]! > 0 ? [`${off[1]} firewall rule(s) paused or without a running filter`] : [])].join(', ');
    ctx.fail(ctx.zone.resource, 'noneStopping', { enabled: enabled.length, active: active.length, actions, disabled: disabled ? `; ${disabled}` : '' });
  },
});
