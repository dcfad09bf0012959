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

// Keys generated for these tests with node:crypto generateKeyPairSync, exported as DKIM publishes them.
/** RSA 2048 bits, DER SubjectPublicKeyInfo (RFC 6376 3.6.1 with erratum 3017; what `openssl rsa -pubout` gives, Appendix C). */
const PUBLIC_KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2WnI621zDFuYyz/wETMu65uxUYliaORWp7j+1wrnnbW9o+WVXAWjq6PePcoAqkRn4kNs85FPPDWC0Z2ENjyLx/e2yvf5AyIsxTPzSATrXGCLm7fhqSJLM4N9gZj0P0MfpIbR/vwOAxUsItkOQMnJz3ZDFAzF4LQOUU9CIYIgG5U430g0+Kc7KUJDt2psAQv6/OcfFhi3ySUSJVVToVC8ol6aG8KTPpUtAb2Z5IKI/+oP+D2u5z1YQEtxHinKUYPLkeY+arWSe2TM+bKpPKB4qnT84hxZq33GQkdW0DJRml0wyA2y76zQkrl/AjBTjIfRjUGsBe8k8mTKWnRQrWTFswIDAQAB';
/** RSA 1024 bits, a bare DER RSAPublicKey (PKCS #1): the form RFC 6376 3.6.1 names. */
const PKCS1_KEY = 'MIGJAoGBAMtOD2RdzhIcKd/kcslQ8ui6LkkDSTbOXzxDGSMcNvKS9+edFxt32eDCSllgyfrr9BriT/SPCcuQhZeX8EnI2D4U7jG5I6IoYhekXdtlgAbLCiUT429Q76ZBr9+Cqo9SprxKUiS444ydnG7GdEJFW3RZ/yXQ1N46L9S8C+5FPZ41AgMBAAE=';
/** RSA 512 bits, SubjectPublicKeyInfo: too short for verifiers (RFC 8301 3.2). */
const SHORT_KEY = 'MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAOq4ND7rxFBMo4Plam+VYTeRuywxhmdD0N8wlZqBKiRllwm/qQvtKB/s5X6ZvCtvwDZJpaT7EecyLsLyl+aaJEkCAwEAAQ==';
/** Ed25519, the 32 raw bytes (RFC 8463 4.2). */
const ED25519_KEY = 'LRpjzKmBEd1ViMPKVHI3tBfSMm5a4TgoQZxzNZe0ilM=';
/** An EC P-256 SubjectPublicKeyInfo: a key, but of no DKIM key type. */
const EC_KEY = 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAECYe15v03u39vS5iwA1fGn3XuL5LykZObZHx1WKrzgVazHvLnPN7pZWb/G9VI6xrd/n6SsxeYxvCJULE44n6cBA==';

