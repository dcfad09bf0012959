import rule from '../../rules/certificate-expiry.js';
import { days, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;

/** A pack of `a.example` whose certificates expire at the given times (null: being issued). */
function pack(expires: Array<string | null>, extra: Item = {}): Item {
  const hosts = ['a.example', '*.a.example'];
  return {
    id: uuid(),
    type: 'universal',
    hosts,
    status: 'active',
    certificates: expires.map((expires_on) => ({ id: uuid(), hosts, status: 'active', expires_on })),
    ...extra,
  };
}

const zone = (...packs: Item[]) => ({ zones: [{ name: 'a.example', certificatePacks: packs }] });

/** One certificate expiring at `expires_on`. */
const single = (expires_on: string) => {
  const p = pack([expires_on]);
  const cert = (p['certificates'] as Item[])[0]!;
  return { snapshot: zone(p), id: cert['id'] as string };
};

const atSevenDays = single(days(7));
const atSevenDaysAnd1ms = single(new Date(Date.parse(days(7)) + 1).toISOString());
const atNow = single(days(0));

testRule(rule, {
  valid: [
    { name: 'no certificate packs', snapshot: zone() },
    { name: 'a certificate with 60 days left', snapshot: zone(pack([days(60)])) },
    { name: 'a certificate 1 ms beyond 30 days', snapshot: zone(pack([new Date(Date.parse(days(30)) + 1).toISOString()])) },
    { name: 'a pack being issued (expires_on null)', snapshot: zone(pack([null], { status: 'pending_validation' })) },
    { name: 'a pack without expires_on at all', snapshot: zone({ id: uuid(), hosts: ['a.example'], status: 'initializing', certificates: [{ id: uuid(), hosts: ['a.example'] }] }) },
    { name: 'an expired certificate of a deleted pack', snapshot: zone(pack([days(-10)], { status: 'deleted' })) },
    { name: 'a shorter low tier', options: { tiers: { low: 20 } }, snapshot: zone(pack([days(25)])) },
  ],
  invalid: [
    {
      name: 'expired two days ago: critical',
      snapshot: zone(pack([days(-2)])),
      findings: [
        {
          messageId: 'expired',
          severity: 'critical',
          resourceType: 'certificate',
          resourceName: 'a.example, *.a.example',
          message: 'the certificate for a.example, *.a.example expired 2 days ago, on 2026-10-30',
          data: { days: 2, date: '2026-10-30' },
        },
      ],
    },
    {
      name: 'expiring exactly now counts as expired',
      snapshot: atNow.snapshot,
      findings: [{ messageId: 'expired', severity: 'critical', resourceId: atNow.id, message: 'expired less than a day ago' }],
    },
    {
      name: 'expired one millisecond ago',
      snapshot: zone(pack([new Date(Date.parse(days(0)) - 1).toISOString()])),
      findings: [{ messageId: 'expired', severity: 'critical' }],
    },
    {
      name: 'one millisecond left is high, not critical',
      snapshot: zone(pack([new Date(Date.parse(days(0)) + 1).toISOString()])),
      findings: [{ messageId: 'expiring', severity: 'high', message: 'expires in less than a day' }],
    },
    {
      name: 'exactly 7 days left is high',
      snapshot: atSevenDays.snapshot,
      findings: [{ messageId: 'expiring', severity: 'high', resourceId: atSevenDays.id, message: 'expires in 7 days, on 2026-11-08' }],
    },
    {
      name: '7 days and 1 ms left is medium',
      snapshot: atSevenDaysAnd1ms.snapshot,
      findings: [{ messageId: 'expiring', severity: 'medium', resourceId: atSevenDaysAnd1ms.id, message: 'expires in 7 days' }],
    },
    { name: 'exactly 14 days left is medium', snapshot: zone(pack([days(14)])), findings: [{ severity: 'medium', message: '14 days' }] },
    {
      name: '14 days and 1 ms left is low',
      snapshot: zone(pack([new Date(Date.parse(days(14)) + 1).toISOString()])),
      findings: [{ severity: 'low', message: '14 days' }],
    },
    { name: 'exactly 30 days left is low', snapshot: zone(pack([days(30)])), findings: [{ severity: 'low', message: 'expires in 30 days, on 2026-12-01' }] },
    { name: 'days left are rounded to the nearest day', snapshot: zone(pack([days(5.9)])), findings: [{ severity: 'high', message: 'expires in 6 days', data: { days: 6 } }] },
    { name: 'a scan moments after the emulator clock still says whole days', snapshot: zone(pack([days(4.9999)])), findings: [{ message: 'expires in 5 days', data: { days: 5 } }] },
    { name: 'one day left', snapshot: zone(pack([days(1.4)])), findings: [{ severity: 'high', message: 'expires in 1 day,' }] },
    {
      name: 'one finding per certificate, only for those that fail',
      snapshot: zone(pack([days(3), days(90)]), pack([days(12)], { type: 'advanced', hosts: ['www.a.example'] })),
      findings: [{ severity: 'high' }, { severity: 'medium' }],
    },
    {
      name: 'falls back to the pack hosts when the certificate names none',
      snapshot: zone({ id: uuid(), hosts: ['b.example'], status: 'active', certificates: [{ id: uuid(), expires_on: days(2) }] }),
      findings: [{ resourceName: 'b.example', message: 'the certificate for b.example expires in 2 days' }],
    },
    {
      name: 'packs in other states than deleted are still checked',
      snapshot: zone(pack([days(-1)], { status: 'expired' })),
      findings: [{ messageId: 'expired', severity: 'critical' }],
    },
    {
      name: 'tiers can be widened',
      options: { tiers: { high: 14, low: 60 } },
      snapshot: zone(pack([days(10)]), pack([days(45)])),
      findings: [{ severity: 'high' }, { severity: 'low' }],
    },
    {
      name: 'the configured severity wins',
      severity: 'info',
      snapshot: zone(pack([days(-1)])),
      findings: [{ messageId: 'expired', severity: 'info' }],
    },
    {
      name: 'unknown when the packs were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { certificate_packs: 'denied' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'certificate_packs' }],
    },
    {
      name: 'unknown when the packs partition is missing',
      snapshot: { zones: [{ name: 'a.example', unread: { certificate_packs: 'missing' } }] },
      findings: [{ status: 'unknown', message: 'certificate_packs' }],
    },
  ],
});
