import { defineRule } from '../src/policy/rule.js';
import { shorten } from '../src/common/printable.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'filter-orphaned',
    title: 'Every filter is used by a firewall rule',
    description:
      'A filter no rule references usually marks a protection that was meant to exist and does not: the single-call create made the filter, then refused the rule (quota reached, feature missing), and nobody noticed.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'filter',
    messages: {
      orphaned:
        'no firewall rule of the zone uses this filter ({{expression}}); such filters are often left by a single-call create whose rule was refused. Other features may reference filters too: check before deleting it',
    },
    remediation:
      'If the protection is still wanted, create the rule referencing the existing filter; otherwise, once no other feature uses the filter, delete it.',
    references: ['API spec: Errors (rule 5: the filter may be created while the rule is not)', 'API spec: Resources and their fields (Filter: referenced by rules and other features)'],
  },
  defaultOptions: {},
  check(ctx) {
    const rules = ctx.zone.firewallRules();
    if (!rules.known) return ctx.unknown(ctx.zone.resource, rules.reason);
    const filters = ctx.zone.filters();
    if (!filters.known) return ctx.unknown(ctx.zone.resource, filters.reason);
    const used = new Set(rules.items.map((r) => r.filterId));
    passUnlessFailed(ctx, (fail) => {
      for (const filter of filters.items.filter((f) => !used.has(f.id))) {
        fail({ type: 'filter', id: filter.id, name: filter.description }, 'orphaned', { expression: shorten(filter.expression ?? '(no expression)', 80) });
      }
    });
  },
});
