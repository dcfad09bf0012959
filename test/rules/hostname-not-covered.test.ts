import rule from '../../rules/hostname-not-covered.js';
import { days, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

let seq = 0;
const hex = () => (++seq).toString(16).padStart(32, '0');
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;

const record = (name: string, proxied = true, type = 'A', content = '192.0.2.1'): Item => ({ id: hex(), type, name, content, proxied, ttl: proxied ? 1 : 3600 });

function pack(hosts: string[], status = 'active', expires_on: string | null = days(60)): Item {
  return { id: uuid(), type: 'advanced', hosts, status, certificates: [{ id: uuid(), hosts, status, expires_on }] };
}

const universal = pack(['a.example', '*.a.example']);
const zone = (records: Item[], packs: Item[] = [universal]) => ({ zones: [{ name: 'a.example', dnsRecords: records, certificatePacks: packs }] });

testRule(rule, {
  valid: [
    { name: 'no DNS records', snapshot: zone([]) },
    { name: 'the apex and one label under the wildcard', snapshot: zone([record('a.example'), record('www.a.example', true, 'CNAME', 'a.example'), record('api.a.example')]) },
    { name: 'unproxied names need no edge certificate', snapshot: zone([record('a.b.a.example', false), record('other.example', false)], []) },
    { name: 'a second-level name named exactly by a pack', snapshot: zone([record('v1.api.a.example')], [universal, pack(['v1.api.a.example'])]) },
    { name: 'a second-level name under its own wildcard', snapshot: zone([record('v1.api.a.example')], [universal, pack(['*.api.a.example'])]) },
    { name: 'case and trailing dots do not matter', snapshot: zone([record('WWW.A.Example.'), record('A.EXAMPLE.')], [pack(['a.example.', '*.A.example'])]) },
    { name: 'a wildcard record under the wildcard pack', snapshot: zone([record('*.a.example')]) },
    // vendor docs: certificates are issued once a zone is active; zone-not-active reports the pending zone.
    { name: 'a pending zone is left to zone-not-active', snapshot: { zones: [{ name: 'a.example', status: 'pending', dnsRecords: [record('a.example')], certificatePacks: [pack(['a.example', '*.a.example'], 'pending_validation', null)] }] } },
    { name: 'an initializing zone too', snapshot: { zones: [{ name: 'a.example', status: 'initializing', dnsRecords: [record('a.b.a.example')], certificatePacks: [] }] } },
    {
      name: 'a pack without a status is judged by its certificates (older answers)',
      snapshot: zone([record('v1.api.a.example')], [universal, { id: uuid(), type: 'advanced', hosts: ['v1.api.a.example'], certificates: [{ id: uuid(), hosts: ['v1.api.a.example'], status: 'active', expires_on: days(60) }] }]),
    },
    { name: 'an active pack whose certificate has expired still names the host', snapshot: zone([record('a.example')], [pack(['a.example'], 'active', days(-2))]) },
  ],
  invalid: [
    {
      name: 'two labels under a one-label wildcard',
      snapshot: zone([record('a.example'), record('api.a.example'), record('v1.api.a.example')]),
      findings: [
        {
          messageId: 'notCovered',
          severity: 'high',
          resourceType: 'hostname',
          resourceId: 'v1.api.a.example',
          resourceName: 'v1.api.a.example',
          message: 'v1.api.a.example is proxied but no certificate pack covers it',
        },
      ],
    },
    {
      name: 'the wildcard does not cover the apex',
      snapshot: zone([record('a.example'), record('www.a.example')], [pack(['*.a.example'])]),
      findings: [{ resourceId: 'a.example' }],
    },
    {
      name: 'no pack at all',
      snapshot: zone([record('a.example'), record('www.a.example', true, 'CNAME', 'a.example')], []),
      findings: [{ resourceId: 'a.example' }, { resourceId: 'www.a.example' }],
    },
    {
      name: 'only a pending pack names it',
      snapshot: zone([record('checkout.x.a.example')], [universal, pack(['checkout.x.a.example'], 'pending_validation', null)]),
      findings: [
        {
          messageId: 'onlyInactive',
          resourceId: 'checkout.x.a.example',
          message: 'checkout.x.a.example is proxied but no active certificate pack covers it: only a pending_validation pack covers it',
          data: { status: 'pending_validation' },
        },
      ],
    },
    {
      name: 'only a timed-out wildcard pack covers it',
      snapshot: zone([record('portal.b.a.example')], [universal, pack(['*.b.a.example'], 'validation_timed_out', null)]),
      findings: [{ messageId: 'onlyInactive', message: 'only a validation_timed_out pack' }],
    },
    {
      name: 'one finding per name, however many records and spellings it has',
      snapshot: zone([record('x.y.a.example'), record('x.y.a.example', true, 'AAAA', '2001:db8::1'), record('X.Y.A.example.')]),
      findings: [{ resourceId: 'x.y.a.example' }],
    },
    {
      name: 'a wildcard record is not covered by a more specific name',
      snapshot: zone([record('*.a.example')], [pack(['a.example', 'www.a.example'])]),
      findings: [{ resourceId: '*.a.example' }],
    },
    { name: 'the configured severity wins', severity: 'medium', snapshot: zone([record('a.b.a.example')]), findings: [{ severity: 'medium' }] },
    { name: 'a paused but active zone is still checked', snapshot: { zones: [{ name: 'a.example', paused: true, dnsRecords: [record('a.b.a.example')], certificatePacks: [universal] }] }, findings: [{ messageId: 'notCovered' }] },
    {
      name: 'unknown when the DNS records were not read',
      snapshot: { zones: [{ name: 'a.example', certificatePacks: [universal], unread: { dns_records: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'dns_records' }],
    },
    {
      name: 'unknown when the packs were not read',
      snapshot: { zones: [{ name: 'a.example', dnsRecords: [record('a.example')], unread: { certificate_packs: 'denied' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'certificate_packs' }],
    },
  ],
});
