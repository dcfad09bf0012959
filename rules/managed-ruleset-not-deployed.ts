import { best, coverageOf, deploymentsOf, shorten, type Deployment, type ZoneIdentity } from '../src/policy/managed-phase.js';
import { matchesEverything } from '../src/policy/broad-expression.js';
import { MANAGED_RULESET_ID as MANAGED_RULESET, OWASP_RULESET_ID as OWASP_RULESET } from '../src/policy/migration-config.js';
import { defineRule, type ZoneContext } from '../src/policy/rule.js';

type Found = { known: true; items: Deployment[] } | { known: false; reason: string };

/** The zone entry point's deployments of a ruleset; `exists` false when the zone has no entry point. */
function zoneDeployments(ctx: ZoneContext<Options>, zone: ZoneIdentity, rulesetId: string): Found & { exists?: boolean; rules?: number } {
  const read = ctx.zone.managedEntrypoint();
  if (!read.known) return { known: false, reason: read.reason };
  if (!read.value) return { known: true, items: [], exists: false, rules: 0 };
  return { known: true, items: deploymentsOf(read.value, rulesetId, zone, 'zone'), exists: true, rules: read.value.rules.length };
}

/**
 * The account entry point's deployments of a ruleset to this zone. Account-level WAF applies to
 * the account's Enterprise zones only (vendor docs: "Account-level WAF configuration"), so for
 * any other plan there are none whatever was read. The scan skips the read for accounts that are
 * not Enterprise: skipped means none. Refused, failed or never read: unknown.
 */
function accountDeployments(ctx: ZoneContext<Options>, zone: ZoneIdentity, rulesetId: string): Found {
  if (zone.plan !== null && zone.plan !== 'enterprise') return { known: true, items: [] };
  const read = ctx.zone.accountManagedEntrypoint();
  if (read.known) return { known: true, items: read.value ? deploymentsOf(read.value, rulesetId, zone, 'account') : [] };
  if (read.state === 'skipped') return { known: true, items: [] };
  return { known: false, reason: `the account's managed entry point, which can deploy managed rules to this zone, was not read: ${read.reason}` };
}

const label = (d: Deployment) => d.rule.description || d.rule.id;

/** Why a skip rule switches a deployment off, for a message. */
function skipWords(d: Deployment & { outcome: { kind: 'skipped' } }, zone: ZoneIdentity) {
  const skip = d.outcome.skip;
  const whole = matchesEverything(skip.expression) || coverageOf(skip.expression, zone, d.level) === 'all';
  return { skip: skip.description || skip.id, skipsWhat: d.outcome.skipsWhat, scope: whole ? '' : ' to the host', expression: shorten(skip.expression) };
}

type Options = { plans: readonly string[] };

