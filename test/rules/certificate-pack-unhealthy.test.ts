import rule from '../../rules/certificate-pack-unhealthy.js';
import { days, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;

function pack(status: string | undefined, extra: Item = {}): Item {
  const hosts = ['a.example', '*.a.example'];
  return {
    id: uuid(),
    type: 'advanced',
    hosts,
    ...(status === undefined ? {} : { status }),
    certificates: [{ id: uuid(), hosts, status: 'active', expires_on: days(60) }],
    ...extra,
  };
}

const zone = (...packs: Item[]) => ({ zones: [{ name: 'a.example', certificatePacks: packs }] });

const timedOut = pack('validation_timed_out', {
  validation_errors: [
    { message: 'Certificate authority encountered a CAA record which does not permit certificate issuance' },
    { message: 'TXT record not found at _acme-challenge.a.example' },
  ],
});

testRule(rule, {
  valid: [
    { name: 'no packs', snapshot: zone() },
    { name: 'active packs', snapshot: zone(pack('active'), pack('active', { hosts: ['www.a.example'] })) },
    { name: 'a deleted pack is ignored by default', snapshot: zone(pack('active'), pack('deleted')) },
    { name: 'ignored statuses are configurable', options: { ignoreStatuses: ['deleted', 'pending_validation'] }, snapshot: zone(pack('pending_validation')) },
  ],
  invalid: [
    {
      name: 'a pack whose validation timed out, with its validation errors',
      snapshot: zone(pack('active'), timedOut),
      findings: [
        {
          messageId: 'notActiveWithErrors',
          severity: 'medium',
          resourceType: 'certificate_pack',
          resourceId: timedOut['id'] as string,
          resourceName: 'a.example, *.a.example',
          message:
            'the certificate pack for a.example, *.a.example is validation_timed_out, not active: Certificate authority encountered a CAA record which does not permit certificate issuance; TXT record not found at _acme-challenge.a.example',
        },
      ],
    },
    {
      name: 'a pending pack without errors',
      snapshot: zone(pack('pending_validation', { hosts: ['checkout.a.example'] })),
      findings: [{ messageId: 'notActive', resourceName: 'checkout.a.example', message: 'the certificate pack for checkout.a.example is pending_validation, not active' }],
    },
    {
      name: 'an empty list of validation errors says nothing about them',
      snapshot: zone(pack('expired', { validation_errors: [] })),
      findings: [{ messageId: 'notActive', message: /is expired, not active$/ }],
    },
    {
      name: 'one finding per unhealthy pack',
      snapshot: zone(pack('expired'), pack('issuance_timed_out'), pack('active')),
      findings: [{ message: 'expired' }, { message: 'issuance_timed_out' }],
    },
    {
      name: 'a deleted pack is reported once it is no longer ignored',
      options: { ignoreStatuses: [] },
      snapshot: zone(pack('deleted')),
      findings: [{ messageId: 'notActive', message: 'is deleted' }],
    },
    {
      name: 'a pack without hosts is named by its id',
      snapshot: zone({ id: 'f7c1a2b3-0000-4000-8000-000000000000', status: 'pending_issuance' }),
      findings: [{ message: 'the certificate pack for f7c1a2b3-0000-4000-8000-000000000000 is pending_issuance' }],
    },
    {
      name: 'a pack without a status cannot be judged',
      snapshot: zone(pack(undefined), pack('active')),
      findings: [{ status: 'unknown', resourceType: 'certificate_pack', message: 'the certificate pack has no status' }],
    },
    { name: 'the configured severity wins', severity: 'high', snapshot: zone(pack('expired')), findings: [{ severity: 'high' }] },
    {
      name: 'unknown when the packs were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { certificate_packs: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'certificate_packs' }],
    },
  ],
});
