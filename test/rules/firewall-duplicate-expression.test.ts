import { createHash } from 'node:crypto';
import rule from '../../rules/firewall-duplicate-expression.js';
import { firewall, type Item, type RuleSpec } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const XMLRPC = 'http.request.uri.path eq "/xmlrpc.php"';
const hashOf = (normalised: string) => createHash('sha256').update(normalised).digest('hex').slice(0, 16);

type Firewall = { firewallRules: Item[]; filters: Item[] };

/** Rules on a filter of `base`'s first rule, each with its own action: the spec's filter reuse. */
function reusing(base: Firewall, specs: Array<Omit<RuleSpec, 'expression' | 'filterId'>>): Firewall {
  const filter = base.filters[0] as Item;
  const more = firewall(specs.map((s) => ({ ...s, expression: filter['expression'] as string, filterId: filter['id'] as string })));
  return { firewallRules: [...base.firewallRules, ...more.firewallRules], filters: base.filters };
}

function merge(...parts: Firewall[]): Firewall {
  return { firewallRules: parts.flatMap((p) => p.firewallRules), filters: parts.flatMap((p) => p.filters) };
}

const twoFilters = firewall([
  { expression: XMLRPC, description: 'Block XML-RPC' },
  { expression: XMLRPC, description: 'Block XML-RPC (agency)' },
]);
const twoActions = firewall([
  { expression: XMLRPC, action: 'block' },
  { expression: XMLRPC, action: 'challenge' },
]);
const reuse = reusing(firewall([{ expression: XMLRPC, action: 'block' }]), [{ action: 'log' }]);
const reuseSameAction = reusing(firewall([{ expression: XMLRPC, action: 'block', description: 'first' }]), [{ action: 'block', description: 'second' }]);
const reusePlusCopy = merge(reuse, firewall([{ expression: XMLRPC, action: 'js_challenge' }]));
const seven = firewall(Array.from({ length: 7 }, (_, i) => ({ expression: 'ip.src eq 192.0.2.1', description: `Ticket ${i + 1}` })));
const LONG = `http.request.uri.path in {${Array.from({ length: 30 }, (_, i) => `"/p${i}"`).join(' ')}}`;

/** An Enterprise zone at its quota: 1,000 rules, of which two pairs share an expression. */
const enterprise = firewall(
  Array.from({ length: 1000 }, (_, i) => ({ expression: `ip.src eq 10.${Math.floor(i / 250)}.${i % 250}.1` })).concat([
    { expression: 'ip.src eq 10.0.0.1' },
    { expression: 'ip.src eq 10.3.249.1' },
  ]),
);

