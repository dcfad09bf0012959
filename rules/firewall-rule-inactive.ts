import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'firewall-rule-inactive',
    title: 'Every firewall rule is in force',
    description:
      'A paused rule, or an active rule whose filter is paused or was deleted, protects nothing while still looking like protection in the rule list: reviewers count on a block that never happens. A paused bypass rule over the managed-rules migration\'s 4 KB is also reported by migration-expression-too-long: two problems (it does not run; it blocks the migration), each with its own fix.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'firewall_rule',
    messages: {
      rulePaused: 'the firewall rule is paused: it does not run',
      filterPaused: 'the firewall rule is active but its filter {{filterId}} is paused: the rule never matches',
      filterDeleted: 'the filter {{filterId}} of this firewall rule was deleted: the rule can never match',
    },
    remediation:
      'Unpause the rule (or its filter) if it should protect the zone, otherwise delete it; give a rule whose filter was deleted a new filter, or delete the rule.',
    references: ['API spec: Resources and their fields (Filter, Firewall rule: paused)', 'docs/api-surface.md, answers beyond the spec: a rule whose filter was deleted comes back with filter {id, deleted: true}'],
  },
  defaultOptions: {},
  check(ctx) {
    const rules = ctx.zone.firewallRules();
    if (!rules.known) return ctx.unknown(ctx.zone.resource, rules.reason);
    const filters = ctx.zone.filters();
    const filterPaused = new Map(filters.known ? filters.items.map((f) => [f.id, f.paused]) : []);
    let found = false;
    for (const rule of rules.items) {
      const resource = { type: 'firewall_rule', id: rule.id, name: rule.description || null };
      const filterId = rule.filterId ?? '(unknown)';
      // A rule without its filter cannot run even if unpaused: that is the first thing to fix.
      if (rule.filterDeleted) ctx.fail(resource, 'filterDeleted', { filterId });
      else if (rule.paused === true) ctx.fail(resource, 'rulePaused');
      else {
        // The filters list is the filter's current state; the copy each rule carries serves when
        // that list was not read (or lacks the filter), since the API embeds the whole filter.
        const paused = (rule.filterId === null ? null : filterPaused.get(rule.filterId)) ?? rule.inlineFilterPaused;
        if (paused === true) ctx.fail(resource, 'filterPaused', { filterId });
        else if (rule.paused === null) ctx.unknown(resource, 'the rule record has no paused field');
        else if (paused === null) ctx.unknown(resource, `whether filter ${filterId} is paused was not read${filters.known ? '' : ` (${filters.reason})`}`);
        else continue;
      }
      found = true;
    }
    if (!found) ctx.pass();
  },
});
