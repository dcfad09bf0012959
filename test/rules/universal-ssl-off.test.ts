import rule from '../../rules/universal-ssl-off.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: universal SSL settings: {enabled}; universal packs cover the apex and one level of subdomains.
const a = (name: string, proxied = true) => ({ id: `r-${name}`, type: 'A', name, content: '192.0.2.10', proxied, ttl: 1 });
const pack = (type: string, hosts: string[], status = 'active') => ({ id: `p-${type}-${hosts[0]}`, type, status, hosts, created_on: days(-10) });
const zone = (enabled: boolean | undefined, records: Record<string, unknown>[], packs: Record<string, unknown>[]) => ({
  zones: [{ name: 'shop.example', universalSsl: enabled === undefined ? {} : { enabled }, dnsRecords: records, certificatePacks: packs }],
});

testRule(rule, {
  valid: [
    { name: 'on', snapshot: zone(true, [a('www.shop.example')], []) },
    { name: 'an answer without the field is taken as on', snapshot: zone(undefined, [a('www.shop.example')], []) },
    { name: 'off, with an advanced pack covering every proxied host', snapshot: zone(false, [a('www.shop.example'), a('db.shop.example', false)], [pack('advanced', ['shop.example', '*.shop.example'])]) },
    { name: 'off, with a custom certificate', snapshot: zone(false, [], [pack('custom', ['shop.example'])]) },
  ],
  invalid: [
    {
      name: 'off with only the universal pack',
      snapshot: zone(false, [a('www.shop.example')], [pack('universal', ['shop.example', '*.shop.example'])]),
      findings: [{ messageId: 'uncovered', severity: 'high', data: { count: 2, hosts: 'shop.example, www.shop.example' } }],
    },
    {
      name: 'an advanced pack still being validated does not count',
      snapshot: zone(false, [], [pack('advanced', ['shop.example'], 'pending_validation')]),
      findings: [{ messageId: 'uncovered', data: { hosts: 'shop.example' } }],
    },
    {
      name: 'a deeper name the wildcard does not cover',
      snapshot: zone(false, [a('a.b.shop.example')], [pack('advanced', ['shop.example', '*.shop.example'])]),
      findings: [{ messageId: 'uncovered', data: { hosts: 'a.b.shop.example' } }],
    },
    { name: 'unknown when not read', snapshot: { zones: [{ name: 'a.example', unread: { universal_ssl: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
