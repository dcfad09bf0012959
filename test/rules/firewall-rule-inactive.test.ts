import { describe, expect, it } from 'vitest';
import rule from '../../rules/firewall-rule-inactive.js';
import { firewall, type Item } from '../support/snapshot-fixture.js';
import { runRule, testRule } from '../support/rule-tester.js';

const active = firewall([{ expression: 'ip.src eq 192.0.2.1' }, { expression: 'http.request.uri.path eq "/admin"', action: 'challenge' }]);
const pausedRule = firewall([{ expression: 'cf.threat_score gt 30', paused: true, description: 'Paused after complaints' }, { expression: 'ip.src eq 192.0.2.2' }]);
const pausedFilter = firewall([{ expression: 'ip.src in {192.0.2.0/24}', filterPaused: true, action: 'allow' }]);
const deletedFilter = firewall([{ expression: 'ip.src eq 192.0.2.3', filterDeleted: true, description: 'Spam campaign' }]);
const pausedRuleDeletedFilter = firewall([{ expression: 'ip.src eq 192.0.2.4', paused: true, filterDeleted: true }]);
const pausedBoth = firewall([{ expression: 'ip.src eq 192.0.2.5', paused: true, filterPaused: true }]);

/** The filters list says paused, the copy inside the rule (older, or cached) says not: the list wins. */
const listSaysPaused = firewall([{ expression: 'ip.src eq 192.0.2.6' }]);
const listPausedFilters = listSaysPaused.filters.map((f) => ({ ...f, paused: true }));

/** A rule whose embedded filter carries no paused field. */
const withoutPaused = (rules: Item[]) => rules.map((r) => ({ ...r, filter: { id: (r['filter'] as Item)['id'], expression: (r['filter'] as Item)['expression'] } }));

const idOf = (fw: { firewallRules: Item[] }, i = 0) => fw.firewallRules[i]?.['id'] as string;
const filterIdOf = (fw: { firewallRules: Item[] }, i = 0) => (fw.firewallRules[i]?.['filter'] as Item)['id'] as string;

testRule(rule, {
  valid: [
    { name: 'no firewall rules', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'active rules on active filters', snapshot: { zones: [{ name: 'a.example', ...active }] } },
    {
      name: "filters not read: the rule's embedded filter says it is not paused",
      snapshot: { zones: [{ name: 'a.example', firewallRules: active.firewallRules, unread: { filters: 'failed' } }] },
    },
    {
      name: 'a filter missing from the list is judged on the embedded copy',
      snapshot: { zones: [{ name: 'a.example', firewallRules: active.firewallRules, filters: [] }] },
    },
  ],
  invalid: [
    {
      name: 'a paused rule, beside an active one',
      snapshot: { zones: [{ name: 'a.example', ...pausedRule }] },
      findings: [{ messageId: 'rulePaused', resourceType: 'firewall_rule', resourceId: idOf(pausedRule), resourceName: 'Paused after complaints', severity: 'low', message: 'the firewall rule is paused' }],
    },
    {
      name: 'an active rule whose filter is paused',
      snapshot: { zones: [{ name: 'a.example', ...pausedFilter }] },
      findings: [{ messageId: 'filterPaused', resourceId: idOf(pausedFilter), data: { filterId: filterIdOf(pausedFilter) }, message: 'never matches' }],
    },
    {
      name: 'a rule whose filter was deleted',
      snapshot: { zones: [{ name: 'a.example', ...deletedFilter }] },
      findings: [{ messageId: 'filterDeleted', resourceId: idOf(deletedFilter), resourceName: 'Spam campaign', message: `the filter ${filterIdOf(deletedFilter)} of this firewall rule was deleted` }],
    },
    {
      name: 'paused with a deleted filter: one finding, the deleted filter (unpausing would not help)',
      snapshot: { zones: [{ name: 'a.example', ...pausedRuleDeletedFilter }] },
      findings: [{ messageId: 'filterDeleted' }],
    },
    { name: 'paused rule and paused filter: one finding, the paused rule', snapshot: { zones: [{ name: 'a.example', ...pausedBoth }] }, findings: [{ messageId: 'rulePaused' }] },
    {
      name: 'filters not read: the embedded filter says it is paused',
      snapshot: { zones: [{ name: 'a.example', firewallRules: pausedFilter.firewallRules, unread: { filters: 'denied' } }] },
      findings: [{ messageId: 'filterPaused' }],
    },
    {
      name: 'the filters list wins over the copy embedded in the rule',
      snapshot: { zones: [{ name: 'a.example', firewallRules: listSaysPaused.firewallRules, filters: listPausedFilters }] },
      findings: [{ messageId: 'filterPaused', resourceId: idOf(listSaysPaused) }],
    },
    {
      name: 'filters not read and the embedded filter has no paused field: unknown for that rule',
      snapshot: { zones: [{ name: 'a.example', firewallRules: withoutPaused(active.firewallRules), unread: { filters: 'failed' } }] },
      findings: [
        { status: 'unknown', resourceType: 'firewall_rule', resourceId: idOf(active, 0), message: 'filters could not be read' },
        { status: 'unknown', resourceType: 'firewall_rule', resourceId: idOf(active, 1) },
      ],
    },
    {
      name: 'a paused rule is still judged when the filters were not read',
      snapshot: { zones: [{ name: 'a.example', firewallRules: withoutPaused(pausedRule.firewallRules).slice(0, 1), unread: { filters: 'failed' } }] },
      findings: [{ messageId: 'rulePaused' }],
    },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', ...active, unread: { firewall_rules: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'firewall_rules' }],
    },
    {
      name: 'every inactive rule of a zone, one finding each; a clean zone passes',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'a', paused: true }, { expression: 'b', filterPaused: true }, { expression: 'c', filterDeleted: true }, { expression: 'd' }]) }, { name: 'b.example', ...active }] },
      findings: [
        { zone: 'a.example', messageId: 'rulePaused' },
        { zone: 'a.example', messageId: 'filterPaused' },
        { zone: 'a.example', messageId: 'filterDeleted' },
      ],
    },
  ],
});

describe('rule firewall-rule-inactive resources', () => {
  it('names a rule by its description, and a rule without one by nothing', () => {
    const fw = firewall([{ expression: 'a', paused: true, description: 'Old block' }, { expression: 'b', paused: true }]);
    const names = runRule(rule, { name: 'names', snapshot: { zones: [{ name: 'a.example', ...fw }] } }).findings.map((f) => [f.resource.type, f.resource.id, f.resource.name]);
    expect(names).toEqual(
      expect.arrayContaining([
        ['firewall_rule', idOf(fw, 0), 'Old block'],
        ['firewall_rule', idOf(fw, 1), null],
      ]),
    );
  });
});