testRule(rule, {
  valid: [
    { name: 'no rules', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'distinct expressions', snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'ip.src eq 192.0.2.1' }, { expression: 'ip.src eq 192.0.2.10' }]) }] } },
    {
      name: 'string contents differ by case only: different expressions',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'http.host eq "A.example"' }, { expression: 'http.host eq "a.example"' }]) }] },
    },
    {
      // vendor docs: rules language. Whitespace inside a string literal is part of the value: these match different requests.
      name: 'whitespace inside quoted strings is part of the value: different expressions',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'http.request.uri.path eq "/a  b"' }, { expression: 'http.request.uri.path eq "/a b"' }]) }] },
    },
    {
      name: 'an escaped quote does not end the string',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'http.user_agent contains "x\\" y  z"' }, { expression: 'http.user_agent contains "x\\" y z"' }]) }] },
    },
    {
      name: 'raw strings keep their whitespace too',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'http.request.uri.path matches r#"^/a  b"#' }, { expression: 'http.request.uri.path matches r#"^/a b"#' }]) }] },
    },
    { name: 'one filter referenced by rules with different actions (the recommended reuse)', snapshot: { zones: [{ name: 'a.example', ...reuse }] } },
    {
      name: 'rules whose filters were deleted have no expression to compare',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: XMLRPC, filterDeleted: true }, { expression: XMLRPC, filterDeleted: true }]) }] },
    },
  ],
  invalid: [
    {
      name: 'two filters with the same expression, same action',
      snapshot: { zones: [{ name: 'a.example', ...twoFilters }] },
      findings: [
        {
          messageId: 'duplicate',
          severity: 'low',
          resourceType: 'expression',
          resourceId: hashOf(XMLRPC),
          resourceName: XMLRPC,
          data: { count: 2, ruleIds: twoFilters.firewallRules.map((r) => r['id']) },
          message: `2 firewall rules run this expression: Block XML-RPC (${twoFilters.firewallRules[0]?.['id'] as string}), Block XML-RPC (agency) (${twoFilters.firewallRules[1]?.['id'] as string})`,
        },
      ],
    },
    { name: 'two filters with the same expression, different actions', snapshot: { zones: [{ name: 'a.example', ...twoActions }] }, findings: [{ messageId: 'duplicate', data: { count: 2 } }] },
    {
      name: 'one filter, two rules with the same action',
      snapshot: { zones: [{ name: 'a.example', ...reuseSameAction }] },
      findings: [{ messageId: 'duplicate', data: { count: 2 }, message: ['first (', 'second ('] }],
    },
    {
      name: 'a filter reused with different actions, plus a separate copy of its text: all three listed',
      snapshot: { zones: [{ name: 'a.example', ...reusePlusCopy }] },
      findings: [{ messageId: 'duplicate', data: { count: 3 } }],
    },
    {
      name: 'whitespace differences do not hide a duplicate; the id hashes the normalised text',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: ' ip.src eq 192.0.2.1\n  and http.host eq "a.example" ' }, { expression: 'ip.src eq 192.0.2.1 and\thttp.host eq "a.example"' }]) }] },
      findings: [{ resourceId: hashOf('ip.src eq 192.0.2.1 and http.host eq "a.example"'), resourceName: 'ip.src eq 192.0.2.1 and http.host eq "a.example"' }],
    },
    {
      name: 'whitespace between tokens around a string with inner spaces still collapses',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: 'http.host  eq\n"a  b.example"' }, { expression: 'http.host eq "a  b.example"' }]) }] },
      findings: [{ resourceId: hashOf('http.host eq "a  b.example"') }],
    },
    {
      name: 'paused rules count too',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: XMLRPC, paused: true }, { expression: XMLRPC }]) }] },
      findings: [{ messageId: 'duplicate' }],
    },
    {
      name: 'seven rules: the first five are named, then how many more',
      snapshot: { zones: [{ name: 'a.example', ...seven }] },
      findings: [{ data: { count: 7 }, message: [/^7 firewall rules run this expression: Ticket 1 \(r[0-9a-f]+\), Ticket 2 .*Ticket 5 \(r[0-9a-f]+\), and 2 more$/] }],
    },
    {
      name: 'a long expression is named by its first 79 characters and an ellipsis',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: LONG }, { expression: LONG }]) }] },
      findings: [{ resourceName: `${LONG.slice(0, 79)}…`, resourceId: hashOf(LONG) }],
    },
    {
      name: "filters not read: the rules' own copies of the expression are compared",
      snapshot: { zones: [{ name: 'a.example', firewallRules: twoFilters.firewallRules, unread: { filters: 'failed' } }] },
      findings: [{ messageId: 'duplicate', resourceId: hashOf(XMLRPC) }],
    },
    {
      name: 'an Enterprise zone of 1,000 rules: one finding per shared expression',
      snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...enterprise }] },
      findings: [
        { resourceName: 'ip.src eq 10.0.0.1', data: { count: 2 } },
        { resourceName: 'ip.src eq 10.3.249.1', data: { count: 2 } },
      ],
    },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', ...twoFilters, unread: { firewall_rules: 'denied' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'firewall_rules' }],
    },
    {
      name: 'the same expression in two zones is a finding in neither',
      snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: XMLRPC }]) }, { name: 'b.example', ...twoFilters }] },
      findings: [{ zone: 'b.example' }],
    },
  ],
});
