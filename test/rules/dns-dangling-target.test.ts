import rule from '../../rules/dns-dangling-target.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// RFC 1034 4.3.2 and RFC 2308 2.1: NXDOMAIN (name error) says the name does not exist; RFC 2308 2.2:
// NOERROR with no data of the type asked (NODATA) says it exists. RFC 8020 2: nothing exists under an
// NXDOMAIN name, so a name with records below it (an empty non-terminal) exists. OWASP WSTG-CONF-10
// and Microsoft Learn (prevent dangling DNS entries): a CNAME, NS or MX record whose target does not
// exist can be taken over by whoever registers or claims the target.

const record = dnsRecord;
const mx = (name: string, exchange: string, priority = 10): Item => ({ ...record('MX', name, exchange), priority });
const srv = (name: string, content: string, target: string): Item => ({ ...record('SRV', name, content), priority: 10, data: { priority: 10, weight: 5, port: 5060, target } });
const target = (name: string, type: string, answer: 'exists' | 'nxdomain' | 'unknown', reason?: string): Item => ({ name, type, answer, ...(reason ? { reason } : {}) });

const apex = record('A', 'a.example', '203.0.113.10', true);
const zone = (records: Item[], targets?: Item[]) => ({ zones: [{ name: 'a.example', dnsRecords: [apex, ...records], ...(targets ? { dnsTargets: targets } : {}) }] });

