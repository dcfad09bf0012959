import { firstFew, stillToMigrate } from '../src/policy/migration-preview.js';
import type { WafSetting } from '../src/policy/models.js';
import { defineRule } from '../src/policy/rule.js';

/** Set away from its default. A rule in mode `default` follows its default, so it is no override. */
const overridden = (s: WafSetting) => s.mode !== null && s.defaultMode !== null && s.mode !== 'default' && s.mode !== s.defaultMode;

const counted = (count: number, what: string, names: string[]) => `${count} ${what}${count === 1 ? '' : 's'} (${firstFew(names)})`;

export default defineRule({
  meta: {
    id: 'migration-overrides-lost',
    title: 'The migration drops no group or rule overrides of the previous managed rules',
    description:
      'Group overrides and rule overrides of the previous core rule set are not migrated: after the irreversible migration, a rule group someone switched off is on again and a rule set to simulate blocks, which can break the site or reopen what an override closed.',
    severity: 'medium',
    category: 'migration',
    scope: 'zone',
    resource: 'zone',
    messages: {
      lost: 'the migration drops {{overrides}} of the previous managed rules: recreate them in the new managed rules or they are lost',
      groupsOff:
        '{{groups}} switched off; the API does not give a group\'s default mode, so check whether someone switched them off: such group overrides are dropped by the migration',
    },
    remediation:
      'For each override, decide whether it is still needed; recreate the ones that are as overrides or exceptions of the new managed rules (in validation mode on Enterprise), then migrate.',
    references: ['API spec: Migration mapping rules, rule 2 (group and rule overrides are not migrated)', 'api-facts: WAF migration facts (not migrated: group and rule overrides)'],
  },
  defaultOptions: {},
  check(ctx) {
    if (!stillToMigrate(ctx)) return;

    const groups = ctx.zone.wafGroups();
    if (!groups.known) return ctx.unknown(ctx.zone.resource, groups.reason);
    const rules = ctx.zone.wafRules();
    if (!rules.known) return ctx.unknown(ctx.zone.resource, rules.reason);
    const groupOverrides = groups.items.filter(overridden);
    const ruleOverrides = rules.items.filter(overridden);
    // The API gives rules their default mode but not groups: a group switched off may be an
    // override or its default (some groups are off unless the site runs that software).
    const offUndecided = groups.items.filter((g) => g.defaultMode === null && g.mode === 'off');
    const offText = offUndecided.length ? counted(offUndecided.length, 'group', offUndecided.map((g) => g.name || g.id)) : '';
    if (groupOverrides.length === 0 && ruleOverrides.length === 0) {
      if (offUndecided.length) return ctx.fail(ctx.zone.resource, 'groupsOff', { groups: offText, groupIds: offUndecided.map((g) => g.id) }, 'low');
      return ctx.pass();
    }
    const parts = [
      ...(groupOverrides.length ? [counted(groupOverrides.length, 'group override', groupOverrides.map((g) => g.name || g.id))] : []),
      ...(ruleOverrides.length ? [counted(ruleOverrides.length, 'rule override', ruleOverrides.map((r) => r.name || r.id))] : []),
    ];
    ctx.fail(ctx.zone.resource, 'lost', {
      overrides: parts.join(' and ') + (offText ? ` (and ${offText} switched off, perhaps by default)` : ''),
      groupCount: groupOverrides.length,
      ruleCount: ruleOverrides.length,
      groupIds: groupOverrides.map((g) => g.id),
      ruleIds: ruleOverrides.map((r) => r.id),
    });
  },
});
