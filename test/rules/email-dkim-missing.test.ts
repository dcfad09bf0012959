import rule from '../../rules/email-dkim-missing.js';
import type { FixtureZone, Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

let seq = 0;
const hex = () => (++seq).toString(16).padStart(32, '0');

const record = (type: string, name: string, content: string): Item => ({ id: hex(), type, name, content, proxied: false, ttl: 1 });
const key = (selector: string, content: string) => record('TXT', `${selector}._domainkey.shop.example`, content);
// vendor API reference, DNS records: MX content is the mail server; the preference is in priority.
const mx = () => ({ ...record('MX', 'shop.example', 'mx1.mail.example'), priority: 10 });
const nullMx = () => ({ ...record('MX', 'shop.example', '.'), priority: 0 });
const zone = (records: Item[], extra: Partial<FixtureZone> = {}) => ({ zones: [{ name: 'shop.example', dnsRecords: records, ...extra }] });
const mailZone = (...records: Item[]) => zone([mx(), ...records]);

const PUBLIC_KEY = 'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC';

testRule(rule, {
  valid: [
    // RFC 6376 3.6.1 and 3.6.2.1: a key record at <selector>._domainkey.<domain>.
    { name: 'a mail zone with a DKIM key', snapshot: mailZone(key('google', `"v=DKIM1; k=rsa; p=${PUBLIC_KEY}"`)) },
    // RFC 6376 3.6.1: v is recommended, not required; p is the key.
    { name: 'a key record without v', snapshot: mailZone(key('s1', `"k=rsa; p=${PUBLIC_KEY}"`)) },
    // RFC 7208 3.3 / RFC 6376 3.6.2.2: a 2048-bit key split into several strings is joined.
    { name: 'a key split into several strings', snapshot: mailZone(key('s2048', `"v=DKIM1; k=rsa; p=${PUBLIC_KEY}" "AQAB"`)) },
    // Microsoft Learn, DKIM for Microsoft 365 (New-DkimSigningConfig): selector1/selector2 CNAMEs point at keys Microsoft publishes.
    {
      name: 'Microsoft 365 selectors published by CNAME',
      snapshot: mailZone(
        record('CNAME', 'selector1._domainkey.shop.example', 'selector1-shop-example._domainkey.shop.onmicrosoft.com'),
        record('CNAME', 'selector2._domainkey.shop.example', 'selector2-shop-example._domainkey.shop.onmicrosoft.com'),
      ),
    },
    // Amazon SES Developer Guide, Easy DKIM: CNAME records under _domainkey point at keys hosted by SES.
    { name: 'Amazon SES Easy DKIM by CNAME', snapshot: mailZone(record('CNAME', 'abcdef123._domainkey.shop.example', 'abcdef123.dkim.amazonses.com')) },
    // RFC 6376 3.6.1: a revoked key beside a current one: the current one signs.
    { name: 'a revoked key beside a current one', snapshot: mailZone(key('old', '"v=DKIM1; p="'), key('new', `"v=DKIM1; p=${PUBLIC_KEY}"`)) },
    // RFC 7505: the null MX says the domain takes no mail; UK NCSC: a domain that sends none needs no DKIM key.
    { name: 'a zone with only the null MX', snapshot: zone([nullMx(), record('TXT', 'shop.example', '"v=spf1 -all"')]) },
    // No MX and no SPF naming senders: taken to send no mail, not applicable.
    { name: 'a zone without MX', snapshot: zone([record('A', 'shop.example', '192.0.2.10')]) },
    // UK NCSC, protect domains that do not send email: a revoked wildcard key (*._domainkey, p=) on such a zone.
    { name: 'a zone that sends no mail with a revoked wildcard key', snapshot: zone([nullMx(), key('*', '"v=DKIM1; p="')]) },
    // vendor docs (partial setup, secondary DNS, internal DNS): the vendor's DNS does not answer for these zones.
    { name: 'a partial (CNAME setup) zone passes', snapshot: zone([mx()], { type: 'partial' }) },
    { name: 'a secondary zone passes', snapshot: zone([mx()], { type: 'secondary' }) },
    { name: 'an internal zone passes', snapshot: zone([mx()], { type: 'internal' }) },
  ],
  invalid: [
    // RFC 6376 3.6.2.1: the key is published under _domainkey; none there, no signature can verify.
    {
      name: 'a mail zone without a DKIM key',
      snapshot: mailZone(record('TXT', 'shop.example', '"v=spf1 mx -all"')),
      findings: [{ messageId: 'missing', severity: 'medium', resourceType: 'zone', data: { evidence: 'MX mx1.mail.example', detail: '' } }],
    },
    // RFC 7208 2.2: an SPF record naming senders says the domain sends mail, MX or not.
    { name: 'a zone without MX whose SPF names a sender', snapshot: zone([record('TXT', 'shop.example', '"v=spf1 include:amazonses.com -all"')]), findings: [{ messageId: 'missing', data: { evidence: 'its SPF record authorizes senders' } }] },
    // RFC 6376 3.6.1: an empty p is a revoked key.
    {
      name: 'only revoked keys',
      snapshot: mailZone(key('s1', '"v=DKIM1; p="'), key('s2', '"v=DKIM1; k=rsa; p="')),
      findings: [{ messageId: 'onlyRevoked', severity: 'medium', data: { selectors: 's1, s2' } }],
    },
    // RFC 6376 3.6.1: p is required; v, when present, must be first; a record with v=DKIM1 and no p holds no key.
    {
      name: 'key records receivers cannot use',
      snapshot: mailZone(key('nop', '"v=DKIM1; k=rsa"'), key('late', `"k=rsa; v=DKIM1; p=${PUBLIC_KEY}"`), key('old', '"v=DKIM1; p="')),
      findings: [{ messageId: 'missing', message: ['revoked: old', 'nop: it has no p= tag', 'late: v=DKIM1 is not the first tag'] }],
    },
    // RFC 6376 3.6.2.1: keys are at <selector>._domainkey; the bare _domainkey name (old DomainKeys policy) holds none.
    { name: 'only a DomainKeys policy record at _domainkey', snapshot: mailZone(record('TXT', '_domainkey.shop.example', '"o=~"')), findings: [{ messageId: 'missing' }] },
    // RFC 6376 3.6.2.1: a key of another domain (here a subdomain's) does not sign for the zone's own name.
    { name: 'a key only for a subdomain', snapshot: mailZone(record('TXT', 's1._domainkey.news.shop.example', `"v=DKIM1; p=${PUBLIC_KEY}"`)), findings: [{ messageId: 'missing' }] },
    { name: 'unknown without the DNS records', snapshot: { zones: [{ name: 'shop.example', unread: { dns_records: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
