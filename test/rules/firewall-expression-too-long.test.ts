import rule from '../../rules/firewall-expression-too-long.js';
import { days, filterItem, firewall, type FixtureZone } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const PREFIX = 'http.request.uri.path eq "/';

/** An expression of exactly `n` code points, padded with `char` (one code point). */
function sized(n: number, char = 'a'): string {
  const expression = `${PREFIX}${char.repeat(n - PREFIX.length - 1)}"`;
  if ([...expression].length !== n) throw new Error('test helper: wrong size');
  return expression;
}

const at4096 = firewall([{ expression: sized(4096) }]);
const over = firewall([{ expression: sized(4097), description: 'Old blocklist' }]);
const overId = over.filters[0]?.['id'] as string;
const overJa = firewall([{ expression: sized(4097, '商') }]);
const orphan = filterItem(sized(5000), { description: 'Left-over list' });
const withOrphan = firewall([{ expression: 'ip.src eq 192.0.2.1' }], [orphan]);
const hundredOne = firewall([{ expression: sized(101) }, { expression: sized(100) }]);

/** A rule whose filter is not in the filters list: its own copy is all there is. */
const strayRule = {
  id: 'rule00000000000000000000000stray',
  action: 'block',
  paused: false,
  priority: null,
  description: 'Stray rule',
  filter: { id: 'filter000000000000000000000stray', expression: sized(4097), paused: false },
};

/**
 * A bypass rule of the previous managed rules: the migration carries it, and fails for a zone where
 * its expression is over 4 KB (spec: Errors rule 7, Limits; vendor migration guide). On a zone still
 * to migrate, migration-expression-too-long reports it; this rule leaves the rule and its filter.
 */
const longBypass = firewall([{ expression: sized(4097), action: 'bypass', products: ['waf'], description: 'Skip WAF for the partner feed' }]);
const longBypassRule = longBypass.firewallRules[0]!['id'] as string;
const sharedExpression = sized(4097);
const sharedFilter = filterItem(sharedExpression, { description: 'Partner paths' });
const sharedBypass = firewall(
  [
    { expression: sharedExpression, filterId: sharedFilter['id'] as string, action: 'bypass', products: ['waf'] },
    { expression: sharedExpression, filterId: sharedFilter['id'] as string, action: 'block' },
  ],
  [sharedFilter],
);
const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};

