import { describe, expect, it } from 'vitest';
import rule from '../../rules/filter-orphaned.js';
import { filterItem, firewall } from '../support/snapshot-fixture.js';
import { runRule, testRule } from '../support/rule-tester.js';

const used = firewall([{ expression: 'ip.src eq 192.0.2.1' }, { expression: 'http.request.uri.path eq "/admin"', paused: true }]);
/** One filter, referenced by a log rule and a block rule. */
const shared = (() => {
  const base = firewall([{ expression: 'ip.src eq 192.0.2.9', action: 'log' }]);
  const more = firewall([{ expression: 'ip.src eq 192.0.2.9', filterId: base.filters[0]?.['id'] as string }]);
  return { firewallRules: [...base.firewallRules, ...more.firewallRules], filters: base.filters };
})();
const leftOver = filterItem('http.request.uri.path contains "/xmlrpc.php"', { description: 'Left over (quota reached)' });
const bare = filterItem('ip.geoip.country eq "T1"');
const long = filterItem(`ip.src in {${Array.from({ length: 40 }, (_, i) => `192.0.2.${i}`).join(' ')}}`);

testRule(rule, {
  valid: [
    { name: 'no filters', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'every filter is used, by an active or a paused rule', snapshot: { zones: [{ name: 'a.example', ...used }] } },
    { name: 'a filter used by several rules', snapshot: { zones: [{ name: 'a.example', ...shared }] } },
    { name: 'a rule whose filter was deleted leaves nothing behind', snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'x', filterDeleted: true }]) }] } },
  ],
  invalid: [
    {
      name: 'a filter no rule uses, beside used ones',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'ip.src eq 192.0.2.1' }], [leftOver]) }] },
      findings: [
        {
          messageId: 'orphaned',
          severity: 'low',
          resourceType: 'filter',
          resourceId: leftOver['id'] as string,
          resourceName: 'Left over (quota reached)',
          message: ['(http.request.uri.path contains "/xmlrpc.php")', 'single-call create', 'Other features may reference filters too: check before deleting it'],
        },
      ],
    },
    {
      name: 'a zone with filters and no rules at all: each filter once',
      snapshot: { zones: [{ name: 'a.example', filters: [leftOver, bare] }] },
      findings: [
        { resourceId: leftOver['id'] as string },
        { resourceId: bare['id'] as string },
      ],
    },
    {
      name: 'a long expression is shortened in the message',
      snapshot: { zones: [{ name: 'a.example', filters: [long] }] },
      findings: [{ data: { expression: `${(long['expression'] as string).slice(0, 79)}…` } }],
    },
    { name: 'unknown when the rules were not read', snapshot: { zones: [{ name: 'a.example', filters: [bare], unread: { firewall_rules: 'failed' } }] }, findings: [{ status: 'unknown', resourceType: 'zone', message: 'firewall_rules' }] },
    { name: 'unknown when the filters were not read', snapshot: { zones: [{ name: 'a.example', ...used, unread: { filters: 'denied' } }] }, findings: [{ status: 'unknown', resourceType: 'zone', message: 'filters' }] },
    {
      name: 'only the zone with the left-over filter fails',
      snapshot: { zones: [{ name: 'a.example', ...used }, { name: 'b.example', filters: [bare] }] },
      findings: [{ zone: 'b.example', messageId: 'orphaned' }],
    },
  ],
});

describe('rule filter-orphaned resources', () => {
  it('names a filter by its description, and one without a description by nothing', () => {
    const findings = runRule(rule, { name: 'names', snapshot: { zones: [{ name: 'a.example', filters: [leftOver, bare] }] } }).findings;
    expect(findings.map((f) => [f.resource.type, f.resource.id, f.resource.name])).toEqual(
      expect.arrayContaining([
        ['filter', leftOver['id'], 'Left over (quota reached)'],
        ['filter', bare['id'], null],
      ]),
    );
  });
});
