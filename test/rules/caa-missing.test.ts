import rule from '../../rules/caa-missing.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// RFC 8659: the relevant record set is the host's own CAA records, else its closest ancestor's (3);
// a set without an issue property restricts nothing (4); issuewild governs wildcards when present
// (4.3); an empty issuer (`;`) allows none (4.2). vendor docs: certificate packs: certificate_authority
// lets_encrypt | google | ssl_com | digicert | sectigo; CA domains letsencrypt.org, pki.goog, ...
// vendor docs, Add CAA records: for universal and advanced certificates the vendor adds issue and
// issuewild records for its CAs once the zone has any CAA record, and does not list them.
const caa = (name: string, content: string) => ({ id: `caa-${name}-${content}`, type: 'CAA', name, content, proxied: false, ttl: 1 });
const pack = (ca: string, hosts: string[], extra = {}) => ({ id: `pack-${ca}`, type: 'advanced', status: 'active', hosts, certificate_authority: ca, created_on: days(-10), ...extra });
/** A certificate the customer uploaded (vendor docs: certificate pack types sni_custom, custom, legacy_custom). */
const uploaded = (ca: string, hosts: string[], type = 'sni_custom') => pack(ca, hosts, { id: `upload-${ca}`, type });
const zone = (records: Record<string, unknown>[], packs: Record<string, unknown>[] = [], extra = {}) => ({ zones: [{ name: 'shop.example', dnsRecords: records, certificatePacks: packs, ...extra }] });

