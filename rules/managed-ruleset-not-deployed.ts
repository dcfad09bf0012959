import { MANAGED_RULESET_ID as MANAGED_RULESET, OWASP_RULESET_ID as OWASP_RULESET } from '../src/policy/migration-config.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'managed-ruleset-not-deployed',
    title: 'After the migration, the managed ruleset is deployed and enabled',
    description:
      'Once a zone has migrated, its managed rules run only if the managed phase\'s entry point executes the vendor managed ruleset. An entry point without that execute rule, or with it disabled, leaves the zone with no managed-rule protection, though the migration reports complete.',
    severity: 'high',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone',
    messages: {
      none: 'the zone has migrated but its managed phase has no entry point: no managed rules run',
      notDeployed: 'the managed phase\'s entry point does not execute the managed ruleset: no managed rules run',
      disabled: 'the rule executing the managed ruleset is disabled: no managed rules run',
      owaspDisabled: 'the rule executing the OWASP core ruleset is disabled',
    },
    remediation:
      'Deploy the managed ruleset on the zone\'s `http_request_firewall_managed` entry point (an `execute` rule with action_parameters.id of the managed ruleset), or enable the rule that executes it; exempt traffic with skip rules rather than disabling the whole ruleset.',
    references: ['vendor docs: rulesets (http_request_firewall_managed entry point; execute action_parameters.id)', 'API spec: Managed-rules migration'],
    optionHelp: { plans: 'plans (legacy plan ids) that include the managed ruleset; zones on other plans pass' },
  },
  defaultOptions: { plans: ['pro', 'business', 'enterprise'] as readonly string[] },
  check(ctx) {
    const migration = ctx.zone.migration();
    if (!migration.known) return ctx.unknown(ctx.zone.resource, migration.reason);
    // Before the migration completes, managed-rules-disabled judges the previous managed rules.
    if (!migration.value?.migrated) return ctx.pass();
    const plan = ctx.zone.plan;
    if (plan !== null && !ctx.options.plans.includes(plan)) return ctx.pass();
    const read = ctx.zone.managedEntrypoint();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    if (!read.value) return ctx.fail(ctx.zone.resource, 'none', { plan });
    const executes = (id: string) => read.value!.rules.filter((r) => r.action === 'execute' && r.parameters['id'] === id);
    const managed = executes(MANAGED_RULESET);
    if (managed.length === 0) return ctx.fail(ctx.zone.resource, 'notDeployed', { plan, rules: read.value.rules.length });
    if (!managed.some((r) => r.enabled)) return ctx.fail(ctx.zone.resource, 'disabled', { plan, rule: managed[0]!.id });
    const owasp = executes(OWASP_RULESET);
    if (owasp.length && !owasp.some((r) => r.enabled)) return ctx.fail(ctx.zone.resource, 'owaspDisabled', { plan, rule: owasp[0]!.id }, 'medium');
    ctx.pass();
  },
});
