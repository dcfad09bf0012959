import { normaliseExpression } from '../src/common/expression-text.js';
import { broadReach } from '../src/cloudflare/rulesets/broad-expression.js';
import { strings } from '../src/cloudflare/fields.js';
import { defineRule } from '../src/policy/rule.js';
import { joinedWithAnd } from '../src/policy/findings.js';
import type { ZoneView } from '../src/policy/zone-view.js';
import { customRuleRef, customRulesOrAnswer, passUnlessFailed } from '../src/policy/checks/zone-security.js';

const MANAGED_PHASE = 'http_request_firewall_managed';

// vendor docs: custom rules, available skip options: the phases a skip rule can skip, and the
// products outside the Ruleset Engine (API values, case-sensitive), by their dashboard names.
const PHASE_NAMES: Record<string, string> = { http_ratelimit: 'rate limiting rules', http_request_sbfm: 'Super Bot Fight Mode rules' };
const PRODUCT_NAMES: Record<string, string> = {
  zoneLockdown: 'Zone Lockdown',
  uaBlock: 'User Agent Blocking',
  bic: 'Browser Integrity Check',
  hot: 'Hotlink Protection',
  securityLevel: 'Security Level',
  rateLimit: 'previous rate limiting rules',
  waf: 'previous managed rules',
};

/** What the zone's managed phase runs: an enabled execute rule (a deployed managed ruleset), nothing, or not read. */
type ManagedPhase = 'runs' | 'empty' | 'unread';

interface Context {
  /** Enabled rules after the skip rule in the custom-rules entry point that act on requests (skip rules only skip). */
  laterRules: number;
  managed: () => ManagedPhase;
  /** Whether the zone runs the new managed rules (migrated, or created with them): the previous ones are gone. */
  previousWafGone: () => boolean;
}

function named(kind: string, ids: string[], names: Record<string, string>): string {
  return `the ${kind} ${ids.join(', ')} (${ids.map((id) => names[id] ?? id).join(', ')})`;
}

/** What a skip rule's action_parameters switch off, in words; null when it has nothing to skip. */
function skipped(parameters: Record<string, unknown>, ctx: Context): string | null {
  const what: string[] = [];
  // vendor docs: skip options: `phase: "current"` skips the rest of the custom-rules phase, custom
  // rulesets run later included; `ruleset: "current"` the rest of the entry point. Either skips
  // nothing from the last rule (ruleset engine docs, exceptions: one at the end skips nothing).
  if (ctx.laterRules > 0) {
    if (parameters['phase'] === 'current') what.push('the rest of the custom-rules phase (every later custom rule and the custom rulesets they run)');
    else if (parameters['ruleset'] === 'current') what.push('every later custom rule');
  }
  const phases = strings(parameters['phases']);
  // vendor docs: deploying a managed ruleset is an execute rule in the zone's managed entry point.
  // Unread, the skip is reported: it would skip whatever the phase runs or comes to run.
  if (phases.includes(MANAGED_PHASE)) {
    const managed = ctx.managed();
    if (managed === 'runs') what.push('the managed rules');
    else if (managed === 'unread') what.push('the managed rules (whatever the managed phase runs: it was not read)');
  }
  const others = phases.filter((p) => p !== MANAGED_PHASE);
  if (others.length) what.push(named('phases', others, PHASE_NAMES));
  // vendor docs: skip options: `waf` is "Managed rules (Previous version)"; the previous managed rules
  // were retired on 2025-06-15 (deprecation notice) and a zone on the new ones no longer runs them,
  // so on such a zone that product skips nothing (firewall rules converted to custom rules still name it).
  const products = strings(parameters['products']).filter((p) => p !== 'waf' || !ctx.previousWafGone());
  if (products.length) what.push(named('products', products, PRODUCT_NAMES));
  return what.length ? joinedWithAnd(what) : null;
}

/** Known to run the new managed rules only; a status not read or unknown keeps `waf` reported. */
function previousWafGone(zone: ZoneView): boolean {
  const migration = zone.migration();
  return migration.known && migration.value?.migrated === true;
}

