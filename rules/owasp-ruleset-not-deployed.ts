import { accountDeployments, managedPhaseScope, zoneDeployments } from '../src/policy/checks/managed-phase-view.js';
import { OWASP_RULESET_ID } from '../src/cloudflare/waf-migration/config.js';
import { defineRule } from '../src/policy/rule.js';

type Options = { plans: readonly string[] };

export default defineRule({
  meta: {
    id: 'owasp-ruleset-not-deployed',
    title: 'The OWASP core ruleset is deployed',
    description:
      'The vendor\'s OWASP Core Ruleset (its implementation of the OWASP ModSecurity Core Rule Set) scores every request against generic attack patterns (SQL injection, cross-site scripting, protocol abuse) and acts above a threshold, catching attacks the vendor managed ruleset has no signature for. A zone on a plan that has it, running the new managed rules, with no execute rule of the OWASP ruleset in its managed phase, at the zone level or (Enterprise) the account level, does not run it at all (low: the vendor\'s managed ruleset is the primary protection and the OWASP ruleset is commonly tried out in log mode first, which counts as deployed here). A deployment that never runs (its execute rule disabled, skipped for every request, or switched off by a ruleset-wide override) is reported by managed-ruleset-not-deployed, so it passes here. Free zones get only the free managed ruleset: not applicable. A zone still on the previous managed rules is judged by the legacy WAF rules.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    messages: {
      none: 'no rule of the zone\'s managed phase, nor of its account\'s, executes the OWASP core ruleset for this zone: its generic attack scoring does not run',
    },
    remediation:
      'Add an execute rule for the OWASP core ruleset (action `execute`, action_parameters.id `4814384a9e5d4991b9815dcfc25d2f1f`, expression `true`) to the zone\'s `http_request_firewall_managed` entry point (`PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint`, keeping its other rules); set the paranoia level and score threshold with overrides, and start with the action overridden to log to find false positives.',
    references: [
      'vendor docs: WAF managed rules (Cloudflare OWASP Core Ruleset, ruleset ID 4814384a9e5d4991b9815dcfc25d2f1f; the Free Managed Ruleset on all plans, the others on paid plans)',
      'vendor docs: WAF, configure the OWASP ruleset via API (an execute rule in the http_request_firewall_managed entry point; paranoia level, score threshold, action)',
      'vendor docs: ruleset engine, "Deploy a managed ruleset" (zone and account level); WAF, "Account-level WAF configuration" (Enterprise zones)',
    ],
    optionHelp: {
      plans: 'plans (legacy plan ids) whose zones must deploy the OWASP core ruleset; zones on other plans pass. Free is left out by default: the vendor gives Free zones the Free Managed Ruleset only',
    },
  },
  defaultOptions: { plans: ['pro', 'business', 'enterprise'] as readonly string[] } as Options,
  check(ctx) {
    const scope = managedPhaseScope(ctx.zone, ctx.options.plans);
    // A plan left out by the option passes. A zone still on the previous managed rules has the OWASP package of the previous WAF instead.
    if (scope.kind === 'pass') return ctx.pass();
    if (scope.kind === 'unknown') return ctx.unknown(ctx.zone.resource, scope.reason);
    const zone = scope.zone;
    const inZone = zoneDeployments(ctx.zone, zone, OWASP_RULESET_ID);
    const inAccount = accountDeployments(ctx.zone, zone, OWASP_RULESET_ID);
    const found = [...(inZone.known ? inZone.items : []), ...(inAccount.known ? inAccount.items : [])];
    // Deployed, even by a disabled rule: managed-ruleset-not-deployed reports an OWASP deployment that
    // never runs (owaspDisabled, owaspNotRunning), and a zone must not get that finding twice.
    if (found.length > 0) return ctx.pass();
    if (!inZone.known) return ctx.unknown(ctx.zone.resource, inZone.reason);
    if (!inAccount.known) return ctx.unknown(ctx.zone.resource, inAccount.reason);
    ctx.fail(ctx.zone.resource, 'none', { plan: zone.plan });
  },
});
