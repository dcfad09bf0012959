import { createFirewallRule } from '../../actions/firewall.js';
import { planFirewallRule } from '../../actions/firewall-plan.js';
import { resolveZone } from '../../actions/zones.js';
import { loadRules, rulesFor } from '../../policy/catalogue.js';
import { EXIT, UsageError } from '../../common/errors.js';
import { printable, shorten } from '../../common/printable.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';
import { openWriteSession } from '../write-session.js';

/** The plan quotas the audit uses (the firewall-rule-quota rule's options, as configured). */
function quotasFrom(config: Parameters<typeof rulesFor>[0]): Readonly<Record<string, number>> {
  const rule = rulesFor(config).find((r) => r.rule.meta.id === 'firewall-rule-quota');
  return (rule?.options['quotas'] as Record<string, number> | undefined) ?? {};
}

export const firewallCommand = defineCommand({
  name: 'firewall',
  summary: 'create a firewall rule the recommended way: filter first, then the rule (dry run unless --yes)',
  description: `
'zonewarden firewall create' creates the filter through the filters interface (an active filter
with the same expression is reused), then the rule that references it: the spec's recommended two
calls. --emergency uses the single call with the filter inline instead. Before writing it checks
that the expression is at most 4,096 characters, that the zone has room under its plan's rule
quota (the quotas of the firewall-rule-quota rule), that the plan allows what the rule uses (the
log action: Enterprise only; regular expressions, matches or ~: Business and Enterprise; bypass:
needs --products), and that no active rule already does the same. A paused filter or rule never
counts: a filter with the same expression that is paused is named and the command refuses, since
a rule on it would never match.

If the rule is refused for good after the filter was created (the quota, a feature the plan
lacks), the filter this run created is deleted again and the message says so; if deleting it fails
too, its id is named. If the failure may pass (a server error, the network), the filter is kept
and running the same command again finishes the job with it. Without --yes nothing is written.
Every write is recorded in the database's audit log, and the zone is rescanned afterwards.`,
  args: [{ name: 'action', help: 'create' }],
  options: {
    zone: { type: 'string', value: 'NAME|ID', help: 'the zone (required)' },
    expression: { type: 'string', value: 'E', help: 'the filter expression (required), at most 4,096 characters' },
    action: { type: 'string', value: 'A', help: 'block, challenge, js_challenge, managed_challenge, allow, log or bypass (required)' },
    products: { type: 'list', value: 'P', help: 'for --action bypass (required there): what it skips, zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit or waf; comma-separated' },
    description: { type: 'string', value: 'D', help: 'a description for the filter and the rule' },
    priority: { type: 'integer', min: 0, max: 2_147_483_647, value: 'N', help: 'the rule priority (lower runs first)' },
    emergency: { type: 'boolean', help: 'one call with the filter inline (the spec reserves it for emergencies)' },
    yes: { type: 'boolean', help: 'do it: without it nothing is written' },
    ...commonOptions('baseUrl', 'db', 'config', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: [
    "zonewarden firewall create --zone example.com --expression 'ip.src in {192.0.2.0/24}' --action block --description 'abuse range'",
    "zonewarden firewall create --zone example.com --expression 'http.request.uri.path eq \"/xmlrpc.php\"' --action block --yes",
    "zonewarden firewall create --zone example.com --expression 'ip.src eq 192.0.2.10' --action bypass --products waf,rateLimit --description 'health checker'",
  ],
  async run(o, io, args) {
    if (args[0] !== 'create') throw new UsageError(`firewall: unknown action ${args[0] ?? ''}; the action is create, e.g. zonewarden firewall create --zone example.com ...`);
    for (const required of ['zone', 'expression', 'action'] as const) {
      if (o[required] === undefined) throw new UsageError(`--${required} is required; see 'zonewarden firewall --help'`);
    }
    const config = configFrom(o, io);
    // The config file's rule settings may name custom rules: loaded, so they are known.
    await loadRules(config, io.cwd);
    const quotas = quotasFrom(config);
    const session = openWriteSession(config, io);
    try {
      const zone = await resolveZone(session.client, o.zone as string);
      const request = {
        expression: o.expression as string,
        action: o.action as string,
        ...(o.products.length ? { products: o.products.flatMap((p) => p.split(',')).map((p) => p.trim()).filter((p) => p !== '') } : {}),
        ...(o.description !== undefined ? { description: o.description } : {}),
        ...(o.priority !== undefined ? { priority: o.priority } : {}),
      };
      const plan = await planFirewallRule(session.client, zone, request, quotas);
      const say = (text: string) => io.stdout(`${printable(text)}\n`);
      say(`zone ${zone.name} (${zone.plan ?? 'unknown'} plan): ${plan.rules} firewall rule(s)${plan.quota === null ? '' : ` of ${plan.quota} allowed`}`);
      if (plan.existingRuleId) {
        say(`rule ${plan.existingRuleId} already runs this expression with action ${request.action}: nothing to do`);
        return EXIT.ok;
      }
      if (plan.pausedRuleId) say(`rule ${plan.pausedRuleId} does the same but is paused, so it does not count: ${o.yes ? 'creating' : 'would create'} an active rule (delete the paused one if it is no longer wanted)`);
      const expression = shorten(request.expression, 120);
      say(plan.existingFilterId ? `${o.yes ? 'reusing' : 'would reuse'} filter ${plan.existingFilterId}: ${expression}` : `${o.yes ? 'creating' : 'would create'} a filter: ${expression}`);
      say(`${o.yes ? 'creating' : 'would create'} a rule: action ${request.action}${request.products ? `, skipping ${request.products.join(', ')}` : ''}${request.description ? `, "${request.description}"` : ''}${request.priority !== undefined ? `, priority ${request.priority}` : ''}${o.emergency && !plan.existingFilterId ? ', filter inline (--emergency)' : ''}`);
      if (!o.yes) {
        say('dry run: nothing was written; add --yes to create it');
        return EXIT.ok;
      }
      let result;
      try {
        result = await createFirewallRule(session.client, session.log, plan, { emergency: o.emergency });
      } catch (err) {
        // A refusal after a write still rescans, so the audit sees a filter left without its rule.
        await session.rescan([zone.name]);
        throw err;
      }
      say(`created rule ${result.ruleId ?? '(id not returned)'}${result.filterId ? ` with filter ${result.filterId}${result.filterReused ? ' (reused)' : ''}` : ' with its filter inline'} on ${zone.name}`);
      await session.rescan([zone.name]);
      return EXIT.ok;
    } finally {
      await session.close();
    }
  },
});