export default defineRule({
  meta: {
    id: 'managed-ruleset-not-deployed',
    title: 'The managed ruleset runs on all of the zone\'s traffic',
    description:
      'A zone on the new managed rules (migrated, or created with them) is protected only if a rule of the managed phase executes the vendor managed ruleset, and only where that rule runs. The rules are judged in order, as the engine runs them, at the account level (Enterprise zones) and the zone level: a skip rule placed earlier that exempts every request or a whole host, a disabled execute rule, a ruleset-wide override that disables the rules or sets them to log, or an execute expression narrower than all traffic each leave requests without managed rules while the ruleset still looks deployed. Category and single-rule overrides and skip rules listing single rules are ordinary tuning and are not judged. Where the OWASP core ruleset is deployed, it fails at medium when it never runs (disabled, skipped for every request, or switched off by a ruleset-wide override).',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    messages: {
      none: 'the zone\'s managed phase has no entry point and no account-level rule deploys the managed ruleset to it: no managed rules run',
      notDeployed: 'no rule of the managed phase executes the managed ruleset for this zone ({{rules}} rules in the zone\'s entry point): no managed rules run',
      disabled: 'the {{level}}-level rule {{rule}} executing the managed ruleset is disabled: no managed rules run',
      skipped:
        'the {{level}}-level skip rule {{skip}} comes before rule {{rule}} and skips {{skipsWhat}} for every request{{scope}} (expression: {{expression}}): the managed ruleset never runs',
      overriddenOff: 'the {{level}}-level rule {{rule}} executes the managed ruleset with a ruleset-wide override that disables its rules{{except}}',
      logOnly: 'the {{level}}-level rule {{rule}} executes the managed ruleset with its action overridden to log for every rule{{except}}',
      narrow: 'the {{level}}-level rule {{rule}} runs the managed ruleset only for requests matching {{expression}}: the zone\'s other traffic gets no managed rules',
      owaspDisabled: 'the {{level}}-level rule {{rule}} executing the OWASP core ruleset is disabled',
      owaspNotRunning: 'the OWASP core ruleset is deployed by the {{level}}-level rule {{rule}} but never runs: {{why}}',
    },
    remediation:
      'Execute the managed ruleset (action `execute`, action_parameters.id of the managed ruleset) in the zone\'s `http_request_firewall_managed` entry point with the expression `true`, enabled, without a ruleset-wide `enabled: false` or `action: log` override. Exempt traffic with skip rules narrowed to the clients or paths that need it, or with rule and tag overrides, rather than skipping the whole ruleset, every remaining rule or a whole host.',
    references: [
      'vendor docs: ruleset engine, "Deploy a managed ruleset" (execute rule, action_parameters.id; zone and account level)',
      'vendor docs: ruleset engine, "Create an exception" and WAF "Create exceptions" (skip rules apply to later execute rules of their own entry point; ruleset "current", rulesets, rules)',
      'vendor docs: ruleset engine, "Override a managed ruleset" (ruleset, tag and rule overrides; enabled, action)',
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
    const migration = ctx.zone.migration();
    if (!migration.known) return ctx.unknown(ctx.zone.resource, migration.reason);
    // A zone still on the previous managed rules is judged by managed-rules-disabled.
    if (!migration.value?.migrated) return ctx.pass();
    const plan = ctx.zone.plan;
    if (plan !== null && !ctx.options.plans.includes(plan)) return ctx.pass();
    const zone: ZoneIdentity = { name: ctx.zone.name, plan };

    const inZone = zoneDeployments(ctx, zone, MANAGED_RULESET);
    const zoneBest = inZone.known ? best(inZone.items) : null;
    // Account-level rules run first and a zone's skip rules cannot reach them, so a zone whose own
    // entry point runs the ruleset on every request, or whose account does, is protected.
    if (zoneBest?.outcome.kind !== 'runs') {
      const inAccount = accountDeployments(ctx, zone, MANAGED_RULESET);
      const accountBest = inAccount.known ? best(inAccount.items) : null;
      if (accountBest?.outcome.kind !== 'runs') {
        if (!inZone.known) return ctx.unknown(ctx.zone.resource, inZone.reason);
        if (!inAccount.known) return ctx.unknown(ctx.zone.resource, inAccount.reason);
        return failManaged(ctx, zone, best([...inZone.items, ...inAccount.items]), inZone);
      }
    }
    judgeOwasp(ctx, zone);
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
      return ctx.fail(at, 'skipped', { ...base, ...skipWords({ ...found, outcome: o }, zone) });
    case 'overriddenOff':
      return o.kept > 0
        ? ctx.fail(at, 'overriddenOff', { ...base, kept: o.kept, except: `, except the ${o.kept} tag or rule overrides that enable some of them again: only those run` }, 'medium')
        : ctx.fail(at, 'overriddenOff', { ...base, kept: 0, except: ': no managed rules run' });
    case 'logOnly':
      return o.acting > 0
        ? ctx.fail(at, 'logOnly', { ...base, acting: o.acting, except: `, but for the ${o.acting} tag or rule overrides that set another action: the rest only log` }, 'medium')
        : ctx.fail(at, 'logOnly', { ...base, acting: 0, except: ': matching requests are logged, not stopped' });
    case 'narrow':
      return ctx.fail(at, 'narrow', { ...base, expression: shorten(o.expression) }, 'medium');
  }
}

/**
 * The OWASP core ruleset is optional: judged only where it is deployed, and only for not running
 * at all (disabled, skipped for every request, or disabled by a ruleset-wide override). A log
 * action or a narrower expression is how operators commonly tune it, so those pass.
 */
function judgeOwasp(ctx: ZoneContext<Options>, zone: ZoneIdentity): void {
  const inZone = zoneDeployments(ctx, zone, OWASP_RULESET);
  const zoneBest = inZone.known ? best(inZone.items) : null;
  const runs = (d: Deployment | null) => d !== null && !['disabled', 'skipped'].includes(d.outcome.kind) && !(d.outcome.kind === 'overriddenOff' && d.outcome.kept === 0);
  if (!zoneBest || runs(zoneBest)) return ctx.pass();
  const inAccount = accountDeployments(ctx, zone, OWASP_RULESET);
  if (!inAccount.known) return ctx.unknown(ctx.zone.resource, inAccount.reason);
  const found = best([zoneBest, ...inAccount.items])!;
  if (runs(found)) return ctx.pass();
  const base = { plan: zone.plan, level: found.level, rule: label(found) };
  const o = found.outcome;
  if (o.kind === 'disabled') return ctx.fail(ctx.zone.resource, 'owaspDisabled', base, 'medium');
  const why =
    o.kind === 'skipped'
      ? (({ skip, skipsWhat, scope, expression }) => `skip rule ${skip} before it skips ${skipsWhat} for every request${scope} (expression: ${expression})`)(skipWords({ ...found, outcome: o }, zone))
      : 'a ruleset-wide override disables its rules';
  ctx.fail(ctx.zone.resource, 'owaspNotRunning', { ...base, why }, 'medium');
}
