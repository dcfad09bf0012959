import rule from '../../rules/custom-rules-broad-skip.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: custom rules: skip with action_parameters {ruleset: "current"} (the remaining custom
// rules), {phases: [...]} (e.g. http_request_firewall_managed) or {products: [...]}.
const skip = (expression: string, action_parameters: object, extra = {}) => ({ id: 's1', description: 'exempt', action: 'skip', expression, action_parameters, enabled: true, ...extra });
const zone = (...rules: Record<string, unknown>[]) => ({ zones: [{ name: 'shop.example', customEntrypoint: { id: 'ep', rules } }] });

testRule(rule, {
  valid: [
    { name: 'a skip for one source address', snapshot: zone(skip('ip.src eq 192.0.2.1', { ruleset: 'current' })) },
    { name: 'a skip for a path of the host', snapshot: zone(skip('http.host eq "shop.example" and starts_with(http.request.uri.path, "/webhook")', { phases: ['http_request_firewall_managed'] })) },
    { name: 'a string that names a field is not a field', snapshot: zone(skip('http.host eq "ip.src"', { phases: [] })) },
    { name: 'a disabled skip', snapshot: zone(skip('true', { ruleset: 'current' }, { enabled: false })) },
    { name: 'block on true is not a skip', snapshot: zone({ id: 'b', action: 'block', expression: 'true' }) },
    { name: 'no entry point', snapshot: { zones: [{ name: 'a.example', customEntrypoint: null }] } },
  ],
  invalid: [
    { name: 'skip the remaining custom rules for everything', snapshot: zone(skip('true', { ruleset: 'current' })), findings: [{ messageId: 'broadSkip', severity: 'high', resourceType: 'custom_rule', message: 'skips every later custom rule for every request (' }] },
    {
      name: 'bypass the managed rules for a whole host',
      snapshot: zone(skip('(http.host eq "shop.example")', { phases: ['http_request_firewall_managed', 'http_ratelimit'] })),
      findings: [{ messageId: 'broadSkip', message: 'the managed rules and the phases http_ratelimit for every request to the host' }],
    },
    { name: 'products on true', snapshot: zone(skip('(true)', { products: ['waf', 'bic'] })), findings: [{ message: 'the products waf, bic' }] },
    {
      // vendor docs: rulesets: a rule's expression selects the requests it acts on; one that came back without
      // any is read as matching every request, the widest reading, not as one host's.
      name: 'a skip that came back without an expression',
      snapshot: zone({ ...skip('', { ruleset: 'current' }), expression: null }),
      findings: [{ messageId: 'broadSkip', message: 'skips every later custom rule for every request (expression: (none))' }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { custom_entrypoint: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
