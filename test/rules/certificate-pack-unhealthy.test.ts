import { afterEach, describe, expect, it } from 'vitest';
import rule from '../../rules/certificate-pack-unhealthy.js';
import { evaluate } from '../../src/policy/engine.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { pruneScans } from '../../src/snapshot/prune.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { days, FIXTURE_NOW, zoneIdOf, type Item } from '../support/snapshot-fixture.js';
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
    {
      // Real answer (cf-terraforming capture of GET ssl/certificate_packs): an `initializing` pack with
      // no `created_on` and no `certificates`. Dated from the first scan that saw it; in a one-scan
      // snapshot that is this scan's start, so it is within the grace period, not unknown forever.
      name: 'an initializing pack without created_on or certificates, first seen by this scan',
      snapshot: zone({ id: uuid(), type: 'advanced', hosts: ['example.com', '*.example.com', 'www.example.com'], status: 'initializing', validation_method: 'txt', validity_days: 365, certificate_authority: 'google', cloudflare_branding: false }),
    },
    { name: 'a pending pack without created_on or issue date, first seen by this scan', snapshot: zone(pack('pending_validation', { created_on: undefined })) },
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
      findings: [
        {
          messageId: 'pendingTooLong',
          severity: 'medium',
          resourceName: 'checkout.a.example',
          message: 'the certificate pack for checkout.a.example has been pending_validation for 3 days, more than the 24-hour grace period: created on 2026-10-29',
          data: { sinceFrom: 'created_on', since: '2026-10-29T12:00:00.000Z' },
        },
      ],
    },
    {
      // spec: Certificate pack created_on; without it, the pack's earliest certificate upload dates it.
      name: 'a pending pack without created_on is dated by its earliest certificate',
      snapshot: zone(pack('pending_issuance', { created_on: undefined, certificates: [{ id: uuid(), hosts: HOSTS, status: 'pending_issuance', uploaded_on: days(-2) }] })),
      findings: [{ messageId: 'pendingTooLong', message: 'for 2 days, more than the 24-hour grace period: no created_on; its first certificate was uploaded on 2026-10-30', data: { sinceFrom: 'uploaded_on' } }],
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

// A pack the API lists without `created_on` (the captured `initializing` answer has none) is dated
// from the scans that saw it: snapshot rows keep the range of scans [first_scan, last_scan] over
// which a version of the pack was current, and the first of those scans started no later than the
// pack existed. Two real scans of one database, written by the scan writer as a night's scan is.
describe('certificate-pack-unhealthy: a pack without created_on, dated by the scans that saw it', () => {
  const ZONE = 'a.example';
  const zoneId = zoneIdOf(ZONE);
  const ACCOUNT = { id: 'acc0000000000000000000000000000a', name: 'Example Org', type: 'standard' };
  /** The captured shape: status initializing, no created_on, no certificates. */
  const initializing = (id: string, status = 'initializing'): Item => ({ id, type: 'advanced', hosts: ['a.example', '*.a.example'], status, validity_days: 90, certificate_authority: 'google' });
  let db: Db;

  afterEach(() => db?.close());

  /** One complete scan of the zone's certificate packs, started at `startedAt`; its id. */
  function scan(startedAt: string, packs: Item[]): number {
    const writer = ScanWriter.start(db, 'http://127.0.0.1/client/v4', { accounts: [], zones: [] }, (s) => s);
    const list = (kind: 'user' | 'account' | 'zone', scopeId: string, partition: 'accounts' | 'zones' | 'zone' | 'certificate_packs', items: Item[]) => {
      const p = writer.partition(kind, scopeId, partition);
      if (items.length) p.write(items);
      p.finish({ state: 'ok', pages: 1, items: items.length });
    };
    list('user', '', 'accounts', [ACCOUNT]);
    list('account', ACCOUNT.id, 'zones', []);
    list('zone', zoneId, 'zone', [{ id: zoneId, name: ZONE, status: 'active', paused: false, type: 'full', account: { id: ACCOUNT.id, name: ACCOUNT.name }, plan: { id: 'plan-pro', name: 'pro', legacy_id: 'pro' } }]);
    list('zone', zoneId, 'certificate_packs', packs);
    writer.finish('complete', {});
    db.prepare('UPDATE scans SET started_at = ? WHERE id = ?').run(startedAt, writer.scanId);
    return writer.scanId;
  }

  const audit = (scanId: number) => evaluate(new SnapshotReader(db, scanId), activeRules(loadCatalogue([rule]))).findings.filter((f) => f.status !== 'pass');

  it('the reader gives each pack the start of the first scan that stored it, whether or not the pack changed since', () => {
    db = openSnapshot(':memory:');
    const first = scan(days(-3), [initializing('p-same'), initializing('p-changed')]);
    // p-changed moved on (a new stored version); p-new appeared in the second scan.
    const second = scan(FIXTURE_NOW.toISOString(), [initializing('p-same'), initializing('p-changed', 'pending_validation'), initializing('p-new')]);
    expect(Object.fromEntries(new SnapshotReader(db, second).certificatePackFirstSeen(zoneId))).toEqual({ 'p-same': days(-3), 'p-changed': days(-3), 'p-new': FIXTURE_NOW.toISOString() });
    // An older scan knows nothing of later scans.
    expect(Object.fromEntries(new SnapshotReader(db, first).certificatePackFirstSeen(zoneId))).toEqual({ 'p-same': days(-3), 'p-changed': days(-3) });
  });

  it('after retention deleted the first scan, the earliest kept scan dates the pack (never earlier than a scan that saw it)', () => {
    db = openSnapshot(':memory:');
    scan(days(-3), [initializing('p-same')]);
    const second = scan(FIXTURE_NOW.toISOString(), [initializing('p-same')]);
    expect(pruneScans(db, 1).deletedScans).toHaveLength(1);
    expect(Object.fromEntries(new SnapshotReader(db, second).certificatePackFirstSeen(zoneId))).toEqual({ 'p-same': FIXTURE_NOW.toISOString() });
  });

  it('an initializing pack first seen three days ago is past the 24-hour grace period, at least', () => {
    // vendor docs: certificate pack statuses (initializing is on the way to active, not a state to stay in).
    db = openSnapshot(':memory:');
    scan(days(-3), [initializing('3822ff90-ea29-44df-9e55-21300bb9419b')]);
    const second = scan(FIXTURE_NOW.toISOString(), [initializing('3822ff90-ea29-44df-9e55-21300bb9419b')]);
    expect(audit(second)).toMatchObject([
      {
        status: 'fail',
        messageId: 'pendingTooLong',
        resource: { type: 'certificate_pack', id: '3822ff90-ea29-44df-9e55-21300bb9419b' },
        message: 'the certificate pack for a.example, *.a.example has been initializing for at least 3 days, more than the 24-hour grace period: no created_on; a scan first saw it on 2026-10-29',
        data: { sinceFrom: 'first_seen', since: days(-3) },
      },
    ]);
  });

  it('a pack first seen 12 hours ago is within the grace period', () => {
    db = openSnapshot(':memory:');
    scan(days(-0.5), [initializing('p-young', 'pending_validation')]);
    const second = scan(FIXTURE_NOW.toISOString(), [initializing('p-young', 'pending_validation')]);
    expect(audit(second)).toEqual([]);
  });
});