testRule(rule, {
  valid: [
    // RFC 6376 3.6.1 and 3.6.2.1: a key record at <selector>._domainkey.<domain>.
    { name: 'a mail zone with a DKIM key', snapshot: mailZone(key('google', `"v=DKIM1; k=rsa; p=${PUBLIC_KEY}"`)) },
    // RFC 6376 3.6.1: v is recommended, not required; p is the key.
    { name: 'a key record without v', snapshot: mailZone(key('s1', `"k=rsa; p=${PUBLIC_KEY}"`)) },
    // RFC 7208 3.3 / RFC 6376 3.6.2.2: a 2048-bit key split into several strings is joined.
    { name: 'a key split into several strings', snapshot: mailZone(key('s2048', `"v=DKIM1; k=rsa; p=${PUBLIC_KEY.slice(0, 200)}" "${PUBLIC_KEY.slice(200)}"`)) },
    // RFC 6376 3.6.1 (erratum 3017): an RSAPublicKey, here bare rather than in a SubjectPublicKeyInfo, of 1024 bits (RFC 8301 3.2: the least verifiers accept).
    { name: 'a bare RSAPublicKey of 1024 bits', snapshot: mailZone(key('pkcs1', `"v=DKIM1; p=${PKCS1_KEY}"`)) },
    // RFC 8463 4.2: k=ed25519 with the 32-byte raw key.
    { name: 'an Ed25519 key', snapshot: mailZone(key('ed', `"v=DKIM1; k=ed25519; p=${ED25519_KEY}"`)) },
    // RFC 6376 3.6.1: p= is base64string, which allows folding white space inside (ALPHADIGITPS / FWS).
    { name: 'a key with white space inside p=', snapshot: mailZone(key('ws', `"v=DKIM1; p=${PUBLIC_KEY.slice(0, 100)} ${PUBLIC_KEY.slice(100)}"`)) },
    // RFC 6376 6.1.2: a verifier tries the key of the selector a signature names; one usable key signs, beside one that is not.
    { name: 'a usable key beside one that does not parse', snapshot: mailZone(key('bad', '"v=DKIM1; p=bm90IGEga2V5"'), key('good', `"v=DKIM1; p=${PUBLIC_KEY}"`)) },
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
    // RFC 6376 3.6.1: p= is base64; 6.1.2: a key that cannot be decoded fails verification (PERMFAIL).
    {
      name: 'a key that is not base64',
      snapshot: mailZone(key('google', '"v=DKIM1; k=rsa; p=Not*Base64!!@@##"')),
      findings: [{ messageId: 'missing', message: 'google: p= is not valid base64' }],
    },
    // RFC 6376 6.1.2: base64 that decodes to no public key (here the text "not a key, just base64 text") fails verification.
    {
      name: 'base64 that is not a public key',
      snapshot: mailZone(key('google', `"v=DKIM1; k=rsa; p=${Buffer.from('not a key, just base64 text').toString('base64')}"`)),
      findings: [{ messageId: 'missing', message: 'google: p= decodes, but not to an RSA public key' }],
    },
    // RFC 6376 3.6.1: a 2048-bit key cut short (a 255-byte string boundary lost) no longer parses.
    { name: 'a truncated key', snapshot: mailZone(key('cut', `"v=DKIM1; p=${PUBLIC_KEY.slice(0, 252)}"`)), findings: [{ messageId: 'missing', message: 'cut: p= decodes, but not to an RSA public key' }] },
    // RFC 8301 3.2: verifiers must not accept signatures made with RSA keys under 1024 bits.
    { name: 'a 512-bit RSA key', snapshot: mailZone(key('old512', `"v=DKIM1; p=${SHORT_KEY}"`)), findings: [{ messageId: 'missing', message: 'old512: the RSA key has 512 bits, fewer than the 1024' }] },
    // RFC 8463 4.2: an Ed25519 key is 32 raw bytes; an RSA key declared k=ed25519 is none.
    { name: 'an RSA key declared as ed25519', snapshot: mailZone(key('ed', `"v=DKIM1; k=ed25519; p=${PUBLIC_KEY}"`)), findings: [{ messageId: 'missing', message: 'ed: p= holds 294 bytes, not the 32 of a raw Ed25519 key' }] },
    // RFC 6376 3.6.1: k= names the type (rsa, RFC 8463 ed25519); an EC key under k=rsa is not an RSA key.
    { name: 'an EC key declared as rsa', snapshot: mailZone(key('ec', `"v=DKIM1; k=rsa; p=${EC_KEY}"`)), findings: [{ messageId: 'missing', message: 'ec: p= holds a key of type ec, not the RSA key k=rsa declares' }] },
    // RFC 6376 3.6.1: unrecognized key types must be ignored.
    { name: 'a key type verifiers do not know', snapshot: mailZone(key('dsa', `"v=DKIM1; k=dsa; p=${PUBLIC_KEY}"`)), findings: [{ messageId: 'missing', message: 'dsa: k=dsa is not a key type verifiers know' }] },
    // RFC 6376 3.6.2.1: keys are at <selector>._domainkey; the bare _domainkey name (old DomainKeys policy) holds none.
    { name: 'only a DomainKeys policy record at _domainkey', snapshot: mailZone(record('TXT', '_domainkey.shop.example', '"o=~"')), findings: [{ messageId: 'missing' }] },
    // RFC 6376 3.6.2.1: a key of another domain (here a subdomain's) does not sign for the zone's own name.
    { name: 'a key only for a subdomain', snapshot: mailZone(record('TXT', 's1._domainkey.news.shop.example', `"v=DKIM1; p=${PUBLIC_KEY}"`)), findings: [{ messageId: 'missing' }] },
    { name: 'unknown without the DNS records', snapshot: { zones: [{ name: 'shop.example', unread: { dns_records: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