testRule(rule, {
  valid: [
    { name: 'no records that point at a host', snapshot: zone([record('TXT', 'a.example', 'v=spf1 -all')]) },
    // RFC 2308 2.2: any answer, or NOERROR without data, means the name exists.
    {
      name: 'external targets that exist',
      snapshot: zone(
        [record('CNAME', 'shop.a.example', 'tenant.saas.example.net', true), mx('a.example', 'mx1.mail.example.net'), record('NS', 'dev.a.example', 'ns1.dns-host.example.org')],
        [target('tenant.saas.example.net', 'CNAME', 'exists'), target('mx1.mail.example.net', 'MX', 'exists'), target('ns1.dns-host.example.org', 'NS', 'exists')],
      ),
    },
    // Inside the zone the scan's own records decide: the apex exists (its SOA), a name with a record exists.
    { name: 'targets inside the zone with records of their own, with no resolution needed', snapshot: zone([record('CNAME', 'www.a.example', 'a.example', true), record('A', 'app.a.example', '203.0.113.11'), record('CNAME', 'web.a.example', 'APP.a.example.')]) },
    // RFC 8020 2: a name with records below it exists (an empty non-terminal), so it is not NXDOMAIN.
    { name: 'a target that is an empty non-terminal of the zone', snapshot: zone([record('A', 'x.lb.a.example', '203.0.113.12'), record('CNAME', 'edge.a.example', 'lb.a.example')]) },
    // RFC 4592 3.3.1: a wildcard at the closest encloser answers for a name that does not exist.
    { name: 'a target a wildcard of the zone answers for', snapshot: zone([record('A', '*.apps.a.example', '203.0.113.13'), record('CNAME', 'portal.a.example', 'p1.apps.a.example')]) },
    // RFC 7505 3: a null MX (exchange ".") says the domain accepts no mail: it names no host.
    { name: 'a null MX names no host', snapshot: zone([mx('a.example', '.', 0)]) },
    // RFC 2782: an SRV target of "." means the service is decidedly not available at this domain.
    { name: 'an SRV record with target "." names no host', snapshot: zone([srv('_sip._tcp.a.example', '5 5060 .', '.')]) },
    // The target's zone is in the scan: its records decide, whatever a resolver says.
    {
      name: 'a target in another zone of the scan that has a record there',
      snapshot: { zones: [{ name: 'a.example', dnsRecords: [record('CNAME', 'blog.a.example', 'blog.b.example')], dnsTargets: [target('blog.b.example', 'CNAME', 'nxdomain')] }, { name: 'b.example', dnsRecords: [record('A', 'blog.b.example', '203.0.113.20')] }] },
    },
  ],
  invalid: [
    {
      // OWASP WSTG-CONF-10: a CNAME to an NXDOMAIN name is the classic subdomain takeover; the name itself is taken: high.
      name: 'a CNAME to a name that does not exist',
      snapshot: zone([record('CNAME', 'status.a.example', 'a.statuspage.example.com')], [target('a.statuspage.example.com', 'CNAME', 'nxdomain')]),
      findings: [
        {
          messageId: 'dangling',
          severity: 'high',
          resourceType: 'dns_record',
          resourceName: 'status.a.example',
          message: 'CNAME record status.a.example points at a.statuspage.example.com, which does not exist (NXDOMAIN): whoever registers or claims a.statuspage.example.com serves status.a.example',
          data: { type: 'CNAME', name: 'status.a.example', target: 'a.statuspage.example.com' },
        },
      ],
    },
    {
      // vendor docs, proxy status: a proxied record's requests are still fetched from its target, so whoever claims the target serves the name through the proxy.
      name: 'a proxied CNAME dangles too',
      snapshot: zone([record('CNAME', 'assets.a.example', 'a-assets.storage.example.net', true)], [target('a-assets.storage.example.net', 'CNAME', 'nxdomain')]),
      findings: [{ messageId: 'dangling', severity: 'high', resourceName: 'assets.a.example' }],
    },
    {
      // OWASP WSTG-CONF-10: an NS record to a name that does not exist hands the delegated subdomain to whoever registers it: high.
      name: 'a delegation to a name server that does not exist',
      snapshot: zone([record('NS', 'dev.a.example', 'ns1.expired-dns.example')], [target('ns1.expired-dns.example', 'NS', 'nxdomain')]),
      findings: [{ messageId: 'dangling', severity: 'high', message: 'answers for dev.a.example and everything under it', data: { type: 'NS', target: 'ns1.expired-dns.example' } }],
    },
    {
      // OWASP WSTG-CONF-10 (MX records); RFC 5321 5.1: mail goes to the exchange the MX names: mail is taken, not the name: medium.
      name: 'an MX and an SRV record to names that do not exist',
      snapshot: zone(
        [mx('a.example', 'mx.old-mail.example.net'), srv('_sip._tcp.a.example', '5 5060 sip.old-voip.example.net', 'sip.old-voip.example.net')],
        [target('mx.old-mail.example.net', 'MX', 'nxdomain'), target('sip.old-voip.example.net', 'SRV', 'nxdomain')],
      ),
      findings: [
        { messageId: 'dangling', severity: 'medium', resourceName: 'a.example', message: 'receives mail sent to a.example', data: { type: 'MX', target: 'mx.old-mail.example.net' } },
        { messageId: 'dangling', severity: 'medium', resourceName: '_sip._tcp.a.example', data: { type: 'SRV', target: 'sip.old-voip.example.net' } },
      ],
    },
    {
      // RFC 1034 4.3.2: inside the organisation's zones the scan's records are the answer: no record, no name.
      name: 'a CNAME to a name the zone has no record for',
      snapshot: zone([record('CNAME', 'old.a.example', 'gone.a.example')]),
      findings: [{ messageId: 'danglingInside', severity: 'high', data: { target: 'gone.a.example', zone: 'a.example' } }],
    },
    {
      name: 'a CNAME into another zone of the scan that has no such name',
      snapshot: { zones: [{ name: 'a.example', dnsRecords: [record('CNAME', 'blog.a.example', 'blog.b.example')], dnsTargets: [] }, { name: 'b.example', dnsRecords: [record('A', 'b.example', '203.0.113.20')] }] },
      findings: [{ messageId: 'danglingInside', zone: 'a.example', resourceName: 'blog.a.example', data: { target: 'blog.b.example', zone: 'b.example' } }],
    },
    {
      // OWASP WSTG-CONF-10 names SERVFAIL as a response to investigate, not a verdict: a server failure or a timeout says nothing of the name.
      name: 'a SERVFAIL or a timeout is not judged',
      snapshot: zone(
        [record('CNAME', 'a1.a.example', 'flaky.example.net'), record('CNAME', 'a2.a.example', 'slow.example.net')],
        [target('flaky.example.net', 'CNAME', 'unknown', 'the resolver answered SERVFAIL'), target('slow.example.net', 'CNAME', 'unknown', 'no answer before the time limit')],
      ),
      findings: [
        { status: 'unknown', resourceName: 'a1.a.example', message: 'flaky.example.net could not be resolved: the resolver answered SERVFAIL' },
        { status: 'unknown', resourceName: 'a2.a.example', message: 'slow.example.net could not be resolved: no answer before the time limit' },
      ],
    },
    {
      name: 'external targets the scan did not resolve are not judged',
      snapshot: zone([record('CNAME', 'shop.a.example', 'tenant.saas.example.net')]),
      findings: [{ status: 'unknown', resourceName: 'shop.a.example', message: 'tenant.saas.example.net was not resolved' }],
    },
    {
      name: "a target in another zone whose records were not read is not judged",
      snapshot: { zones: [{ name: 'a.example', dnsRecords: [record('CNAME', 'blog.a.example', 'blog.b.example')] }, { name: 'b.example', unread: { dns_records: 'failed' as const } }] },
      findings: [
        { status: 'unknown', zone: 'a.example', message: 'blog.b.example is in b.example, whose DNS records were not read' },
        { status: 'unknown', zone: 'b.example', resourceType: 'zone' },
      ],
    },
    {
      // vendor docs, partial setup: the organisation's own DNS answers for a partial zone, so its records here are not the public answer: the resolution is.
      name: 'a target in a partial zone is judged by the resolution',
      snapshot: {
        zones: [
          { name: 'a.example', dnsRecords: [record('CNAME', 'app.a.example', 'app.p.example')], dnsTargets: [target('app.p.example', 'CNAME', 'nxdomain')] },
          { name: 'p.example', type: 'partial' as const, dnsRecords: [] },
        ],
      },
      findings: [{ messageId: 'dangling', zone: 'a.example', data: { target: 'app.p.example' } }],
    },
  ],
});
