import rule from '../../rules/caa-missing.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// RFC 8659: the relevant record set is the host's own CAA records, else its closest ancestor's; a
// set without an issue property allows every CA; issuewild governs wildcards when present (4.3);
// an empty issuer (`;`) allows none. vendor docs: certificate packs: certificate_authority
// lets_encrypt | google | ssl_com | digicert | sectigo; CA domains letsencrypt.org, pki.goog, ...
const caa = (name: string, content: string) => ({ id: `caa-${name}-${content.length}-${content.charCodeAt(8)}`, type: 'CAA', name, content, proxied: false, ttl: 1 });
const pack = (ca: string, hosts: string[], extra = {}) => ({ id: `pack-${ca}`, type: 'advanced', status: 'active', hosts, certificate_authority: ca, created_on: days(-10), ...extra });
const zone = (records: Record<string, unknown>[], packs: Record<string, unknown>[] = []) => ({ zones: [{ name: 'shop.example', dnsRecords: records, certificatePacks: packs }] });

testRule(rule, {
  valid: [
    { name: 'CAA allows the packs\' CA', snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"')], [pack('lets_encrypt', ['shop.example', '*.shop.example'])]) },
    { name: 'parameters after the issuer domain', snapshot: zone([caa('shop.example', '0 issue "pki.goog; cansignhttpexchanges=yes"')], [pack('google', ['shop.example'])]) },
    { name: 'sectigo by its older domain', snapshot: zone([caa('shop.example', '0 issue "comodoca.com"')], [pack('sectigo', ['shop.example'])]) },
    { name: 'only iodef: every CA allowed', snapshot: zone([caa('shop.example', '0 iodef "mailto:sec@shop.example"')], [pack('digicert', ['shop.example'])]) },
    {
      name: 'a subdomain\'s own records govern it',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com"'), caa('api.shop.example', '0 issue "letsencrypt.org"')], [pack('lets_encrypt', ['api.shop.example'])]),
    },
    { name: 'a deleted pack renews nothing', snapshot: zone([caa('shop.example', '0 issue "digicert.com"')], [pack('lets_encrypt', ['shop.example'], { status: 'deleted' })]) },
    { name: 'a CA this rule does not know is not judged', snapshot: zone([caa('shop.example', '0 issue "digicert.com"')], [pack('new_ca', ['shop.example'])]) },
  ],
  invalid: [
    { name: 'no CAA at all', snapshot: zone([]), findings: [{ messageId: 'missing', severity: 'medium', resourceType: 'zone', message: 'no CAA records at shop.example' }] },
    {
      name: 'CAA at a subdomain only still leaves the apex open',
      snapshot: zone([caa('api.shop.example', '0 issue "letsencrypt.org"')]),
      findings: [{ messageId: 'missing' }],
    },
    {
      name: 'CAA that leaves out the packs\' CA',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com"')], [pack('lets_encrypt', ['shop.example', 'www.shop.example'])]),
      findings: [{ messageId: 'caNotAllowed', severity: 'high', resourceType: 'certificate_pack', data: { caaName: 'shop.example', ca: 'lets_encrypt', hosts: 'shop.example, www.shop.example' } }],
    },
    {
      name: 'issuewild governs the wildcard',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('shop.example', '0 issuewild ";"')], [pack('lets_encrypt', ['shop.example', '*.shop.example'])]),
      findings: [{ messageId: 'caNotAllowed', data: { hosts: '*.shop.example' } }],
    },
    {
      name: 'an ancestor\'s records govern a host without its own',
      snapshot: zone([caa('shop.example', '0 issue "pki.goog"')], [pack('ssl_com', ['a.b.shop.example'])]),
      findings: [{ messageId: 'caNotAllowed', message: 'ssl_com (ssl.com)' }],
    },
    { name: 'unknown without the DNS records', snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown without the packs', snapshot: { zones: [{ name: 'a.example', unread: { certificate_packs: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