/** For each rule, how many enabled rules after it act on requests (skip rules only skip): counted once, from the end. */
function actingRulesAfter(rules: ReadonlyArray<{ enabled: boolean; action: string | null }>): number[] {
  const after = new Array<number>(rules.length);
  let count = 0;
  for (let i = rules.length - 1; i >= 0; i--) {
    after[i] = count;
    if (rules[i]!.enabled && rules[i]!.action !== 'skip') count++;
  }
  return after;
}

function managedPhase(zone: ZoneView): ManagedPhase {
  const read = zone.managedEntrypoint();
  if (!read.known) return 'unread';
  return read.value?.rules.some((r) => r.enabled && r.action === 'execute') ? 'runs' : 'empty';
}

/** The expression as the message shows it: whitespace runs made one, at most 120 characters. */
function shortened(expression: string | null): string {
  if (expression === null) return '(none)';
  const text = normaliseExpression(expression);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

export default defineRule({
  meta: {
    id: 'custom-rules-broad-skip',
    title: 'Skip rules exempt specific traffic, not a whole site',
    description:
      'A custom rule with the `skip` action switches protection off for the requests it matches: the custom rules after it (`ruleset: "current"`), the rest of the custom-rules phase (`phase: "current"`), later phases such as the managed rules, rate limiting rules or Super Bot Fight Mode (`phases`), or products such as Zone Lockdown, Browser Integrity Check and Security Level (`products`). ' +
      'Matched on every request (`true`, `not false`, `ip.src in {0.0.0.0/0 ::/0}`, a path that starts with `/`, `X eq "a" or X ne "a"`) or on the host name alone, it exempts a whole site: the protection is still listed but no longer runs. ' +
      'A skip with nothing after it to skip (the last custom rule, or a managed phase that runs nothing) is not reported, nor is the previous managed rules product (`waf`) on a zone that runs the new managed rules (the previous ones were retired on 2025-06-15); expressions the check cannot read are not either. ' +
      'A condition on cf.zone.name is read for the zone (naming it matches every request); two different hosts required at once match nothing. ' +
      'Exceptions inside the managed phase itself are judged by managed-ruleset-not-deployed.',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'custom_rule',
    reads: ['custom_entrypoint'],
    messages: { broadSkip: 'custom rule "{{rule}}" skips {{skipped}} for {{traffic}} (expression: {{expression}})' },
    remediation:
      'Narrow the skip rule to the traffic that needs the exemption (a source IP list, a path, a verified bot) and skip only what misfires on it: the managed rules that do (an exception in the managed phase) rather than the whole phase or every later custom rule.',
    references: [
      'vendor docs: custom rules, available skip options (ruleset "current", phase "current", phases, products)',
      'vendor docs: rules language, operators and grouping symbols; values (inline lists, raw strings, missing values)',
      'vendor docs: ruleset engine, create an exception (an exception only skips rules listed after it)',
      'vendor docs: deploy a managed ruleset (an execute rule in the managed phase entry point)',
      'vendor docs: WAF managed rules (previous version) and the firewall rules deprecation notice (retired 2025-06-15)',
      'RFC 9110 section 4.1 (a request path starts with "/")',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    // Both read memoised views of the zone: asked only when a skip rule names what they decide.
    const managed = () => managedPhase(ctx.zone);
    const gone = () => previousWafGone(ctx.zone);
    const after = actingRulesAfter(entrypoint.rules);
    passUnlessFailed(ctx, (fail) => entrypoint.rules.forEach((rule, i) => {
      if (rule.action !== 'skip' || !rule.enabled) return;
      const traffic = broadReach(rule.expression, ctx.zone.name);
      if (!traffic) return;
      const what = skipped(rule.parameters, { laterRules: after[i]!, managed, previousWafGone: gone });
      if (what) fail(customRuleRef(rule), 'broadSkip', { rule: rule.description || rule.id, skipped: what, traffic, expression: shortened(rule.expression) });
    }));
  },
});
