import { accountDeployments, rulesetStanding, zoneDeployments } from '../src/policy/checks/managed-phase-view.js';
import { best, shorten, type Deployment, type SkipScope, type ZoneIdentity } from '../src/cloudflare/rulesets/managed-phase.js';
import { MANAGED_RULESET_ID as MANAGED_RULESET, OWASP_RULESET_ID as OWASP_RULESET } from '../src/cloudflare/waf-migration/config.js';
import { defineRule, type ZoneContext } from '../src/policy/rule.js';
import { joinedWithAnd } from '../src/policy/findings.js';

const label = (d: Deployment) => d.rule.description || d.rule.id;

/** What a skip rule skips, in words: the rest of its entry point, or the ruleset by name. */
function skipsWhat(skips: SkipScope, ruleset: string): string {
  return skips === 'rest' ? 'every later rule of the entry point' : ruleset;
}

type Options = { plans: readonly string[] };

const MANAGED_NAME = 'the managed ruleset';
const OWASP_NAME = 'the OWASP core ruleset';

export default defineRule({
  meta: {
    id: 'managed-ruleset-not-deployed',
    title: 'The managed ruleset runs on all of the zone\'s traffic',
    description:
      'A zone on the new managed rules (migrated, or created with them) is protected only if a rule of the managed phase executes the vendor managed ruleset, and only where that rule runs. The rules are judged in order, as the engine runs them, at the account level (Enterprise zones) and the zone level: a skip rule placed earlier that exempts every request of the zone, a disabled execute rule, or a ruleset-wide override that disables the rules (tag and rule overrides that enable some again only to log do not count) or sets them to log leave the zone without managed rules (high); a skip rule placed earlier that exempts some of the zone\'s hosts, or an execute expression narrower than all traffic, leave part of it without them (medium; high when the hosts include the zone\'s own name, its apex). A host outside the zone selects none of its requests. Category and single-rule overrides and skip rules listing single rules are ordinary tuning and are not judged. Skip rules in the custom-rules phase (`phases` including `http_request_firewall_managed`) are judged by custom-rules-broad-skip, not here. Where the OWASP core ruleset is deployed, at the zone or the account level, it fails at medium when it never runs (disabled, skipped for every request, or switched off by a ruleset-wide override). A zone still on the previous managed rules (migration state start or validation) is judged by managed-rules-disabled and the migration rules; without a migration status, or with a state the check does not know, the answer is unknown.',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    messages: {
      none: 'the zone\'s managed phase has no entry point and no account-level rule deploys the managed ruleset to it: no managed rules run',
      notDeployed: 'no rule of the managed phase executes the managed ruleset for this zone ({{rules}} rules in the zone\'s entry point): no managed rules run',
      disabled: 'the {{level}}-level rule "{{rule}}" executing the managed ruleset is disabled: no managed rules run',
      skipped:
        'the {{level}}-level skip rule "{{skip}}" comes before rule "{{rule}}" and skips {{skipsWhat}} for every request (expression: {{expression}}): the managed ruleset never runs',
      hostSkipped:
        'the {{level}}-level skip rule "{{skip}}" comes before rule "{{rule}}" and skips {{skipsWhat}} for {{traffic}} (expression: {{expression}}): the managed ruleset does not run for {{excluded}}; the zone\'s other hosts still get it',
      overriddenOff: 'the {{level}}-level rule "{{rule}}" executes the managed ruleset with a ruleset-wide override that disables its rules{{except}}',
      logOnly: 'the {{level}}-level rule "{{rule}}" executes the managed ruleset with its action overridden to log for every rule{{except}}',
      narrow: 'the {{level}}-level rule "{{rule}}" runs the managed ruleset only for requests matching {{expression}}: the zone\'s other traffic gets no managed rules',
      owaspDisabled: 'the {{level}}-level rule "{{rule}}" executing the OWASP core ruleset is disabled',
      owaspNotRunning: 'the OWASP core ruleset is deployed by the {{level}}-level rule "{{rule}}" but never runs: {{why}}',
    },
    remediation:
      'Execute the managed ruleset (action `execute`, action_parameters.id of the managed ruleset) in the zone\'s `http_request_firewall_managed` entry point with the expression `true`, enabled, without a ruleset-wide `enabled: false` or `action: log` override. Exempt traffic with skip rules narrowed to the clients or paths that need it, or with rule and tag overrides, rather than skipping the whole ruleset, every remaining rule or whole hosts. Skip rules of the custom-rules phase that skip the managed phase are reported by custom-rules-broad-skip.',
    references: [
      'vendor docs: ruleset engine, "Deploy a managed ruleset" (execute rule, action_parameters.id; zone and account level)',
      'vendor docs: ruleset engine, "Create an exception" and WAF "Create exceptions" / "Add an exception via API" (skip rules apply to later execute rules of their own entry point, for the requests they match; ruleset "current", rulesets, rules)',
      'vendor docs: ruleset engine, "Override a managed ruleset" and "Deploy a managed ruleset with ruleset, tag, and rule overrides" (ruleset, tag and rule overrides; enabled, action)',
      'vendor docs: WAF, "Account-level WAF configuration" (Enterprise zones; account-level rulesets run before the zone\'s)',
      'vendor docs: WAF, "Cloudflare Managed Ruleset" (a custom expression applies the ruleset to a subset of requests)',
      'API spec: Managed-rules migration',
    ],
    optionHelp: {
      plans:
        'plans (legacy plan ids) whose zones must run the vendor managed ruleset; zones on other plans pass. Free is left out by default: the vendor\'s managed rules page offers Free zones the Free Managed Ruleset, a different ruleset, and the managed ruleset judged here comes with paid plans',
    },
  },
  defaultOptions: { plans: ['pro', 'business', 'enterprise'] as readonly string[] },
  check(ctx) {
    const standing = rulesetStanding(ctx.zone, ctx.options.plans, MANAGED_RULESET);
    // A plan left out by the option passes. A zone still on the previous managed rules (start, validation) is judged by managed-rules-disabled and the migration rules.
    if (standing.kind === 'pass') return ctx.pass();
    if (standing.kind === 'unknown') return ctx.unknown(ctx.zone.resource, standing.reason);
    if (standing.kind === 'fails') return failManaged(ctx, standing.zone, standing.found, standing.inZone);
    judgeOwasp(ctx, standing.zone);
  },
});

