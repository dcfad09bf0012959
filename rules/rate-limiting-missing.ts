import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'rate-limiting-missing',
    title: 'A zone that proxies traffic has a rate limiting rule',
    description:
      'Rate limiting rules (phase `http_ratelimit`) stop clients that send too many requests: credential stuffing on a login, scraping, abuse of an API. They come with every plan, Free included. A zone that proxies traffic and has no enabled rate limiting rule has nothing that limits any client\'s request rate (medium); one whose rules only log limits nothing either (low: logging is how a new limit is tried out). A zone that proxies nothing passes: rate limiting acts on proxied requests only. Account-level rate limiting rulesets deployed to Enterprise zones are not read: such zones can waive the finding.',
    severity: 'medium',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    reads: ['ratelimit_entrypoint'],
    messages: {
      none: 'the zone proxies traffic and has no rate limiting rule: no client\'s request rate is limited',
      disabled: 'the zone\'s {{rules}} rate limiting rule(s) are all disabled: no client\'s request rate is limited',
      logOnly: 'the zone\'s enabled rate limiting rule(s) ({{rules}}) only log: clients over the limit are recorded, not stopped',
    },
    remediation:
      'Add a rule with a `ratelimit` object (characteristics, period, requests_per_period, mitigation_timeout) and an action such as `block` or `managed_challenge` to the zone\'s `http_ratelimit` entry point: `PUT /zones/{zone_id}/rulesets/phases/http_ratelimit/entrypoint`, or `POST /zones/{zone_id}/rulesets/{ruleset_id}/rules` when it exists; start with the login and API paths. Enable rules that are kept disabled, and switch a tried-out `log` rule to an action that stops clients.',
    references: [
      'vendor docs: WAF, rate limiting rules (expression, characteristics, period, requests per period, mitigation timeout; features by plan, Free to Enterprise)',
      'vendor docs: WAF, create a rate limiting rule via API (the `http_ratelimit` phase entry point; rate limiting rules at the end of the list)',
      'vendor docs: WAF, rate limiting rulesets (account level, deployed to Enterprise zones)',
      'vendor docs: rulesets (rule `enabled`, default true); proxy status (only proxied traffic meets the edge\'s rules)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = ctx.zone.rateLimitRules();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    const rules = read.value?.rules ?? [];
    const enabled = rules.filter((r) => r.enabled);
    // vendor docs: rate limiting rules: the action applies once a client's rate goes over the limit; `log` only records it.
    if (enabled.some((r) => r.action !== 'log')) return ctx.pass();
    const proxies = ctx.zone.proxiesTraffic();
    if (!proxies.known) return ctx.unknown(ctx.zone.resource, proxies.reason);
    if (!proxies.value) return ctx.pass();
    if (rules.length === 0) return ctx.fail(ctx.zone.resource, 'none', {});
    if (enabled.length === 0) return ctx.fail(ctx.zone.resource, 'disabled', { rules: rules.length });
    ctx.fail(ctx.zone.resource, 'logOnly', { rules: enabled.length }, 'low');
  },
});
