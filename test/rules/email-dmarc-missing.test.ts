import rule from '../../rules/email-dmarc-missing.js';
import type { FixtureZone, Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

let seq = 0;
const hex = () => (++seq).toString(16).padStart(32, '0');

const record = (type: string, name: string, content: string, id = hex()): Item => ({ id, type, name, content, proxied: false, ttl: 1 });
const dmarc = (content: string, id?: string) => record('TXT', '_dmarc.shop.example', content, id);
// vendor API reference, DNS records: MX content is the mail server; the preference is in priority.
const mx = () => ({ ...record('MX', 'shop.example', 'mx1.mail.example'), priority: 10 });
const nullMx = () => ({ ...record('MX', 'shop.example', '.'), priority: 0 });
const zone = (records: Item[], extra: Partial<FixtureZone> = {}) => ({ zones: [{ name: 'shop.example', dnsRecords: records, ...extra }] });
/** A mail zone (MX) with these records. */
const mailZone = (...records: Item[]) => zone([mx(), ...records]);
/** A zone that sends no mail (null MX, null SPF) with these records. */
const quietZone = (...records: Item[]) => zone([nullMx(), record('TXT', 'shop.example', '"v=spf1 -all"'), ...records]);

testRule(rule, {
  valid: [
    // RFC 7489 6.3: p=reject, pct defaulting to 100; CISA BOD 18-01: p=reject.
    { name: 'a mail zone with p=reject', snapshot: mailZone(dmarc('"v=DMARC1; p=reject; rua=mailto:dmarc@shop.example"')) },
    // RFC 7489 6.3: quarantine enforces too.
    { name: 'a mail zone with p=quarantine and pct=100', snapshot: mailZone(dmarc('"v=DMARC1; p=quarantine; pct=100"')) },
    // RFC 7489 6.3: sp applies to subdomains; quarantine there still enforces.
    { name: 'p=reject with sp=quarantine', snapshot: mailZone(dmarc('"v=DMARC1; p=reject; sp=quarantine"')) },
    // RFC 7489 6.4: white space around = and ; is allowed, tag names in any case; the record ends with ;.
    { name: 'white space and upper-case tag names', snapshot: mailZone(dmarc('"v = DMARC1 ; P = Reject ;"')) },
    // RFC 7208 3.3 / RFC 7489 6.1: a record split in strings is joined.
    { name: 'a record split in two strings', snapshot: mailZone(dmarc('"v=DMARC1; p=rej" "ect"')) },
    // RFC 7489 6.6.3: TXT records at _dmarc not starting with v=DMARC1 are discarded, not a second record.
    { name: 'another TXT record beside the DMARC record', snapshot: mailZone(dmarc('"v=DMARC1; p=reject"'), dmarc('"some-verification=abc"')) },
    // UK NCSC, protect domains that do not send email: v=DMARC1; p=reject; sp=reject.
    { name: 'a zone that sends no mail with p=reject', snapshot: quietZone(dmarc('"v=DMARC1;p=reject;sp=reject;adkim=s;aspf=s"')) },
    // vendor docs (partial setup, secondary DNS, internal DNS): the vendor's DNS does not answer for these zones.
    { name: 'a partial (CNAME setup) zone passes', snapshot: zone([mx()], { type: 'partial' }) },
    { name: 'a secondary zone passes', snapshot: zone([mx()], { type: 'secondary' }) },
    { name: 'an internal zone passes', snapshot: zone([mx()], { type: 'internal' }) },
  ],
  invalid: [
    // RFC 7489 6.6.3: no record, no DMARC processing; CISA BOD 18-01 requires one.
    { name: 'a mail zone without DMARC', snapshot: mailZone(), findings: [{ messageId: 'missing', severity: 'high', resourceType: 'zone', message: 'starting at p=none' }] },
    // UK NCSC / M3AAWG parked domains: a zone that sends no mail publishes p=reject.
    {
      name: 'a zone that sends no mail without DMARC',
      snapshot: quietZone(),
      findings: [{ messageId: 'missing', severity: 'low', message: 'it sends no mail (only the null MX): publish "v=DMARC1; p=reject"' }],
    },
    // RFC 7489 6.1: the record is looked up at _dmarc.<domain> only; one at the apex is not found.
    { name: 'a DMARC record at the apex instead of _dmarc', snapshot: mailZone(record('TXT', 'shop.example', '"v=DMARC1; p=reject"')), findings: [{ messageId: 'missing' }] },
    // RFC 7489 6.6.3: more than one record: no DMARC processing.
    {
      name: 'two DMARC records',
      snapshot: mailZone(dmarc('"v=DMARC1; p=reject"', 'd-1'), dmarc('"v=DMARC1; p=none"', 'd-2')),
      findings: [{ messageId: 'multiple', severity: 'high', resourceType: 'zone', data: { count: 2, records: ['d-1', 'd-2'] } }],
    },
    // RFC 7489 6.3: v MUST be the first tag, else the record is discarded (6.6.3).
    {
      name: 'v=DMARC1 not first',
      snapshot: mailZone(dmarc('"p=reject; v=DMARC1"', 'd-late')),
      findings: [{ messageId: 'invalid', severity: 'high', resourceType: 'dns_record', resourceId: 'd-late', data: { problem: 'v=DMARC1 is not the first tag' }, message: 'receivers discard it' }],
    },
    // RFC 7489 6.4: the version value is %x44 %x4d %x41 %x52 %x43 %x31, matched precisely (6.3).
    { name: 'v=dmarc1 in lower case', snapshot: mailZone(dmarc('"v=dmarc1; p=reject"')), findings: [{ messageId: 'invalid', message: 'not exactly DMARC1' }] },
    // RFC 7489 6.6.3: no valid p and no rua: no DMARC processing.
    { name: 'no p tag', snapshot: mailZone(dmarc('"v=DMARC1; adkim=s"')), findings: [{ messageId: 'invalid', severity: 'high', data: { problem: 'it has no p tag' }, message: 'receivers apply no DMARC policy' }] },
    // RFC 7489 6.6.3: an invalid p with a valid rua is read as p=none: as p=none, medium.
    {
      name: 'an unknown p with a rua',
      snapshot: mailZone(dmarc('"v=DMARC1; p=block; rua=mailto:dmarc@shop.example"')),
      findings: [{ messageId: 'invalid', severity: 'medium', data: { problem: 'p=block is not none, quarantine or reject' }, message: 'receivers read it as p=none' }],
    },
    // RFC 7489 6.6.3: an sp that is not valid voids the record too.
    { name: 'an unknown sp', snapshot: mailZone(dmarc('"v=DMARC1; p=reject; sp=strict"')), findings: [{ messageId: 'invalid', severity: 'high', message: 'sp tag' }] },
    // RFC 6376 3.2 (the tag-list DMARC follows, RFC 7489 6.3): a tag given twice voids the list.
    { name: 'p given twice', snapshot: mailZone(dmarc('"v=DMARC1; p=none; p=reject"')), findings: [{ messageId: 'invalid', message: 'given more than once' }] },
    // RFC 7489 6.3: none asks for no action: monitoring only.
    { name: 'p=none', snapshot: mailZone(dmarc('"v=DMARC1; p=none; rua=mailto:dmarc@shop.example"', 'd-none')), findings: [{ messageId: 'monitoringOnly', severity: 'medium', resourceId: 'd-none' }] },
    // RFC 7489 6.6.4: mail outside pct gets the next weaker policy (reject -> quarantine).
    {
      name: 'p=reject with pct=25',
      snapshot: mailZone(dmarc('"v=DMARC1; p=reject; pct=25"')),
      findings: [{ messageId: 'partialEnforcement', severity: 'low', data: { pct: 25, weaker: 'p=quarantine' }, message: 'applies p=reject to 25% of failing mail only' }],
    },
    // RFC 7489 6.6.4: quarantine -> none for mail outside pct.
    { name: 'p=quarantine with pct=0', snapshot: mailZone(dmarc('"v=DMARC1; p=quarantine; pct=0"')), findings: [{ messageId: 'partialEnforcement', data: { pct: 0, weaker: 'p=none (delivered)' } }] },
    // RFC 7489 6.3: sp=none leaves subdomains without a policy.
    {
      name: 'p=reject with sp=none',
      snapshot: mailZone(dmarc('"v=DMARC1; p=reject; sp=none"')),
      findings: [{ messageId: 'weakSubdomains', severity: 'medium', resourceType: 'zone' }],
    },
    // RFC 7489 6.6.4 and 6.3: both weaken at once, each on its own resource.
    {
      name: 'pct=50 and sp=none',
      snapshot: mailZone(dmarc('"v=DMARC1; p=quarantine; sp=none; pct=50"')),
      findings: [
        { messageId: 'partialEnforcement', resourceType: 'dns_record' },
        { messageId: 'weakSubdomains', resourceType: 'zone' },
      ],
    },
    // UK NCSC / M3AAWG: no legitimate mail can fail on a zone that sends none, so p=reject.
    { name: 'a zone that sends no mail with p=none', snapshot: quietZone(dmarc('"v=DMARC1; p=none"')), findings: [{ messageId: 'nonSendingNotReject', severity: 'low', data: { p: 'none', mxState: 'only the null MX' } }] },
    { name: 'a zone without MX with p=quarantine', snapshot: zone([dmarc('"v=DMARC1; p=quarantine"')]), findings: [{ messageId: 'nonSendingNotReject', severity: 'low', data: { mxState: 'no MX record' } }] },
    // RFC 7489 6.6.4 on a zone that sends no mail: low.
    { name: 'a zone that sends no mail with p=reject and pct=50', snapshot: quietZone(dmarc('"v=DMARC1; p=reject; pct=50"')), findings: [{ messageId: 'partialEnforcement', severity: 'low' }] },
    // RFC 7489 6.1 with RFC 1034 3.6.2: a CNAME at _dmarc publishes the record at its target, not read by the scan.
    {
      name: 'a DMARC record delegated by CNAME',
      snapshot: mailZone(record('CNAME', '_dmarc.shop.example', 'shop-example._dmarc.dmarc-provider.example')),
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'published by CNAME at shop-example._dmarc.dmarc-provider.example' }],
    },
    { name: 'unknown without the DNS records', snapshot: { zones: [{ name: 'shop.example', unread: { dns_records: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
