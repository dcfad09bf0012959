import rule from '../../rules/custom-rules-broad-skip.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: custom rules: skip with action_parameters {ruleset: "current"} (the remaining custom
// rules), {phase: "current"} (the rest of the phase), {phases: [...]} (e.g. http_request_firewall_managed)
// or {products: [...]}.
const skip = (expression: string, action_parameters: object, extra = {}) => ({ id: 's1', description: 'exempt', action: 'skip', expression, action_parameters, enabled: true, ...extra });
const block = (id = 'b1') => ({ id, description: 'block bad', action: 'block', expression: 'cf.threat_score gt 50', enabled: true });
const zone = (...rules: Record<string, unknown>[]) => ({ zones: [{ name: 'shop.example', customEntrypoint: { id: 'ep', rules } }] });
// vendor docs: deploy a managed ruleset: an execute rule in the zone's http_request_firewall_managed entry point.
const managedRuns = { id: 'mep', phase: 'http_request_firewall_managed', rules: [{ id: 'x1', action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' }, enabled: true }] };
const withManaged = (entrypoint: object | null, ...rules: Record<string, unknown>[]) => ({ zones: [{ name: 'shop.example', customEntrypoint: { id: 'ep', rules }, entrypoint }] });
// API spec: Managed-rules migration: a zone that finished migrating (state complete), and one created with the
// new managed rules (no migration state, the new version enabled, the previous one not).
const migrated = { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled' };
const native = { old_waf_status: 'disabled', new_waf_status: 'enabled' };
const onNewManagedRules = (migrationStatus: object, ...rules: Record<string, unknown>[]) => ({ zones: [{ name: 'shop.example', migrationStatus, customEntrypoint: { id: 'ep', rules } }] });

testRule(rule, {
  valid: [
    { name: 'a skip for one source address', snapshot: zone(skip('ip.src eq 192.0.2.1', { ruleset: 'current' }), block()) },
    { name: 'a skip for a path of the host', snapshot: withManaged(managedRuns, skip('http.host eq "shop.example" and starts_with(http.request.uri.path, "/webhook")', { phases: ['http_request_firewall_managed'] })) },
    { name: 'a string that names a field is not a field', snapshot: zone(skip('http.host eq "ip.src"', { phases: [] })) },
    { name: 'a disabled skip', snapshot: zone(skip('true', { ruleset: 'current' }, { enabled: false }), block()) },
    { name: 'block on true is not a skip', snapshot: zone({ id: 'b', action: 'block', expression: 'true' }) },
    { name: 'no entry point', snapshot: { zones: [{ name: 'a.example', customEntrypoint: null }] } },
    // ruleset engine docs, create an exception: an exception only applies to rules listed after it;
    // one at the end of the entry point skips nothing. Skip options: ruleset "current" skips the remaining rules.
    { name: 'skip the remaining custom rules from the last rule: nothing to skip', snapshot: zone(block(), skip('true', { ruleset: 'current' })) },
    { name: 'the only later rule is disabled', snapshot: zone(skip('true', { ruleset: 'current' }), { ...block(), enabled: false }) },
    // Decision: a later skip rule protects nothing, so skipping it removes no protection.
    { name: 'the only later rule is another skip', snapshot: zone(skip('true', { ruleset: 'current' }), skip('ip.src eq 192.0.2.1', { products: ['bic'] }, { id: 's2' })) },
    // vendor docs: skip options: phase "current" skips all remaining rules in the phase; from the last rule, none.
    { name: 'skip the rest of the phase from the last rule', snapshot: zone(skip('true', { phase: 'current' })) },
    // vendor docs: deploy a managed ruleset: without an execute rule in the managed entry point nothing runs there.
    { name: 'skip the managed phase when it has no entry point', snapshot: withManaged(null, skip('true', { phases: ['http_request_firewall_managed'] })) },
    {
      name: 'skip the managed phase when its only execute rule is disabled',
      snapshot: withManaged({ ...managedRuns, rules: [{ ...managedRuns.rules[0], enabled: false }] }, skip('true', { phases: ['http_request_firewall_managed'] })),
    },
    // vendor docs: values: 0.0.0.0/0 is every IPv4 address; IPv6 clients still meet the rules.
    { name: 'every IPv4 client only', snapshot: zone(skip('ip.src in {0.0.0.0/0}', { products: ['waf'] })) },
    // Never a false failure: an expression the check cannot read is not judged broad.
    { name: 'an expression it cannot read', snapshot: zone(skip('true AND true', { products: ['waf'] })) },
    // vendor docs: values, missing values: a comparison of a missing header is false, so eq or ne can both be false.
    { name: 'eq or ne of a header that may be missing', snapshot: zone(skip('http.request.headers["x-a"][0] eq "1" or http.request.headers["x-a"][0] ne "1"', { products: ['waf'] })) },
    // vendor docs: skip options: `waf` is "Managed rules (Previous version)"; WAF managed rules (previous version)
    // and the firewall rules deprecation notice: retired on 2025-06-15. On a zone that runs the new managed
    // rules the product skips nothing, so a skip left with nothing else to skip is not reported.
    { name: 'the previous managed rules on a migrated zone', snapshot: onNewManagedRules(migrated, skip('true', { products: ['waf'] })) },
    { name: 'the previous managed rules on a zone created with the new ones', snapshot: onNewManagedRules(native, skip('true', { products: ['waf'] })) },
    // vendor docs: fields: cf.zone.name is the zone the request is for: another zone's name matches none of this zone's requests.
    { name: 'a skip naming another zone', snapshot: zone(skip('cf.zone.name eq "other.example"', { ruleset: 'current' }), block()) },
    // vendor docs: operators: eq compares the whole value: one host cannot equal two different names.
    { name: 'a skip requiring two different hosts at once', snapshot: zone(skip('http.host eq "a.shop.example" and http.host eq "b.shop.example"', { ruleset: 'current' }), block()) },
  ],
  invalid: [
    {
      name: 'skip the remaining custom rules for everything',
      snapshot: zone(skip('true', { ruleset: 'current' }), block()),
      findings: [{ messageId: 'broadSkip', severity: 'high', resourceType: 'custom_rule', message: 'custom rule "exempt" skips every later custom rule for every request (' }],
    },
    {
      // vendor docs: skip options: the products bic and waf; waf names the previous managed rules, gone on a migrated zone.
      name: 'the previous managed rules dropped from what a migrated zone skips',
      snapshot: onNewManagedRules(migrated, skip('true', { products: ['waf', 'bic'] })),
      findings: [{ message: 'skips the products bic (Browser Integrity Check) for every request (' }],
    },
    {
      // vendor docs: fields: cf.zone.name, the zone the request is for: naming this zone matches every request of it.
      name: 'a skip naming this zone',
      snapshot: zone(skip('cf.zone.name eq "shop.example"', { ruleset: 'current' }), block()),
      findings: [{ message: 'skips every later custom rule for every request (expression: cf.zone.name eq "shop.example")' }],
    },
    {
      // vendor docs: operators: wildcard: `*` is zero or more characters; RFC 9110 4.1: every path starts with "/".
      name: 'a wildcard of every path',
      snapshot: zone(skip('http.request.uri.path wildcard "/*"', { products: ['bic'] })),
      findings: [{ message: 'for every request (' }],
    },
    {
      // Several hosts, or a host condition that names none outright, are not "the host".
      name: 'skips for several hosts and for every host but one',
      snapshot: zone(
        skip('http.host in {"shop.example" "www.shop.example"}', { products: ['bic'] }, { id: 'hosts' }),
        skip('not http.host eq "admin.shop.example"', { products: ['bic'] }, { id: 'negated' }),
      ),
      findings: [
        { resourceId: 'hosts', message: 'skips the products bic (Browser Integrity Check) for every request to the hosts it names (' },
        { resourceId: 'negated', message: 'for requests decided by the host name alone (' },
      ],
    },
    {
      // vendor docs: create an exception: a skip only skips what comes after it; each skip counts the acting rules after it.
      name: 'each skip of a long entry point counts the rules after it',
      snapshot: zone(
        skip('true', { ruleset: 'current' }, { id: 'first' }),
        block('b1'),
        skip('true', { ruleset: 'current' }, { id: 'second' }),
        { ...block('b2'), enabled: false },
        block('b3'),
        skip('true', { ruleset: 'current' }, { id: 'last' }),
        { ...block('b4'), enabled: false },
      ),
      findings: [{ resourceId: 'first' }, { resourceId: 'second' }],
    },
    {
      // vendor docs: skip options: phases http_ratelimit (rate limiting rules); the managed phase runs the deployed managed ruleset.
      name: 'bypass the managed rules for a whole host',
      snapshot: withManaged(managedRuns, skip('(http.host eq "shop.example")', { phases: ['http_request_firewall_managed', 'http_ratelimit'] })),
      findings: [{ messageId: 'broadSkip', message: 'the managed rules and the phases http_ratelimit (rate limiting rules) for every request to the host' }],
    },
    { name: 'products on true', snapshot: zone(skip('(true)', { products: ['waf', 'bic'] })), findings: [{ message: 'the products waf, bic (previous managed rules, Browser Integrity Check)' }] },
    {
      // vendor docs: rulesets: a rule's expression selects the requests it acts on; one that came back without
      // any is read as matching every request, the widest reading, not as one host's.
      name: 'a skip that came back without an expression',
      snapshot: zone({ ...skip('', { ruleset: 'current' }), expression: null }, block()),
      findings: [{ messageId: 'broadSkip', message: 'skips every later custom rule for every request (expression: (none))' }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { custom_entrypoint: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    {
      // vendor docs: skip options: phase "current" skips all remaining rules in the phase, custom rulesets executed later included.
      name: 'skip the rest of the custom-rules phase',
      snapshot: zone(skip('true', { phase: 'current' }), { id: 'x', action: 'execute', expression: 'true', action_parameters: { id: 'custom-ruleset' } }),
      findings: [{ message: 'skips the rest of the custom-rules phase (every later custom rule and the custom rulesets they run) for every request' }],
    },
    {
      // vendor docs: skip options: phases http_ratelimit and http_request_sbfm (Super Bot Fight Mode).
      name: 'skip rate limiting and Super Bot Fight Mode',
      snapshot: zone(skip('not false', { phases: ['http_ratelimit', 'http_request_sbfm'] })),
      findings: [{ message: 'skips the phases http_ratelimit, http_request_sbfm (rate limiting rules, Super Bot Fight Mode rules) for every request (expression: not false)' }],
    },
    {
      // vendor docs: skip options: products zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf.
      name: 'every product named in words',
      snapshot: zone(skip('true', { products: ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'] })),
      findings: [
        {
          message:
            'the products zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf (Zone Lockdown, User Agent Blocking, Browser Integrity Check, Hotlink Protection, Security Level, previous rate limiting rules, previous managed rules)',
        },
      ],
    },
    {
      // Decision: a managed phase that was not read may run the managed rules (or come to): the skip is reported.
      name: 'skip the managed phase when it was not read',
      snapshot: { zones: [{ name: 'shop.example', customEntrypoint: { id: 'ep', rules: [skip('true', { phases: ['http_request_firewall_managed'] })] }, unread: { entrypoint: 'failed' as const } }] },
      findings: [{ message: 'skips the managed rules (whatever the managed phase runs: it was not read) for every request' }],
    },
    {
      // vendor docs: API examples: ruleset, phases and products can be combined in one skip rule.
      name: 'several skip options at once',
      snapshot: withManaged(managedRuns, skip('true', { ruleset: 'current', phases: ['http_request_firewall_managed'], products: ['securityLevel'] }), block()),
      findings: [{ message: 'skips every later custom rule, the managed rules and the products securityLevel (Security Level) for every request' }],
    },
    {
      // vendor docs: rules language: each of these matches every request (see test/cloudflare/rulesets/broad-expression.test.ts).
      name: 'expressions that match every request, as people write them',
      snapshot: zone(
        skip('ip.src in {0.0.0.0/0 ::/0}', { products: ['waf'] }, { id: 'a' }),
        skip('starts_with(http.request.uri.path, "/")', { products: ['waf'] }, { id: 'b' }),
        skip('http.request.uri.path matches ".*"', { products: ['waf'] }, { id: 'c' }),
        skip('http.request.uri.path eq "/a" or http.request.uri.path ne "/a"', { products: ['waf'] }, { id: 'd' }),
        skip('ssl or not ssl', { products: ['waf'] }, { id: 'e' }),
      ),
      findings: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ resourceId: id, message: 'for every request (' })),
    },
    {
      // An always-true part does not narrow a host condition: still every request to the host.
      name: 'a host and an always-true condition',
      snapshot: zone(skip('http.host eq "shop.example" and ip.src in {0.0.0.0/0 ::/0}', { products: ['bic'] })),
      findings: [{ message: 'for every request to the host (' }],
    },
    {
      name: 'the expression is shown on one line and shortened',
      snapshot: zone(skip(`true\n  or http.request.uri.path eq "/${'x'.repeat(200)}"`, { products: ['hot'] })),
      findings: [{ message: [`(expression: true or http.request.uri.path eq "/xxx`, /x\.\.\.\)$/] }],
    },
  ],
});
