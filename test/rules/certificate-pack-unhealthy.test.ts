import rule from '../../rules/certificate-pack-unhealthy.js';
import { days, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: certificate pack statuses. Trouble: a step that timed out (`*_timed_out`), validation
// errors, an expired pack serving hosts no active pack covers, a pack pending past a grace period.
// Not trouble: staging, deactivating, inactive, backup and deletion states; an expired pack whose
// hosts an active pack serves. The spec's pack fields: status, created_on (ISO 8601 UTC).

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;
const HOSTS = ['a.example', '*.a.example'];

function pack(status: string | undefined, extra: Item = {}): Item {
  const hosts = (extra['hosts'] as string[] | undefined) ?? HOSTS;
  return {
    id: uuid(),
    type: 'advanced',
    hosts,
    ...(status === undefined ? {} : { status }),
    created_on: days(-10),
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
const expired = (extra: Item = {}) => pack('expired', { certificates: [{ id: uuid(), hosts: HOSTS, status: 'expired', expires_on: days(-2) }], ...extra });

testRule(rule, {
  valid: [
    { name: 'no packs', snapshot: zone() },
    { name: 'active packs', snapshot: zone(pack('active'), pack('active', { hosts: ['www.a.example'] })) },
    { name: 'a deleted pack', snapshot: zone(pack('active'), pack('deleted')) },
    {
      name: 'staging, deactivating, inactive, backup and deletion states',
      snapshot: zone(
        ...['staging_deployment', 'staging_active', 'deactivating', 'inactive', 'backup_issued', 'pending_deletion', 'pending_cleanup', 'pending_expiration'].map((s) => pack(s)),
      ),
    },
    { name: 'an expired pack whose hosts an active pack serves', snapshot: zone(expired(), pack('active', { hosts: ['a.example', '*.a.example', 'b.a.example'] })) },
    { name: 'an expired pack served by a wildcard of an active pack', snapshot: zone(expired({ hosts: ['www.a.example'] }), pack('active')) },
    { name: 'a pending pack within the 24-hour grace period', snapshot: zone(pack('pending_validation', { created_on: days(-0.9) })) },
    { name: 'an initializing pack within the grace period', snapshot: zone(pack('initializing', { created_on: days(-0.5) })) },
    { name: 'a longer grace period', options: { pendingGraceHours: 72 }, snapshot: zone(pack('pending_issuance', { created_on: days(-2) })) },
    { name: 'ignored statuses are configurable', options: { ignoreStatuses: ['deleted', 'pending_validation'] }, snapshot: zone(pack('pending_validation')) },
    { name: 'a pack without status whose certificates are active (older answers)', snapshot: zone(pack(undefined)) },
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
      name: 'every *_timed_out status',
      snapshot: zone(pack('initializing_timed_out'), pack('issuance_timed_out'), pack('deployment_timed_out'), pack('deletion_timed_out')),
      findings: [{ message: 'initializing_timed_out' }, { message: 'issuance_timed_out' }, { message: 'deployment_timed_out' }, { message: 'deletion_timed_out' }],
    },
    {
      name: 'a pending pack past the grace period',
      snapshot: zone(pack('pending_validation', { hosts: ['checkout.a.example'], created_on: days(-3) })),
      findings: [{ messageId: 'pendingTooLong', severity: 'medium', resourceName: 'checkout.a.example', message: 'the certificate pack for checkout.a.example has been pending_validation for 3 days, more than the 24-hour grace period' }],
    },
    { name: 'a pending pack 25 hours old', snapshot: zone(pack('pending_issuance', { created_on: days(-25 / 24) })), findings: [{ message: 'pending_issuance for 25 hours' }] },
    { name: 'a pending pack with validation errors fails at once', snapshot: zone(pack('pending_validation', { created_on: days(-0.1), validation_errors: [{ message: 'CAA' }] })), findings: [{ messageId: 'notActiveWithErrors' }] },
    { name: 'an active pack whose renewal validation reports errors', snapshot: zone(pack('active', { validation_errors: [{ message: 'CAA forbids' }] })), findings: [{ messageId: 'renewalFailing', message: 'is active but its validation reports errors: CAA forbids' }] },
    {
      name: 'an expired pack still serving hosts no active pack covers: high',
      snapshot: zone(expired(), pack('active', { hosts: ['a.example'] })),
      findings: [{ messageId: 'expiredUnserved', severity: 'high', message: 'is expired and no active pack serves *.a.example' }],
    },
    { name: 'an expired pack is not covered by another expired pack', snapshot: zone(expired(), expired()), findings: [{ messageId: 'expiredUnserved' }, { messageId: 'expiredUnserved' }] },
    {
      name: 'a pack without hosts is named by its id',
      snapshot: zone({ id: 'f7c1a2b3-0000-4000-8000-000000000000', status: 'issuance_timed_out' }),
      findings: [{ message: 'the certificate pack for f7c1a2b3-0000-4000-8000-000000000000 is issuance_timed_out' }],
    },
    {
      name: 'a pack without a status is judged by its certificates',
      snapshot: zone(pack(undefined, { certificates: [{ id: uuid(), hosts: HOSTS, status: 'expired', expires_on: days(-1) }] })),
      findings: [{ messageId: 'expiredUnserved' }],
    },
    {
      name: 'neither the pack nor its certificates have a status',
      snapshot: zone(pack(undefined, { certificates: [{ id: uuid(), hosts: HOSTS, expires_on: days(60) }] }), pack('active')),
      findings: [{ status: 'unknown', resourceType: 'certificate_pack', message: 'neither the certificate pack nor its certificates have a status' }],
    },
    { name: 'a pending pack without created_on or issue date', snapshot: zone(pack('pending_validation', { created_on: undefined })), findings: [{ status: 'unknown', message: 'no created_on' }] },
    { name: 'a status zonewarden does not know', snapshot: zone(pack('quantum_flux')), findings: [{ status: 'unknown', message: 'quantum_flux' }] },
    { name: 'a timed-out status fails with no ignored statuses', options: { ignoreStatuses: [] }, snapshot: zone(pack('deleted_timed_out')), findings: [{ messageId: 'notActive' }] },
    { name: 'the configured severity wins', severity: 'high', snapshot: zone(pack('validation_timed_out')), findings: [{ severity: 'high' }] },
    {
      name: 'unknown when the packs were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { certificate_packs: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'certificate_packs' }],
    },
  ],
});
