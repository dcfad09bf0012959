import rule from '../../rules/email-spf-missing.js';
import type { FixtureZone, Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

let seq = 0;
const hex = () => (++seq).toString(16).padStart(32, '0');

const record = (type: string, name: string, content: string, id = hex()): Item => ({ id, type, name, content, proxied: false, ttl: 1 });
const txt = (content: string, name = 'shop.example', id?: string) => record('TXT', name, content, id);
// vendor API reference, DNS records: MX content is the mail server; the preference is in priority.
const mx = (content = 'mx1.mail.example', name = 'shop.example') => ({ ...record('MX', name, content), priority: 10 });
const nullMx = () => ({ ...record('MX', 'shop.example', '.'), priority: 0 });
const zone = (records: Item[], extra: Partial<FixtureZone> = {}) => ({ zones: [{ name: 'shop.example', dnsRecords: records, ...extra }] });

testRule(rule, {
  valid: [
    // RFC 7208 4.5: one SPF record; -all refuses unlisted hosts.
    { name: 'a mail zone with one SPF record ending in -all', snapshot: zone([mx(), txt('"v=spf1 include:_spf.mail.example -all"')]) },
    // RFC 7208 8.5: softfail is "probably not authorized"; M3AAWG accepts ~all while DMARC enforces.
    { name: 'a mail zone whose SPF record ends in ~all', snapshot: zone([mx(), txt('"v=spf1 mx ~all"')]) },
    // RFC 7208 3.3: the strings of one record are joined without spaces, so the record is "v=spf1 mx -all".
    { name: 'an SPF record split into several quoted strings', snapshot: zone([mx(), txt('"v=spf1 m" "x -all"')]) },
    // RFC 7208 4.5: the version is matched case-insensitively (ABNF); unquoted content is one string.
    { name: 'an unquoted SPF record in upper case', snapshot: zone([mx(), txt('V=SPF1 MX -ALL')]) },
    // RFC 7208 6.1: without all, the redirected domain's record decides; it cannot be read here.
    { name: 'an SPF record that redirects', snapshot: zone([mx(), txt('"v=spf1 redirect=_spf.mail.example"')]) },
    // RFC 7208 4.5: other TXT records at the apex are discarded, not counted as SPF records.
    { name: 'other TXT records beside the SPF record', snapshot: zone([mx(), txt('"google-site-verification=abc"'), txt('"v=spf10 x"'), txt('"v=spf1 mx -all"')]) },
    // RFC 7208 4.6.4: exactly 10 DNS-querying terms is within the limit.
    {
      name: 'ten DNS-querying terms',
      snapshot: zone([mx(), txt(`"v=spf1 a mx ${Array.from({ length: 8 }, (_, i) => `include:s${i}.mail.example`).join(' ')} -all"`)]),
    },
    // RFC 7208 5.1: terms after all are never tested, so they query nothing.
    { name: 'lookup terms after all do not count', snapshot: zone([mx(), txt(`"v=spf1 mx -all ${Array.from({ length: 11 }, (_, i) => `include:s${i}.mail.example`).join(' ')}"`)]) },
    // UK NCSC, protect domains that do not send email: v=spf1 -all; RFC 7505 null MX.
    { name: 'a zone with only the null MX and v=spf1 -all', snapshot: zone([nullMx(), txt('"v=spf1 -all"')]) },
    // M3AAWG parked domains: no MX, null SPF.
    { name: 'a zone without MX and v=spf1 -all', snapshot: zone([record('A', 'shop.example', '192.0.2.10'), txt('"v=spf1 -all"')]) },
    // RFC 7208 4.5: SPF is looked up at the domain itself; MX and SPF of a subdomain do not make the apex send mail.
    { name: 'MX and SPF only at a subdomain, null SPF at the apex', snapshot: zone([mx('mx1.mail.example', 'news.shop.example'), txt('"v=spf1 -all"'), txt('"v=spf1 +all"', 'news.shop.example')]) },
    // vendor docs (partial setup, secondary DNS, internal DNS): the vendor's DNS does not answer for these zones.
    { name: 'a partial (CNAME setup) zone passes', snapshot: zone([mx()], { type: 'partial' }) },
    { name: 'a secondary zone passes', snapshot: zone([mx()], { type: 'secondary' }) },
    { name: 'an internal zone passes', snapshot: zone([mx()], { type: 'internal' }) },
    // RFC 7208 4.6.4 limit raised by the maxLookups option.
    { name: 'maxLookups raised', options: { maxLookups: 12 }, snapshot: zone([mx(), txt(`"v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:s${i}.mail.example`).join(' ')} -all"`)]) },
  ],
  invalid: [
    // RFC 7208 2.2 and 4.5: with no SPF record, receivers have nothing to check the sending host against.
    {
      name: 'a mail zone without SPF',
      snapshot: zone([mx('mx1.mail.example'), mx('mx2.mail.example'), txt('"google-site-verification=abc"')]),
      findings: [{ messageId: 'missing', severity: 'high', resourceType: 'zone', data: { zone: 'shop.example', mx: 'mx1.mail.example, mx2.mail.example' } }],
    },
    // UK NCSC / M3AAWG / CISA BOD 18-01: a domain that sends no mail publishes v=spf1 -all.
    {
      name: 'a zone without MX and without SPF is told to publish the null SPF',
      snapshot: zone([record('A', 'shop.example', '192.0.2.10')]),
      findings: [{ messageId: 'nullSpfMissing', severity: 'low', data: { mxState: 'no MX record' }, message: 'publish "v=spf1 -all"' }],
    },
    // RFC 7505: the null MX says the domain takes no mail; guidance as above.
    { name: 'a zone with only the null MX and no SPF', snapshot: zone([nullMx()]), findings: [{ messageId: 'nullSpfMissing', severity: 'low', data: { mxState: 'only the null MX (RFC 7505)' } }] },
    // RFC 7208 4.5: more than one record is permerror.
    {
      name: 'two SPF records',
      snapshot: zone([mx(), txt('"v=spf1 mx -all"', 'shop.example', 'spf-a'), txt('"v=spf1 include:_spf.mail.example ~all"', 'shop.example', 'spf-b')]),
      findings: [{ messageId: 'multiple', severity: 'high', resourceType: 'zone', data: { count: 2, records: ['spf-a', 'spf-b'] } }],
    },
    // RFC 7208 4.5, as above; on a zone that sends no mail the null SPF is lost: low.
    { name: 'two null SPF records on a zone that sends no mail', snapshot: zone([txt('"v=spf1 -all"'), txt('"v=spf1 ~all"')]), findings: [{ messageId: 'multiple', severity: 'low' }] },
    // RFC 7208 4.6: an unknown mechanism is a syntax error: permerror.
    {
      name: 'an SPF record with an unknown mechanism',
      snapshot: zone([mx(), txt('"v=spf1 mx inclde:_spf.mail.example -all"', 'shop.example', 'spf-bad')]),
      findings: [{ messageId: 'invalid', severity: 'high', resourceType: 'dns_record', resourceId: 'spf-bad', message: '"inclde:_spf.mail.example" is not an SPF mechanism' }],
    },
    // RFC 7208 5.1 and 4.6.2: +all passes every host.
    {
      name: '+all',
      snapshot: zone([mx(), txt('"v=spf1 mx +all"', 'shop.example', 'spf-open')]),
      findings: [{ messageId: 'allowsAll', severity: 'high', resourceType: 'dns_record', resourceId: 'spf-open', data: { all: '+all' } }],
    },
    // RFC 7208 4.6.2: a mechanism without a qualifier is "+": a bare all is +all.
    { name: 'a bare all', snapshot: zone([mx(), txt('"v=spf1 mx all"')]), findings: [{ messageId: 'allowsAll', severity: 'high', message: 'a bare all is +all' }] },
    // RFC 7208 4.6.2: +all passes every host, so the zone sends mail whatever its MX: judged as a mail zone.
    { name: '+all on a zone without MX', snapshot: zone([txt('"v=spf1 +all"')]), findings: [{ messageId: 'allowsAll', severity: 'high' }] },
    // RFC 7208 8.2: neutral is as if no policy; nothing refused.
    { name: '?all', snapshot: zone([mx(), txt('"v=spf1 mx ?all"')]), findings: [{ messageId: 'neutralAll', severity: 'medium', data: { all: '?all' } }] },
    // RFC 7208 5.1: the first all ends evaluation; the -all after ?all is never tested.
    { name: '?all before -all', snapshot: zone([mx(), txt('"v=spf1 mx ?all -all"')]), findings: [{ messageId: 'neutralAll', severity: 'medium' }] },
    // RFC 7208 4.7: no match and no redirect is neutral.
    { name: 'no all and no redirect', snapshot: zone([mx(), txt('"v=spf1 mx"')]), findings: [{ messageId: 'noAll', severity: 'medium' }] },
    // RFC 7208 4.6.4: more than 10 DNS-querying terms is permerror; includes are not followed (data says so).
    {
      name: 'eleven DNS-querying terms in the record',
      snapshot: zone([mx(), txt(`"v=spf1 a mx ptr ${Array.from({ length: 7 }, (_, i) => `include:s${i}.mail.example`).join(' ')} redirect=_spf.mail.example"`, 'shop.example', 'spf-long')]),
      findings: [
        {
          messageId: 'tooManyLookups',
          severity: 'medium',
          resourceType: 'zone',
          data: { count: 11, max: 10, record: 'spf-long', countedInRecordOnly: true },
          message: ['has 11 terms that query DNS, more than 10', 'add lookups of their own, not counted here'],
        },
      ],
    },
    // RFC 7208 4.6.4 and 4.6.2: both problems at once, each on its own resource.
    {
      name: '+all and too many lookups',
      snapshot: zone([mx(), txt(`"v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:h${i}.mail.example`).join(' ')} +all"`)]),
      findings: [
        { messageId: 'allowsAll', resourceType: 'dns_record' },
        { messageId: 'tooManyLookups', resourceType: 'zone', data: { count: 11, notFollowed: [] } },
      ],
    },
    // UK NCSC: a domain that sends no mail publishes -all; ~all only softfails forged mail.
    { name: 'a zone that sends no mail with v=spf1 ~all', snapshot: zone([nullMx(), txt('"v=spf1 ~all"')]), findings: [{ messageId: 'nullSpfWeak', severity: 'low', data: { all: '~all' } }] },
    // RFC 7208 4.7: no all is neutral; the zone sends no mail, so the null SPF is advised.
    { name: 'a zone that sends no mail with a bare v=spf1', snapshot: zone([txt('"v=spf1"')]), findings: [{ messageId: 'nullSpfWeak', severity: 'low', message: 'no all mechanism' }] },
    // RFC 7208 4.6: a syntax error is permerror, low on a zone that sends no mail.
    { name: 'an invalid null SPF', snapshot: zone([txt('"v=spf1 -al"')]), findings: [{ messageId: 'invalid', severity: 'low' }] },
    { name: 'unknown without the DNS records', snapshot: { zones: [{ name: 'shop.example', unread: { dns_records: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