testRule(rule, {
  valid: [
    { name: 'no rules and no filters', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'exactly 4,096 ASCII characters', snapshot: { zones: [{ name: 'a.example', ...at4096 }] } },
    {
      name: '4,096 characters of 3-byte characters (12 KB of UTF-8) are within the character limit',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: sized(4096, '商') }]) }] },
    },
    {
      name: '4,096 code points of emoji (more UTF-16 units than that) are within the limit',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: sized(4096, '🚀') }]) }] },
    },
    // One finding a filter (API spec: a filter may exist without a rule): a filter no rule uses runs nowhere; filter-orphaned reports it.
    { name: 'a filter no rule uses is left to filter-orphaned', snapshot: { zones: [{ name: 'a.example', ...withOrphan }] } },
    { name: 'a raised limit', options: { maxCharacters: 8000 }, snapshot: { zones: [{ name: 'a.example', ...over }] } },
    {
      name: 'the filters alone judge the expressions when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', ...at4096, unread: { firewall_rules: 'failed' } }] },
    },
    {
      name: "the rules' own copies judge the expressions when the filters were not read",
      snapshot: { zones: [{ name: 'a.example', firewallRules: at4096.firewallRules, unread: { filters: 'denied' } }] },
    },
    // One problem, one finding: the expression blocks the migration; migration-expression-too-long says so, and that it cannot be edited.
    { name: 'a bypass rule over 4 KB on a zone still to migrate, and its filter, are left to migration-expression-too-long', snapshot: { zones: [{ name: 'a.example', ...longBypass }] } },
    {
      name: 'so is its own copy when the filters were not read',
      snapshot: { zones: [{ name: 'a.example', firewallRules: longBypass.firewallRules, unread: { filters: 'failed' } }] },
    },
  ],
  invalid: [
    {
      name: '4,097 ASCII characters: one finding, on the filter, not again on its rule',
      snapshot: { zones: [{ name: 'a.example', ...over }] },
      findings: [
        {
          messageId: 'filterTooLong',
          resourceType: 'filter',
          resourceId: overId,
          severity: 'medium',
          data: { length: 4097, limit: 4096 },
          message: 'the filter expression is 4,097 characters long, over the limit of 4,096',
        },
      ],
    },
    { name: '4,097 characters of 3-byte characters', snapshot: { zones: [{ name: 'a.example', ...overJa }] }, findings: [{ messageId: 'filterTooLong', data: { length: 4097 } }] },
    {
      // With the rules unread, whether a filter is used is unknown: every filter is judged.
      name: 'a filter no rule uses is judged when the rules were not read, named by its description',
      snapshot: { zones: [{ name: 'a.example', filters: withOrphan.filters, unread: { firewall_rules: 'failed' } }] },
      findings: [{ messageId: 'filterTooLong', resourceId: orphan['id'] as string, resourceName: 'Left-over list', data: { length: 5000 } }],
    },
    {
      name: 'a lower limit: 101 fails, 100 passes',
      options: { maxCharacters: 100 },
      snapshot: { zones: [{ name: 'a.example', ...hundredOne }] },
      findings: [{ messageId: 'filterTooLong', data: { length: 101, limit: 100 } }],
    },
    {
      name: 'filters not read: the rule is judged on its own copy of the expression',
      snapshot: { zones: [{ name: 'a.example', firewallRules: over.firewallRules, unread: { filters: 'failed' } }] },
      findings: [{ messageId: 'ruleTooLong', resourceType: 'firewall_rule', resourceId: over.firewallRules[0]?.['id'] as string, resourceName: 'Old blocklist', data: { length: 4097 } }],
    },
    {
      name: 'a rule whose filter is missing from the filters list',
      snapshot: { zones: [{ name: 'a.example', firewallRules: [strayRule], filters: [] }] },
      findings: [{ messageId: 'ruleTooLong', resourceId: strayRule.id, resourceName: 'Stray rule' }],
    },
    {
      name: 'unknown when neither the rules nor the filters were read',
      snapshot: { zones: [{ name: 'a.example', unread: { firewall_rules: 'failed', filters: 'denied' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: ['firewall_rules', 'filters'] }],
    },
    {
      // Only the bypass rule is carried (spec: firewall rules to migrate); the block rule keeps the filter, and its length, here.
      name: 'a filter shared by a long bypass rule and a block rule stays here',
      snapshot: { zones: [{ name: 'a.example', ...sharedBypass }] },
      findings: [{ messageId: 'filterTooLong', resourceType: 'filter', resourceId: sharedFilter['id'] as string, resourceName: 'Partner paths' }],
    },
    {
      // API spec, States and transitions: a migrated zone has no previous managed rules, so nothing is left to migrate.
      name: 'the same bypass rule on a migrated zone is reported here, on its filter',
      snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated, ...longBypass }] },
      findings: [{ messageId: 'filterTooLong', resourceType: 'filter', data: { length: 4097 } }],
    },
    {
      // spec: States and transitions (validation mode is past the compatibility check): the migration rule passes it.
      name: 'and on a zone in validation mode',
      snapshot: {
        zones: [{ name: 'v.example', plan: 'enterprise', migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled', created: days(-2) }, ...longBypass }],
      },
      findings: [{ messageId: 'filterTooLong' }],
    },
    {
      name: 'and when the migration status was not read (the migration rule reports none of its rules)',
      snapshot: { zones: [{ name: 'a.example', ...longBypass, unread: { migration_status: 'failed' } }] },
      findings: [{ messageId: 'filterTooLong' }],
    },
    {
      // Tested alone, the rule takes maxBytes itself; in the catalogue it follows migration-expression-too-long's.
      name: "under the migration's raised limit the bypass rule is not the migration rule's, so it is reported here",
      options: { maxBytes: 8192 },
      snapshot: { zones: [{ name: 'a.example', firewallRules: longBypass.firewallRules, unread: { filters: 'failed' } }] },
      findings: [{ messageId: 'ruleTooLong', resourceId: longBypassRule, resourceName: 'Skip WAF for the partner feed' }],
    },
    {
      name: 'one zone fails, the other passes',
      snapshot: { zones: [{ name: 'a.example', ...over }, { name: 'b.example', ...at4096 }] },
      findings: [{ zone: 'a.example', messageId: 'filterTooLong' }],
    },
  ],
});