testRule(rule, {
  valid: [
    { name: 'CAA allows the packs\' CA', snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"')], [pack('lets_encrypt', ['shop.example', '*.shop.example'])]) },
    { name: 'parameters after the issuer domain', snapshot: zone([caa('shop.example', '0 issue "pki.goog; cansignhttpexchanges=yes"')], [pack('google', ['shop.example'])]) },
    { name: 'sectigo by its older domain', snapshot: zone([caa('shop.example', '0 issue "comodoca.com"')], [pack('sectigo', ['shop.example'])]) },
    {
      name: 'a subdomain\'s own records govern it',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com"'), caa('api.shop.example', '0 issue "letsencrypt.org"')], [uploaded('lets_encrypt', ['api.shop.example'])]),
    },
    { name: 'a deleted pack renews nothing', snapshot: zone([caa('shop.example', '0 issue "digicert.com"')], [pack('lets_encrypt', ['shop.example'], { type: 'custom', status: 'deleted' }), pack('google', ['shop.example'], { id: 'gone', status: 'expired' })]) },
    { name: 'a CA this rule does not know is not judged', snapshot: zone([caa('shop.example', '0 issue "digicert.com"')], [pack('new_ca', ['shop.example'])]) },
    // RFC 8659 4.1: tags match case-insensitively; RFC 4343: so do domain names.
    { name: 'tag and issuer domain in another case', snapshot: zone([caa('shop.example', '0 ISSUE "LetsEncrypt.ORG"')], [uploaded('lets_encrypt', ['shop.example'])]) },
    // RFC 8659 4.2: each issue property authorizes the CA it names; `;` beside it takes nothing away.
    { name: 'an empty issuer beside a named one', snapshot: zone([caa('shop.example', '0 issue ";"'), caa('shop.example', '0 issue "letsencrypt.org"')], [uploaded('lets_encrypt', ['shop.example'])]) },
    // RFC 8659 4.3: a wildcard is governed by issuewild, which names the uploaded certificate's CA.
    {
      name: 'issuewild allows the wildcard that issue does not',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com"'), caa('shop.example', '0 issuewild "letsencrypt.org"')], [uploaded('lets_encrypt', ['*.shop.example'])]),
    },
    // RFC 8659 4.1: the critical flag forbids issuance only for a tag the CA does not know or
    // support; issue, issuewild and iodef (RFC 8659's own) are understood by every CA.
    { name: 'a critical issue record', snapshot: zone([caa('shop.example', '128 issue "letsencrypt.org"')], [uploaded('lets_encrypt', ['shop.example'])]) },
    {
      name: 'critical issuewild and iodef records',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('shop.example', '128 issuewild "letsencrypt.org"'), caa('shop.example', '128 iodef "mailto:sec@shop.example"')], [uploaded('lets_encrypt', ['*.shop.example'])]),
    },
    // RFC 8659 4: a CA ignores a tag it does not know unless the tag is critical.
    { name: 'an unknown tag that is not critical', snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('shop.example', '0 tbs "unknown"')]) },
    // vendor docs, DNS records: CAA comes with data {flags, tag, value} and may have no content.
    {
      name: 'a CAA record with data and no content',
      snapshot: zone([{ id: 'caa-data', type: 'CAA', name: 'shop.example', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' }, proxied: false, ttl: 1 }], [uploaded('lets_encrypt', ['shop.example'])]),
    },
    // vendor docs, Add CAA records: create CAA in the vendor's DNS only on a full setup; a partial
    // (CNAME setup) zone is answered by the customer's DNS, a secondary zone by its primary.
    { name: 'a partial zone without CAA is not judged', snapshot: zone([], [uploaded('lets_encrypt', ['shop.example'])], { type: 'partial' }) },
    { name: 'a secondary zone is not judged', snapshot: zone([caa('shop.example', '128 tbs "unknown"')], [], { type: 'secondary' }) },
    // vendor docs, Internal DNS: internal zones do not get the vendor's nameservers and can only be
    // queried through its Gateway resolver: not public DNS, so no CA resolves their CAA.
    { name: 'an internal zone is not judged', snapshot: zone([caa('shop.example', '128 contactemail "dns@shop.example"')], [uploaded('digicert', ['shop.example'])], { type: 'internal' }) },
    { name: 'an internal zone without CAA is not judged', snapshot: zone([], [], { type: 'internal' }) },
    // vendor docs, Add CAA records: for universal, advanced and total TLS certificates the vendor
    // adds CAA records (not listed by the API) for pki.goog, letsencrypt.org, ssl.com and
    // sectigo.com, so visible records that leave out such a pack's CA do not stop its renewal: the
    // pack passes, with a note, and nothing fails (no failing info finding, as there was before).
    // The peer's case (Prowler, zone_record_caa_exists: issue "letsencrypt.org") in a real shape:
    // the zone's universal pack comes from Google Trust Services.
    {
      name: 'CAA naming Let\'s Encrypt on a zone whose universal pack is from Google Trust Services',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"')], [pack('google', ['shop.example', '*.shop.example'], { id: 'universal', type: 'universal' })]),
      notes: [{ messageId: 'managedNotNamed', resourceType: 'certificate_pack', resourceId: 'universal', data: { ca: 'google', allowed: 'letsencrypt.org' }, message: 'the pack still renews' }],
    },
    {
      name: 'CAA that leaves out the CA of a managed pack',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com"')], [pack('lets_encrypt', ['shop.example', 'www.shop.example'])]),
      notes: [
        {
          messageId: 'managedNotNamed',
          severity: 'medium',
          resourceType: 'certificate_pack',
          data: { caaName: 'shop.example', ca: 'lets_encrypt', allowed: 'digicert.com', hosts: 'shop.example, www.shop.example' },
          message: 'the API does not list',
        },
      ],
    },
    // vendor docs, Add CAA records, as above: sectigo.com is among the records the vendor adds.
    {
      name: 'a managed Sectigo pack left out passes with a note: the vendor adds its CAA records',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"')], [pack('sectigo', ['shop.example'], { type: 'universal' })]),
      notes: [{ messageId: 'managedNotNamed', data: { ca: 'sectigo' } }],
    },
    // vendor docs: universal and total TLS certificates are the vendor's too.
    {
      name: 'the universal pack and a total TLS pack',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com"')], [pack('google', ['shop.example'], { id: 'universal', type: 'universal' }), pack('google', ['*.shop.example'], { id: 'total', type: 'total_tls' })]),
      notes: [
        { messageId: 'managedNotNamed', resourceId: 'universal' },
        { messageId: 'managedNotNamed', resourceId: 'total' },
      ],
    },
    // RFC 8659 4.3 with the vendor docs: the wildcard is refused by issuewild; still the vendor's pack.
    {
      name: 'issuewild governs the wildcard',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('shop.example', '0 issuewild ";"')], [pack('lets_encrypt', ['shop.example', '*.shop.example'])]),
      notes: [{ messageId: 'managedNotNamed', data: { hosts: '*.shop.example', allowed: 'no CA' } }],
    },
  ],
  invalid: [
    { name: 'no CAA at all', snapshot: zone([]), findings: [{ messageId: 'missing', severity: 'medium', resourceType: 'zone', message: 'no CAA records at shop.example' }] },
    {
      name: 'CAA at a subdomain only still leaves the apex open',
      snapshot: zone([caa('api.shop.example', '0 issue "letsencrypt.org"')]),
      findings: [{ messageId: 'missing' }],
    },
    // RFC 8659 4: a set holding only iodef restricts nothing (this case was once valid: the records
    // restrict no CA, so the zone is as open as one without CAA).
    {
      name: 'only iodef: every CA allowed',
      snapshot: zone([caa('shop.example', '0 iodef "mailto:sec@shop.example"')], [pack('digicert', ['shop.example'])]),
      findings: [{ messageId: 'unrestricted', severity: 'medium', resourceType: 'zone', data: { tags: 'iodef' }, message: 'restrict nothing' }],
    },
    // RFC 8659 4: only tags unrecognized by the CA (not critical) restrict nothing either.
    {
      name: 'only unknown tags that are not critical',
      snapshot: zone([caa('shop.example', '0 tbs "unknown"'), caa('shop.example', '0 iodef "mailto:sec@shop.example"')]),
      findings: [{ messageId: 'unrestricted', data: { tags: 'iodef, tbs' } }],
    },
    // RFC 8659 4.3: issuewild is ignored for a name that is not a wildcard: the apex itself is open.
    { name: 'only issuewild at the apex', snapshot: zone([caa('shop.example', '0 issuewild ";"')]), findings: [{ messageId: 'unrestricted', data: { tags: 'issuewild' } }] },
    // RFC 8659 4.1: a critical property with a tag the CA does not know forbids it to issue; tbs is
    // in no registry, so no CA knows it, the vendor's CAs included. The pack is allowed by issue, so
    // the record is the only finding.
    {
      name: 'a critical unknown tag stops the CAs that do not support it',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('shop.example', '128 tbs "unknown"')], [pack('lets_encrypt', ['shop.example'])]),
      findings: [
        {
          messageId: 'criticalUnknown',
          severity: 'high',
          resourceType: 'dns_record',
          resourceName: 'shop.example',
          data: { tag: 'tbs', flags: 128 },
          message: 'marks the tag tbs critical (flags 128): CAs that do not support the critical tag tbs must refuse to issue for shop.example',
        },
      ],
    },
    // RFC 8659 4.1: a CA MUST NOT issue when the relevant set holds a critical property for an
    // "unknown or unsupported" tag. contactemail is registered, but only issue, issuewild and iodef
    // are understood by every CA (Let's Encrypt supports those three only), so this record may stop
    // the vendor's renewals too (this case was valid: a registered tag was taken as known to every CA).
    {
      name: 'a critical contactemail record',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('shop.example', '128 contactemail "dns@shop.example"')]),
      findings: [
        {
          messageId: 'criticalUnknown',
          severity: 'high',
          data: { tag: 'contactemail' },
          message: 'CAs that do not support the critical tag contactemail must refuse to issue for shop.example and the names below it without CAA of their own, the vendor\'s renewals included',
        },
      ],
    },
    // RFC 8659 4.1, as above: contactphone (CA/B Forum), issuemail (RFC 9495) and issuevmc are
    // registered tags that not every CA supports.
    {
      name: 'critical contactphone, issuemail and issuevmc records',
      snapshot: zone([
        caa('shop.example', '0 issue "letsencrypt.org"'),
        caa('shop.example', '128 contactphone "+1 555 0100"'),
        caa('shop.example', '128 issuemail "digicert.com"'),
        caa('shop.example', '128 issuevmc "digicert.com"'),
      ]),
      findings: [
        { messageId: 'criticalUnknown', severity: 'high', data: { tag: 'contactphone' } },
        { messageId: 'criticalUnknown', severity: 'high', data: { tag: 'issuemail' } },
        { messageId: 'criticalUnknown', severity: 'high', data: { tag: 'issuevmc' } },
      ],
    },
    // RFC 8659 4.1 and 4.2: a CA that supports the critical tag still obeys the issue properties, so
    // an uploaded certificate's CA they leave out is reported as well as the critical record.
    {
      name: 'a critical contactemail beside issue properties that leave out the uploaded certificate\'s CA',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com"'), caa('shop.example', '128 contactemail "dns@shop.example"')], [uploaded('lets_encrypt', ['shop.example'])]),
      findings: [{ messageId: 'criticalUnknown', data: { tag: 'contactemail' } }, { messageId: 'caNotAllowed', severity: 'high', resourceType: 'certificate_pack' }],
    },
    // IANA Certification Authority Restriction Properties: policy is reserved, known to no CA. The
    // set holds no issue property, but it restricts: it is not also reported as unrestricted.
    {
      name: 'a critical reserved tag, with the flags in another case of bits',
      snapshot: zone([caa('shop.example', '129 POLICY "x"')], [uploaded('digicert', ['shop.example'])]),
      findings: [{ messageId: 'criticalUnknown', data: { tag: 'policy', flags: 129 } }],
    },
    // vendor docs, DNS records: a CAA record may come with data and no content; the finding shows
    // the record as the API holds it (its data), not a content the API never sent.
    {
      name: 'a critical contactemail record served with data only',
      snapshot: zone([
        caa('shop.example', '0 issue "letsencrypt.org"'),
        { id: 'caa-crit', type: 'CAA', name: 'shop.example', data: { flags: 128, tag: 'contactemail', value: 'dns@shop.example' }, proxied: false, ttl: 1 },
      ]),
      findings: [
        {
          messageId: 'criticalUnknown',
          resourceId: 'caa-crit',
          data: { tag: 'contactemail', flags: 128, record: 'data {"flags":128,"tag":"contactemail","value":"dns@shop.example"}' },
          message: 'the CAA record data {"flags":128,"tag":"contactemail","value":"dns@shop.example"} at shop.example marks the tag contactemail critical',
        },
      ],
    },
    {
      name: 'a critical unknown tag at a subdomain',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('api.shop.example', '128 tbs "unknown"')]),
      findings: [{ messageId: 'criticalUnknown', data: { caaName: 'api.shop.example' } }],
    },
    // vendor docs, Add CAA records: the records the vendor adds are for pki.goog, letsencrypt.org,
    // ssl.com and sectigo.com only; an advanced pack from DigiCert gets none, so CAA that leaves
    // DigiCert out stops its renewal as for an uploaded certificate (this case was info before).
    {
      name: 'CAA that leaves out DigiCert, the CA of a managed pack the vendor adds no CAA records for',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"')], [pack('digicert', ['shop.example', 'www.shop.example'])]),
      findings: [
        {
          messageId: 'caNotAllowed',
          severity: 'high',
          resourceType: 'certificate_pack',
          data: { ca: 'digicert', allowed: 'letsencrypt.org' },
          message:
            'the CAA records at shop.example allow letsencrypt.org, not digicert (digicert.com), which issues the vendor-managed advanced pack for shop.example, www.shop.example: that CA must refuse to renew or replace it; the vendor adds CAA records only for pki.goog, letsencrypt.org, ssl.com and sectigo.com, not for this CA',
        },
      ],
    },
    // RFC 8659 4.3: a wildcard the customer uploaded, refused by issuewild although issue allows its CA.
    {
      name: 'issuewild refuses an uploaded wildcard that issue allows',
      snapshot: zone([caa('shop.example', '0 issue "letsencrypt.org"'), caa('shop.example', '0 issuewild "digicert.com"')], [uploaded('lets_encrypt', ['shop.example', '*.shop.example'])]),
      findings: [{ messageId: 'caNotAllowed', severity: 'high', data: { hosts: '*.shop.example', allowed: 'digicert.com' } }],
    },
    // RFC 8659 3: an ancestor's records govern a host without its own; the certificate is uploaded.
    {
      name: 'an ancestor\'s records govern a host without its own',
      snapshot: zone([caa('shop.example', '0 issue "pki.goog"')], [uploaded('ssl_com', ['a.b.shop.example'], 'legacy_custom')]),
      findings: [{ messageId: 'caNotAllowed', severity: 'high', resourceType: 'certificate_pack', message: ['ssl_com (ssl.com)', 'uploaded legacy_custom certificate'] }],
    },
    // RFC 8659 4.2: an empty issuer authorizes no CA.
    {
      name: 'an empty issuer forbids the uploaded certificate\'s CA',
      snapshot: zone([caa('shop.example', '0 issue ";"')], [uploaded('lets_encrypt', ['shop.example'], 'custom')]),
      findings: [{ messageId: 'caNotAllowed', severity: 'high', data: { allowed: 'no CA' } }],
    },
    // RFC 8657 3 and 4: accounturi and validationmethods narrow the property; shown in the message and data.
    {
      name: 'parameters are shown with the CA they narrow',
      snapshot: zone([caa('shop.example', '0 issue "digicert.com; accounturi=https://acme.digicert.com/acct/7; validationmethods=dns-01"')], [uploaded('lets_encrypt', ['shop.example'])]),
      findings: [
        {
          messageId: 'caNotAllowed',
          message: 'allow digicert.com (accounturi=https://acme.digicert.com/acct/7, validationmethods=dns-01), not lets_encrypt',
          data: {
            properties: [
              { name: 'shop.example', tag: 'issue', issuer: 'digicert.com', parameters: [{ tag: 'accounturi', value: 'https://acme.digicert.com/acct/7' }, { tag: 'validationmethods', value: 'dns-01' }] },
            ],
          },
        },
      ],
    },
    // RFC 8659 4.2: the issuer domain is LDH labels; a value outside the grammar names no CA.
    {
      name: 'a malformed issuer names no CA',
      snapshot: zone([caa('shop.example', '0 issue "lets encrypt.org"')], [uploaded('lets_encrypt', ['shop.example'])]),
      findings: [{ messageId: 'caNotAllowed', message: 'malformed' }],
    },
    // vendor docs, DNS records: the live API's CAA shape (data, no content) is read like content.
    {
      name: 'CAA with data and no content that leaves out the uploaded certificate\'s CA',
      snapshot: zone([{ id: 'caa-data', type: 'CAA', name: 'shop.example', data: { flags: 0, tag: 'issue', value: 'digicert.com' }, proxied: false, ttl: 1 }], [uploaded('google', ['shop.example'])]),
      findings: [{ messageId: 'caNotAllowed', data: { allowed: 'digicert.com', ca: 'google' } }],
    },
    { name: 'unknown without the DNS records', snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown without the packs', snapshot: { zones: [{ name: 'a.example', unread: { certificate_packs: 'failed' } }] }, findings: [{ status: 'unknown' }] },
  ],
});
