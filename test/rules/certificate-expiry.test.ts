import rule from '../../rules/certificate-expiry.js';
import { days, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: certificate renewal. Managed certificates (universal, advanced, total_tls) renew from
// 30 days before expiry for 90-day and 1-year certificates, 7 days for 30-day ones, 3 days for 14-day
// ones; attempts continue until a day before. Custom certificates never renew on their own.

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;
const HOSTS = ['a.example', '*.a.example'];

interface CertSpec {
  expires: string | null;
  issued?: string;
  status?: string;
}

/** A pack of `a.example` (a 90-day universal pack unless `extra` says otherwise) with the given certificates. */
function pack(certs: Array<string | null | CertSpec>, extra: Item = {}): Item {
  return {
    id: uuid(),
    type: 'universal',
    hosts: HOSTS,
    status: 'active',
    validity_days: 90,
    certificates: certs.map((c) => {
      const spec = typeof c === 'object' && c !== null ? c : { expires: c };
      return { id: uuid(), hosts: HOSTS, status: spec.status ?? 'active', expires_on: spec.expires, ...(spec.issued ? { uploaded_on: spec.issued } : {}) };
    }),
    ...extra,
  };
}

const zone = (...packs: Item[]) => ({ zones: [{ name: 'a.example', certificatePacks: packs }] });
const custom = (expires: string, hosts = HOSTS) =>
  pack([], { type: 'sni_custom', validity_days: undefined, hosts, certificates: [{ id: uuid(), hosts, status: 'active', expires_on: expires }] });
const ms = (d: number, offset: number) => new Date(Date.parse(days(d)) + offset).toISOString();
/** A pack of `type` with one active certificate for `hosts`. */
const single = (type: string, expires: string, hosts: string[], extra: Item = {}) =>
  pack([], { type, hosts, certificates: [{ id: uuid(), hosts, status: 'active', expires_on: expires }], ...extra });
/** An uploaded (sni_custom) pack holding several certificates, each with its own hosts (default the pack's). */
const uploadedPack = (certs: Array<{ expires: string; hosts?: string[] }>, hosts = HOSTS) =>
  pack([], { type: 'sni_custom', validity_days: undefined, hosts, certificates: certs.map((c) => ({ id: uuid(), hosts: c.hosts ?? hosts, status: 'active', expires_on: c.expires })) });
const certIds = (p: Item) => (p['certificates'] as Item[]).map((c) => c['id'] as string);
const pack3And300 = uploadedPack([{ expires: days(3) }, { expires: days(300) }]);
const pack5And300 = uploadedPack([{ expires: days(5) }, { expires: days(300) }]);
const custom10 = custom(days(10));
const universal80 = pack([days(80)]);
const universal80Cert = (universal80['certificates'] as Item[])[0]!['id'] as string;

const expiredTwoDays = pack([days(-2)]);
const expiredCert = (expiredTwoDays['certificates'] as Item[])[0]!['id'] as string;
const noExpiry = pack([null]);
const noExpiryCert = (noExpiry['certificates'] as Item[])[0]!['id'] as string;

testRule(rule, {
  valid: [
    { name: 'no certificate packs', snapshot: zone() },
    { name: 'a 90-day certificate with 60 days left', snapshot: zone(pack([days(60)])) },
    { name: 'a 90-day certificate 1 ms before its renewal window (30 days)', snapshot: zone(pack([ms(30, 1)])) },
    { name: 'a 14-day certificate issued yesterday (13 days left, renewal starts at 3)', snapshot: zone(pack([days(13)], { validity_days: 14 })) },
    { name: 'a 14-day certificate 1 ms before its 3-day window', snapshot: zone(pack([ms(3, 1)], { validity_days: 14 })) },
    { name: 'a 30-day certificate with 8 days left (renewal starts at 7)', snapshot: zone(pack([days(8)], { validity_days: 30 })) },
    {
      name: 'without validity_days, the validity comes from the issue and expiry dates (30-day: 8 days left passes)',
      snapshot: zone(pack([{ expires: days(8), issued: days(-22) }], { validity_days: undefined })),
    },
    { name: 'a 1-year certificate with 31 days left', snapshot: zone(pack([days(31)], { validity_days: 365 })) },
    { name: 'a pack being issued (expires_on null)', snapshot: zone(pack([null], { status: 'pending_validation' })) },
    { name: 'a pack without expires_on while initializing', snapshot: zone({ id: uuid(), hosts: ['a.example'], status: 'initializing', certificates: [{ id: uuid(), hosts: ['a.example'] }] }) },
    { name: 'an expired certificate of a deleted pack', snapshot: zone(pack([days(-10)], { status: 'deleted' })) },
    { name: 'a staging or backup pack is not served', snapshot: zone(pack([days(2)], { status: 'staging_active' }), pack([days(2)], { status: 'backup_issued' })) },
    {
      name: 'renewed: the pack also holds a fresh certificate for the same hosts',
      snapshot: zone(pack([days(5), days(89)])),
    },
    {
      name: 'superseded: an expired pack whose hosts another active pack serves',
      snapshot: zone(pack([days(-3)], { status: 'expired' }), pack([days(80)], { type: 'advanced' })),
    },
    { name: 'a custom certificate 1 ms beyond the 30-day low tier', snapshot: zone(custom(ms(30, 1))) },
    { name: 'a shorter low tier for custom certificates', options: { tiers: { low: 20 } }, snapshot: zone(custom(days(25))) },
    // vendor docs: custom certificates, renewal and expiration: with a valid replacement (a later
    // custom certificate for its hosts) the vendor removes the expiring one; the owner has renewed it.
    { name: 'a custom certificate replaced by a later custom one, a universal certificate covering the hosts too', snapshot: zone(custom(days(5)), custom(days(300)), universal80) },
    { name: 'a custom certificate outside every tier, a universal certificate covering its hosts', snapshot: zone(custom(days(45)), universal80) },
  ],
  invalid: [
    {
      name: 'expired two days ago: critical',
      snapshot: zone(expiredTwoDays),
      findings: [
        {
          messageId: 'expired',
          severity: 'critical',
          resourceType: 'certificate',
          resourceId: expiredCert,
          resourceName: 'a.example, *.a.example',
          message: 'the certificate for a.example, *.a.example expired 2 days ago, on 2026-10-30',
          data: { days: 2, date: '2026-10-30' },
        },
      ],
    },
    { name: 'expiring exactly now counts as expired', snapshot: zone(pack([days(0)])), findings: [{ messageId: 'expired', severity: 'critical', message: 'expired less than a day ago' }] },
    { name: 'an expired pack still serving hosts no other pack covers is critical', snapshot: zone(pack([days(-1)], { status: 'expired' })), findings: [{ messageId: 'expired', severity: 'critical' }] },
    {
      name: 'a 90-day certificate inside its renewal window and not renewed: medium',
      snapshot: zone(pack([days(29)])),
      findings: [
        {
          messageId: 'notRenewed',
          severity: 'medium',
          message: 'the certificate for a.example, *.a.example expires in 29 days, on 2026-11-30, and has not been renewed: renewal of a 90-day certificate starts 30 days before expiry',
          data: { validity: 90, window: 30 },
        },
      ],
    },
    { name: 'exactly at the renewal start is inside the window', snapshot: zone(pack([days(30)])), findings: [{ messageId: 'notRenewed', severity: 'medium' }] },
    { name: 'the second half of the window is high (15 days left of a 30-day window)', snapshot: zone(pack([days(15)])), findings: [{ severity: 'high' }] },
    { name: '15 days and 1 ms left is still medium', snapshot: zone(pack([ms(15, 1)])), findings: [{ severity: 'medium' }] },
    { name: 'a 14-day certificate with 2 days left: medium', snapshot: zone(pack([days(2)], { validity_days: 14 })), findings: [{ severity: 'medium', message: 'renewal of a 14-day certificate starts 3 days before expiry' }] },
    { name: 'a 14-day certificate in its last day: high (attempts have stopped)', snapshot: zone(pack([days(0.9)], { validity_days: 14 })), findings: [{ severity: 'high', message: 'expires in 1 day' }] },
    { name: 'a 30-day certificate at its 7-day renewal start', snapshot: zone(pack([days(7)], { validity_days: 30 })), findings: [{ severity: 'medium', data: { window: 7 } }] },
    { name: 'a 30-day certificate with 3 days left: high', snapshot: zone(pack([days(3)], { validity_days: 30 })), findings: [{ severity: 'high' }] },
    {
      name: 'a validity worked out from the dates: 14-day certificate, 2 days left',
      snapshot: zone(pack([{ expires: days(2), issued: days(-12) }], { validity_days: undefined })),
      findings: [{ severity: 'medium', data: { validity: 14, window: 3 } }],
    },
    {
      name: 'an unknown validity takes the 30-day window of the default 90-day certificate',
      snapshot: zone(pack([days(20)], { validity_days: undefined })),
      findings: [{ severity: 'medium', message: 'renewal of a certificate of unknown validity starts 30 days before expiry' }],
    },
    {
      name: 'a renewal in the window does not count as fresh coverage',
      snapshot: zone(pack([days(20)]), pack([days(25)], { type: 'advanced' })),
      findings: [{ severity: 'medium' }, { severity: 'medium' }],
    },
    {
      name: 'a fresh certificate covering only some of the hosts does not supersede',
      snapshot: zone(pack([days(20)]), pack([days(80)], { hosts: ['a.example'], certificates: [{ id: uuid(), hosts: ['a.example'], status: 'active', expires_on: days(80) }] })),
      findings: [{ messageId: 'notRenewed' }],
    },
    {
      name: 'an active pack whose certificate has no expires_on is unknown, not a pass',
      snapshot: zone(noExpiry),
      findings: [{ status: 'unknown', resourceType: 'certificate', resourceId: noExpiryCert, message: 'no expires_on' }],
    },
    {
      name: 'a pack without a status (older answers) is judged by its certificates',
      snapshot: zone(pack([days(-1)], { status: undefined })),
      findings: [{ messageId: 'expired' }],
    },
    { name: 'custom: exactly 7 days left is high', snapshot: zone(custom(days(7))), findings: [{ messageId: 'expiring', severity: 'high', message: 'the custom certificate for a.example, *.a.example expires in 7 days, on 2026-11-08; custom certificates are not renewed automatically' }] },
    { name: 'custom: 7 days and 1 ms left is medium', snapshot: zone(custom(ms(7, 1))), findings: [{ severity: 'medium' }] },
    { name: 'custom: exactly 30 days left is low', snapshot: zone(custom(days(30))), findings: [{ severity: 'low' }] },
    { name: 'custom: expired is critical', snapshot: zone(custom(days(-1))), findings: [{ messageId: 'expired', severity: 'critical' }] },
    { name: 'custom: the tiers can be widened', options: { tiers: { high: 14, low: 60 } }, snapshot: zone(custom(days(10)), custom(days(45), ['b.a.example'])), findings: [{ severity: 'high' }, { severity: 'low' }] },
    {
      name: 'only a later certificate supersedes: of two custom certificates for the same hosts, the later one is judged',
      options: { tiers: { high: 14, low: 60 } },
      snapshot: zone(custom(days(10)), custom(days(45))),
      findings: [{ severity: 'low', message: 'expires in 45 days' }],
    },
    {
      // vendor docs: custom certificates, renewal and expiration: an expired custom certificate is
      // removed and its hosts fall back to another active certificate covering them; Certificate and
      // hostname priority: custom before universal, so the universal one is what serves after it.
      name: 'custom, 7 days left, every host also covered by the universal certificate: medium, naming the universal certificate',
      snapshot: zone(custom(days(7)), universal80),
      findings: [
        {
          messageId: 'expiringFallback',
          severity: 'medium',
          message:
            'the custom certificate for a.example, *.a.example expires in 7 days, on 2026-11-08, and is not renewed automatically; once it expires the vendor serves the universal certificate for a.example, *.a.example (valid until 2027-01-20) in its place',
          data: { successorCertificates: [{ certificate: universal80Cert, pack: universal80['id'], type: 'universal' }] },
        },
      ],
    },
    {
      // As above, one tier down for each: medium (14 days) becomes low, low (30 days) becomes info.
      name: 'custom covered by an advanced certificate: each tier one step lower',
      snapshot: zone(custom(days(12)), custom(days(25), ['b.a.example']), pack([days(80)], { type: 'advanced' })),
      findings: [
        { messageId: 'expiringFallback', severity: 'low', message: 'once it expires the vendor serves the advanced certificate for a.example, *.a.example' },
        { messageId: 'expiringFallback', severity: 'info', message: 'the custom certificate for b.a.example expires in 25 days' },
      ],
    },
    {
      // vendor docs, as above: the hosts of an expired custom certificate are served by the fallback:
      // HTTPS goes on, so not critical; reported at most medium.
      name: 'custom, expired, every host covered by the universal certificate: medium',
      snapshot: zone(custom(days(-1)), universal80),
      findings: [{ messageId: 'expiredFallback', severity: 'medium', message: 'the custom certificate for a.example, *.a.example expired 1 day ago, on 2026-10-31; the vendor serves the universal certificate' }],
    },
    {
      // vendor docs, Certificate and hostname priority: custom legacy is a custom certificate like SNI custom.
      name: 'a legacy custom certificate covered by the universal certificate',
      snapshot: zone(single('legacy_custom', days(3), HOSTS), universal80),
      findings: [{ messageId: 'expiringFallback', severity: 'medium' }],
    },
    {
      // vendor docs, Certificate and hostname priority: hostname specificity comes before the type's
      // priority, so an exact universal certificate serves www ahead of an advanced wildcard.
      name: 'the certificate that takes over follows the vendor order: an exact hostname before a wildcard of a higher type',
      snapshot: zone(custom(days(5), ['www.a.example']), single('advanced', days(200), ['*.a.example']), single('universal', days(80), ['www.a.example'], { validity_days: 90 })),
      findings: [{ messageId: 'expiringFallback', message: 'the vendor serves the universal certificate for www.a.example (valid until 2027-01-20)' }],
    },
    {
      // vendor docs, Certificate and hostname priority: a later custom certificate serves the hosts it
      // covers, the universal certificate the rest; both are named.
      name: 'hosts split between a later custom certificate and the universal certificate: both named',
      snapshot: zone(custom(days(5), ['a.example', 'www.a.example', 'api.a.example']), custom(days(300), ['api.a.example']), universal80),
      findings: [{ messageId: 'expiringFallback', message: ['the universal certificate for a.example, *.a.example', 'and the custom certificate for api.a.example (valid until 2027-08-28)'] }],
    },
    {
      // RFC 6125 6.4.3: the universal wildcard covers one label only; a host nothing else covers breaks on expiry.
      name: 'custom with a host the universal certificate does not cover: the tier severity, as before',
      snapshot: zone(custom(days(7), ['a.example', 'x.y.a.example']), universal80),
      findings: [{ messageId: 'expiring', severity: 'high' }],
    },
    // vendor docs, custom certificates, "Renewal and expiration": all certificates in a pack are
    // treated as one object; the pack expires at the soonest Not After among them, and when one
    // expires the whole pack is removed. So the pack's other certificate (300 days) leaves with the
    // one expiring in 3 days and takes over nothing: reported at the tier of 3 days (high), once.
    {
      name: 'an uploaded pack with one certificate expiring in 3 days and another in 300 days: reported',
      snapshot: zone(pack3And300),
      findings: [{ messageId: 'expiring', severity: 'high', resourceId: certIds(pack3And300)[0], message: 'the custom certificate for a.example, *.a.example expires in 3 days', data: { pack: pack3And300['id'] } }],
    },
    // vendor docs, as above, and "Certificate and hostname priority": with its own pack removed, the
    // universal certificate is what serves the hosts, not the pack's 300-day certificate.
    {
      name: 'the same pack beside the universal certificate: the universal one takes over, not the pack\'s own',
      snapshot: zone(pack3And300, universal80),
      findings: [{ messageId: 'expiringFallback', severity: 'medium', message: 'once it expires the vendor serves the universal certificate for a.example, *.a.example (valid until 2027-01-20) in its place' }],
    },
    // vendor docs, as above: the pack is removed once its expired certificate is past, whatever its other holds.
    {
      name: 'an uploaded pack with an expired certificate and a 300-day one: expired',
      snapshot: zone(uploadedPack([{ expires: days(-1) }, { expires: days(300) }])),
      findings: [{ messageId: 'expired', severity: 'critical' }],
    },
    // vendor docs, as above: the pack's certificates are one object, so the hosts it leaves are all of theirs.
    {
      name: 'an uploaded pack whose certificates name different hosts: one finding for all of them',
      snapshot: zone(uploadedPack([{ expires: days(3), hosts: ['a.example'] }, { expires: days(300), hosts: ['www.a.example'] }], ['a.example', 'www.a.example'])),
      findings: [{ messageId: 'expiring', resourceName: 'a.example, www.a.example', message: 'the custom certificate for a.example, www.a.example expires in 3 days' }],
    },
    // vendor docs, as above: a pack is judged by its soonest expiry. The pack of 5 and 300 days is
    // removed in 5 days, so it does not replace the custom certificate expiring in 10 (reported,
    // medium); that certificate is what serves the pack's hosts after 5 days, so the pack passes.
    {
      name: 'a later certificate of a pack removed sooner replaces nothing',
      snapshot: zone(custom10, pack5And300),
      findings: [{ messageId: 'expiring', severity: 'medium', resourceId: certIds(custom10)[0], message: 'expires in 10 days' }],
    },
    { name: 'days left are rounded to the nearest day', snapshot: zone(pack([days(5.9)])), findings: [{ severity: 'high', message: 'expires in 6 days', data: { days: 6 } }] },
    {
      name: 'falls back to the pack hosts when the certificate names none',
      snapshot: zone({ id: uuid(), type: 'universal', validity_days: 90, hosts: ['b.example'], status: 'active', certificates: [{ id: uuid(), expires_on: days(2) }] }),
      findings: [{ resourceName: 'b.example', message: 'the certificate for b.example expires in 2 days' }],
    },
    { name: 'the configured severity wins', severity: 'info', snapshot: zone(pack([days(-1)])), findings: [{ messageId: 'expired', severity: 'info' }] },
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
