import rule from '../../rules/dns-record-not-proxied.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';
import { withStandIns } from '../support/stand-ins.js';

// vendor docs, proxy status: only A, AAAA and CNAME records can be proxied; a DNS-only record is
// answered with the origin's address and its HTTP traffic does not pass the proxy; the vendor
// recommends proxying every such record that serves web traffic. Proxy status use cases: records to
// keep DNS-only are email hosts, domain verification, non-HTTP services (FTP, SSH, RDP).

const record = dnsRecord;
const mx = (host: string) => ({ ...record('MX', 'a.example', host), priority: 10 });
const zone = (...records: Item[]) => ({ zones: [{ name: 'a.example', dnsRecords: records }] });

const apex = record('A', 'a.example', '203.0.113.10', true);
const www = record('CNAME', 'www.a.example', 'a.example', true);

testRule(rule, withStandIns({
  valid: [
    { name: 'no records', snapshot: zone() },
    { name: 'every web record proxied', snapshot: zone(apex, www, record('AAAA', 'a.example', '2001:db8::10', true)) },
    // vendor docs, proxy status: proxying is the owner's choice; a zone that proxies nothing does not use the proxy (scope proxying-zones, the default).
    { name: 'a zone that proxies nothing', snapshot: zone(record('A', 'a.example', '203.0.113.10'), record('CNAME', 'www.a.example', 'a.example')) },
    { name: 'a zone that proxies nothing, scope proxying-zones named', options: { scope: 'proxying-zones' }, snapshot: zone(record('A', 'app.a.example', '203.0.113.10')) },
    // vendor docs, proxy status use cases: with every zone judged, mail hosts, non-HTTP services and ignored names still stay DNS-only.
    // vendor docs, Internal DNS: not public DNS, whatever the scope.
    { name: 'scope every-zone: an internal zone', options: { scope: 'every-zone' }, snapshot: { zones: [{ name: 'corp.example', type: 'internal' as const, dnsRecords: [record('A', 'b.corp.example', '203.0.113.11')] }] } },
    {
      name: 'scope every-zone: a zone that proxies nothing but mail, SSH and ignored names',
      options: { scope: 'every-zone', ignore: ['legacy.a.example'] },
      snapshot: zone(mx('mx.a.example'), record('A', 'mx.a.example', '203.0.113.25'), record('A', 'ssh.a.example', '203.0.113.26'), record('A', 'legacy.a.example', '203.0.113.27'), record('A', 'lan.a.example', '10.0.0.7')),
    },
    // vendor docs, proxy status use cases (email): a host used for mail stays DNS-only; MX records cannot be proxied.
    {
      name: 'mail hosts: MX targets and conventional mail names',
      snapshot: zone(
        apex,
        mx('inbound.a.example.'),
        record('A', 'inbound.a.example', '203.0.113.25'),
        ...['mail', 'smtp', 'imap', 'pop', 'pop3', 'mx', 'mx2', 'autodiscover', 'autoconfig', 'Mail1'].map((label) => record('A', `${label}.a.example`, '203.0.113.26')),
      ),
    },
    // vendor docs, proxy status use cases (non-HTTP services): FTP, SSH, RDP and other protocols must be DNS-only.
    { name: 'non-HTTP services by name', snapshot: zone(apex, ...['ftp', 'sftp', 'ssh', 'rdp', 'vpn', 'vpn2'].map((label) => record('A', `${label}.a.example`, '203.0.113.30'))) },
    // vendor docs, DNS record types: underscores are commonly used for service records; domain verification CNAMEs stay DNS-only.
    {
      name: 'service names (a label starting with an underscore)',
      snapshot: zone(apex, record('CNAME', '_acme-challenge.a.example', 'a.example.acme.example'), record('CNAME', 'sel1._domainkey.a.example', 'sel1.dkim.mailer.example'), record('A', '_sip._tcp.a.example', '203.0.113.31')),
    },
    // vendor docs, proxying limitations: non-proxiable targets (exact; exact or below; below), and the use cases' Squarespace verification target.
    {
      name: 'CNAMEs to targets the vendor refuses to proxy',
      snapshot: zone(
        apex,
        record('CNAME', 'k2.a.example', 'dkim2.mcsv.net'),
        record('CNAME', 'k3.a.example', 'DKIM3.mcsv.net.'),
        record('CNAME', 'zb.a.example', 'zmverify.zoho.com'),
        record('CNAME', 'keap.a.example', 'dkim.infusionmail.com'),
        record('CNAME', 'ses.a.example', 'dkim.amazonses.com'),
        record('CNAME', 'ses2.a.example', 'abcdef.dkim.amazonses.com'),
        record('CNAME', 'ms.a.example', 'selector1-a-example._domainkey.contoso.onmicrosoft.com'),
        record('CNAME', 'ic.a.example', 'x1.dkim.intercom.io'),
        record('CNAME', 'acm.a.example', 'abc.xyz.acm-validations.aws'),
        record('CNAME', 'sq.a.example', 'verify.squarespace.com'),
      ),
    },
    // One finding a record: a DNS-only wildcard is dns-wildcard-record's (vendor docs, wildcard DNS records: left DNS-only it publishes the origin for every name).
    { name: 'a DNS-only wildcard is left to dns-wildcard-record', snapshot: zone(apex, record('A', '*.a.example', '203.0.113.90'), record('CNAME', '*.dev.a.example', 'dev.hosting.example')) },
    // One finding a record: a DNS-only record on a proxied record's address or target reveals that origin: dns-origin-exposed's.
    {
      name: 'records that reveal a proxied origin are left to dns-origin-exposed',
      snapshot: zone(apex, www, record('A', 'direct.a.example', '203.0.113.10'), record('CNAME', 'shop.a.example', 'shop.hosting.example', true), record('CNAME', 'shop-direct.a.example', 'shop.hosting.example')),
    },
    // One finding a record: a CNAME whose target does not exist (RFC 2308 2.1, NXDOMAIN) is dns-dangling-target's: it publishes no origin, it can be taken over.
    {
      name: 'a DNS-only CNAME whose target does not exist is left to dns-dangling-target',
      snapshot: { zones: [{ name: 'a.example', dnsRecords: [apex, record('CNAME', 'old.a.example', 'gone.hosting.example')], dnsTargets: [{ name: 'gone.hosting.example', type: 'CNAME', answer: 'nxdomain' }] }] },
    },
    // RFC 5737 and RFC 3849 (documentation addresses), RFC 1918 (private), RFC 6598 (shared address space),
    // RFC 4193 (unique local), RFC 1122 (loopback): none is globally reachable (IANA special-purpose
    // registries), so a record there publishes no origin; dns-private-address reports it, and this
    // rule follows its documentation setting: by default every documentation range is not public.
    {
      name: 'documentation, private and shared addresses are left to dns-private-address (its defaults)',
      options: { standIns: [] },
      snapshot: zone(
        record('CNAME', 'www.a.example', 'origin.hosting.example', true),
        record('A', 'doc1.a.example', '192.0.2.7'),
        record('A', 'doc2.a.example', '198.51.100.7'),
        record('A', 'doc3.a.example', '203.0.113.7'),
        record('AAAA', 'doc6.a.example', '2001:db8::7'),
        record('AAAA', 'doc9637.a.example', '3fff::7'),
        record('A', 'lan.a.example', '192.168.1.7'),
        record('A', 'cgnat.a.example', '100.64.0.7'),
        record('AAAA', 'ula.a.example', 'fd12:3456::7'),
      ),
    },
    // RFC 9637 (3fff::/20) is a documentation range the organisation did not name a stand-in: still not public.
    { name: 'a documentation range that is not a stand-in is left to dns-private-address', snapshot: zone(apex, record('AAAA', 'status.a.example', '3fff::10')) },
    // IANA special-purpose registries: those addresses are not public, and dns-private-address reports them.
    { name: 'records whose address is not public', snapshot: zone(apex, record('A', 'intranet.a.example', '10.0.0.5'), record('AAAA', 'nas.a.example', 'fd00::10'), record('A', 'lo.a.example', '127.0.0.1')) },
    // RFC 1035 3.4.1: an A record's data is an address; content that is not one publishes no origin.
    { name: 'content that is not an address', snapshot: zone(apex, record('A', 'bad.a.example', 'not-an-address'), record('AAAA', 'bad6.a.example', '10.0.0.1/8')) },
    // vendor docs, proxy status: a proxied name is answered with the proxy's addresses, so an alias of it publishes no origin.
    { name: 'a DNS-only CNAME to a name the zone proxies', snapshot: zone(apex, www, record('CNAME', 'alias.a.example', 'WWW.A.Example.')) },
    {
      name: 'names listed in ignore, exactly or by glob',
      options: { ignore: ['game.a.example', '*.saas.a.example', 'build-??.a.example'] },
      snapshot: zone(apex, record('A', 'Game.A.Example', '203.0.113.40'), record('CNAME', 'shop.saas.a.example', 'shops.saas-provider.example'), record('A', 'build-01.a.example', '203.0.113.41')),
    },
    // The API states the proxy status of every A, AAAA and CNAME record; one without it is not known to be DNS-only.
    { name: 'a record without a proxy status', snapshot: zone(apex, record('A', 'unknown.a.example', '203.0.113.42', null)) },
    // vendor docs, Internal DNS: not public DNS. vendor docs, partial setup: the authoritative DNS is another provider's.
    { name: 'an internal zone', snapshot: { zones: [{ name: 'corp.example', type: 'internal' as const, dnsRecords: [record('A', 'a.corp.example', '203.0.113.10', true), record('A', 'b.corp.example', '203.0.113.11')] }] } },
    {
      name: 'a partial (CNAME) setup, whose DNS-only records only tell the proxy where origins are',
      snapshot: { zones: [{ name: 'a.example', type: 'partial' as const, dnsRecords: [record('CNAME', 'www.a.example', 'origin.a.example', true), record('A', 'origin.a.example', '203.0.113.10')] }] },
    },
  ],
  invalid: [
    {
      // vendor docs, proxy status: a DNS-only record is answered with the origin's address and bypasses the proxy.
      name: 'a DNS-only A record beside proxied ones',
      snapshot: zone(apex, www, record('A', 'app.a.example', '203.0.113.77')),
      findings: [
        {
          messageId: 'notProxied',
          severity: 'low',
          resourceType: 'dns_record',
          resourceName: 'app.a.example',
          message: 'app.a.example (A 203.0.113.77) is DNS-only while the zone proxies other records: DNS publishes its origin 203.0.113.77, and its traffic bypasses the proxy and its firewall',
          data: { name: 'app.a.example', type: 'A', content: '203.0.113.77' },
        },
      ],
    },
    {
      // vendor docs, proxy status: AAAA and CNAME records are proxiable as well; each record is its own finding.
      name: 'DNS-only AAAA and CNAME records, one finding per record',
      snapshot: zone(apex, record('AAAA', 'app.a.example', '2001:db8::77'), record('A', 'app.a.example', '203.0.113.77'), record('CNAME', 'blog.a.example', 'blog.hosting.example')),
      findings: [
        { messageId: 'notProxied', data: { name: 'app.a.example', type: 'AAAA', content: '2001:db8::77' } },
        { messageId: 'notProxied', data: { name: 'app.a.example', type: 'A', content: '203.0.113.77' } },
        { messageId: 'notProxied', data: { name: 'blog.a.example', type: 'CNAME', content: 'blog.hosting.example' } },
      ],
    },
    {
      // vendor docs, proxy status use cases: webmail and names that merely contain a mail word serve web traffic.
      name: 'names that only resemble the conventional ones',
      snapshot: zone(apex, record('A', 'webmail.a.example', '203.0.113.80'), record('A', 'mailer.a.example', '203.0.113.81'), record('A', 'app.mail.a.example', '203.0.113.82')),
      findings: [{ resourceName: 'webmail.a.example' }, { resourceName: 'mailer.a.example' }, { resourceName: 'app.mail.a.example' }],
    },
    {
      // vendor docs, proxying limitations: `dkim.amazonses.com` is matched exactly or below it, not by any name ending in it.
      name: 'a CNAME to a name that only ends like a non-proxiable target',
      snapshot: zone(apex, record('CNAME', 'ses.a.example', 'notdkim.amazonses.com'), record('CNAME', 'ms.a.example', 'onmicrosoft.com')),
      findings: [{ resourceName: 'ses.a.example' }, { resourceName: 'ms.a.example' }],
    },
    {
      // vendor docs, proxy status: a DNS-only CNAME to a DNS-only name resolves to that name's origin.
      name: 'a DNS-only CNAME to a DNS-only name in the zone',
      snapshot: zone(apex, record('A', 'origin.a.example', '203.0.113.90'), record('CNAME', 'cdn.a.example', 'origin.a.example')),
      findings: [{ resourceName: 'origin.a.example' }, { resourceName: 'cdn.a.example', data: { content: 'origin.a.example' } }],
    },
    {
      // vendor docs, pausing: a paused zone answers every record with its origin; the DNS-only one stays DNS-only once it is unpaused.
      name: 'a paused zone is judged the same',
      snapshot: { zones: [{ name: 'a.example', paused: true, dnsRecords: [apex, record('A', 'app.a.example', '203.0.113.77')] }] },
      findings: [{ messageId: 'notProxied', resourceName: 'app.a.example' }],
    },
    {
      // vendor docs, Secondary DNS overrides: a secondary zone can proxy records, and then uses the proxy.
      name: 'a secondary zone that proxies records',
      snapshot: { zones: [{ name: 'a.example', type: 'secondary' as const, dnsRecords: [apex, record('A', 'app.a.example', '203.0.113.77')] }] },
      findings: [{ resourceName: 'app.a.example' }],
    },
    {
      // RFC 5737: documentation addresses; named stand-ins (dns-private-address's standIns, followed here) are public addresses, so a DNS-only one publishes its origin.
      name: 'documentation ranges named as stand-ins are public addresses',
      options: { standIns: ['198.51.100.0/24'] },
      snapshot: zone(record('A', 'a.example', '198.51.100.10', true), record('A', 'app.a.example', '198.51.100.77'), record('A', 'doc.a.example', '192.0.2.77')),
      findings: [{ messageId: 'notProxied', resourceName: 'app.a.example' }],
    },
    {
      // RFC 5737: with dns-private-address's documentation set to false every documentation range stands in for public addresses.
      name: 'documentation set to false makes every documentation range public',
      options: { documentation: false, standIns: [] },
      snapshot: zone(record('A', 'a.example', '198.51.100.10', true), record('A', 'doc.a.example', '192.0.2.77'), record('A', 'lan.a.example', '10.1.2.3')),
      findings: [{ messageId: 'notProxied', resourceName: 'doc.a.example' }],
    },
    {
      // The ignore list names intended DNS-only records only; another one is still reported.
      name: 'a name not in ignore is still reported',
      options: { ignore: ['*.saas.a.example'] },
      snapshot: zone(apex, record('CNAME', 'shop.saas.a.example', 'shops.saas-provider.example'), record('CNAME', 'saas.a.example', 'saas-provider.example')),
      findings: [{ resourceName: 'saas.a.example' }],
    },
    {
      // vendor docs, proxy status: a DNS-only record is answered with the origin's address; with every zone judged, a zone that proxies nothing is reported too.
      name: 'scope every-zone: the web records of a zone that proxies nothing',
      options: { scope: 'every-zone' },
      snapshot: zone(mx('inbound.a.example'), record('A', 'a.example', '203.0.113.10'), record('CNAME', 'www.a.example', 'a.example'), record('A', 'inbound.a.example', '203.0.113.25')),
      findings: [
        {
          messageId: 'notProxiedZone',
          resourceName: 'a.example',
          message: 'a.example (A 203.0.113.10) is DNS-only, as is every record of the zone: DNS publishes its origin 203.0.113.10, and its traffic never meets the proxy and its firewall',
        },
        { messageId: 'notProxiedZone', resourceName: 'www.a.example', data: { type: 'CNAME', content: 'a.example' } },
      ],
    },
    {
      // In a zone that proxies records, every-zone judges as the default does.
      name: 'scope every-zone: a zone that proxies records is judged as by default',
      options: { scope: 'every-zone' },
      snapshot: zone(apex, record('A', 'app.a.example', '203.0.113.77')),
      findings: [{ messageId: 'notProxied', resourceName: 'app.a.example' }],
    },
    {
      // Whatever the scope, records not read leave the zone unknown.
      name: 'scope every-zone: records not read',
      options: { scope: 'every-zone' },
      snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'dns_records' }],
    },
    {
      name: 'records not read',
      snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'failed' as const } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'dns_records' }],
    },
  ],
}));
