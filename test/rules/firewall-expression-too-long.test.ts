import rule from '../../rules/firewall-expression-too-long.js';
import { filterItem, firewall } from '../support/snapshot-fixture.js';
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
      name: 'one zone fails, the other passes',
      snapshot: { zones: [{ name: 'a.example', ...over }, { name: 'b.example', ...at4096 }] },
      findings: [{ zone: 'a.example', messageId: 'filterTooLong' }],
    },
  ],
});
