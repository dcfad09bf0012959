import { normaliseExpression } from '../src/common/expression-text.js';
import { broadReach } from '../src/policy/broad-expression.js';
import { defineRule } from '../src/policy/rule.js';
import type { ZoneView } from '../src/policy/zone-view.js';
import { customRuleRef, customRulesOrAnswer } from '../src/policy/zone-security.js';

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
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

function named(kind: string, ids: string[], names: Record<string, string>): string {
  return `the ${kind} ${ids.join(', ')} (${ids.map((id) => names[id] ?? id).join(', ')})`;
}

function joined(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
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
  const products = strings(parameters['products']);
  if (products.length) what.push(named('products', products, PRODUCT_NAMES));
  return what.length ? joined(what) : null;
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
      'A skip with nothing after it to skip (the last custom rule, or a managed phase that runs nothing) is not reported; expressions the check cannot read are not either.',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'custom_rule',
    reads: ['custom_entrypoint'],
    messages: { broadSkip: 'custom rule {{rule}} skips {{skipped}} for {{traffic}} (expression: {{expression}})' },
    remediation:
      'Narrow the skip rule to the traffic that needs the exemption (a source IP list, a path, a verified bot) and skip only what misfires on it: the managed rules that do (an exception in the managed phase) rather than the whole phase or every later custom rule.',
    references: [
      'vendor docs: custom rules, available skip options (ruleset "current", phase "current", phases, products)',
      'vendor docs: rules language, operators and grouping symbols; values (inline lists, raw strings, missing values)',
      'vendor docs: ruleset engine, create an exception (an exception only skips rules listed after it)',
      'vendor docs: deploy a managed ruleset (an execute rule in the managed phase entry point)',
      'RFC 9110 section 4.1 (a request path starts with "/")',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const entrypoint = customRulesOrAnswer(ctx);
    if (!entrypoint) return;
    let managed: ManagedPhase | undefined;
    const managedState = () => (managed ??= managedPhase(ctx.zone));
    let failed = false;
    entrypoint.rules.forEach((rule, i) => {
      if (rule.action !== 'skip' || !rule.enabled) return;
      const traffic = broadReach(rule.expression);
      if (!traffic) return;
      const laterRules = entrypoint.rules.slice(i + 1).filter((r) => r.enabled && r.action !== 'skip').length;
      const what = skipped(rule.parameters, { laterRules, managed: managedState });
      if (!what) return;
      ctx.fail(customRuleRef(rule), 'broadSkip', { rule: rule.description || rule.id, skipped: what, traffic, expression: shortened(rule.expression) });
      failed = true;
    });
    if (!failed) ctx.pass();
  },
});