function failManaged(ctx: ZoneContext<Options>, zone: ZoneIdentity, found: Deployment | null, inZone: { exists?: boolean; rules?: number }): void {
  const plan = zone.plan;
  const at = ctx.zone.resource;
  if (!found) return ctx.fail(at, inZone.exists ? 'notDeployed' : 'none', { plan, rules: inZone.rules ?? 0 });
  const base = { plan, level: found.level, rule: label(found) };
  const o = found.outcome;
  switch (o.kind) {
    case 'runs':
      return ctx.pass();
    case 'disabled':
      return ctx.fail(at, 'disabled', base);
    case 'skipped':
      return ctx.fail(at, 'skipped', { ...base, skip: o.skip.description || o.skip.id, skipsWhat: skipsWhat(o.skips, MANAGED_NAME), expression: shorten(o.skip.expression) });
    case 'hostSkipped': {
      const hosts = o.hosts ? joinedWithAnd(o.hosts) : null;
      return ctx.fail(
        at,
        'hostSkipped',
        {
          ...base,
          skip: o.skip.description || o.skip.id,
          skipsWhat: skipsWhat(o.skips, MANAGED_NAME),
          hosts: o.hosts,
          traffic: hosts ? `every request to ${hosts}` : 'requests decided by the host name alone',
          excluded: hosts ? `requests to ${hosts}` : 'the hosts its condition selects',
          expression: shorten(o.skip.expression),
        },
        // The zone's own host (its apex) is the site the zone is named for: a skip of it switches the
        // managed rules off where they matter most, as a skip of every request does (high).
        o.hosts?.includes(ctx.zone.name) ? 'high' : 'medium',
      );
    }
    case 'overriddenOff':
      if (o.kept > 0) {
        return ctx.fail(at, 'overriddenOff', { ...base, kept: o.kept, except: `, except the ${o.kept} tag or rule overrides that enable some of them again: only those run` }, 'medium');
      }
      return o.logging
        ? ctx.fail(at, 'overriddenOff', { ...base, kept: 0, except: `; the ${o.logging} tag or rule overrides that enable some of them again set them to log: no managed rule acts on a request` })
        : ctx.fail(at, 'overriddenOff', { ...base, kept: 0, except: ': no managed rules run' });
    case 'logOnly':
      return o.acting > 0
        ? ctx.fail(at, 'logOnly', { ...base, acting: o.acting, except: `, but for the ${o.acting} tag or rule overrides that set another action: the rest only log` }, 'medium')
        : ctx.fail(at, 'logOnly', { ...base, acting: 0, except: ': matching requests are logged, not stopped' });
    case 'narrow':
      return ctx.fail(at, 'narrow', { ...base, expression: o.expression === null ? '(none: the rule came back without an expression)' : shorten(o.expression) }, 'medium');
  }
}

/** Whether an OWASP deployment runs at all: a log action, a narrower expression or a host skip is tuning. */
function owaspRuns(d: Deployment): boolean {
  const o = d.outcome;
  if (o.kind === 'disabled' || o.kind === 'skipped') return false;
  return o.kind !== 'overriddenOff' || o.kept + (o.logging ?? 0) > 0;
}

/**
 * The OWASP core ruleset is optional: judged only where deployed, and only for not running at all;
 * a log action or a narrower expression is common tuning and passes.
 */
function judgeOwasp(ctx: ZoneContext<Options>, zone: ZoneIdentity): void {
  const inZone = zoneDeployments(ctx.zone, zone, OWASP_RULESET);
  const inAccount = accountDeployments(ctx.zone, zone, OWASP_RULESET);
  const found = [...(inZone.known ? inZone.items : []), ...(inAccount.known ? inAccount.items : [])];
  if (found.length === 0 || found.some(owaspRuns)) return ctx.pass();
  if (!inZone.known) return ctx.unknown(ctx.zone.resource, inZone.reason);
  if (!inAccount.known) return ctx.unknown(ctx.zone.resource, inAccount.reason);
  const worst = best(found)!;
  const base = { plan: zone.plan, level: worst.level, rule: label(worst) };
  const o = worst.outcome;
  if (o.kind === 'disabled') return ctx.fail(ctx.zone.resource, 'owaspDisabled', base, 'medium');
  const why =
    o.kind === 'skipped'
      ? `skip rule "${o.skip.description || o.skip.id}" before it skips ${skipsWhat(o.skips, OWASP_NAME)} for every request (expression: ${shorten(o.skip.expression)})`
      : 'a ruleset-wide override disables its rules';
  ctx.fail(ctx.zone.resource, 'owaspNotRunning', { ...base, why }, 'medium');
}
