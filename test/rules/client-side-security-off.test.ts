import rule from '../../rules/client-side-security-off.js';
import { dnsRecord, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor API reference: Page Shield settings: GET /zones/{zone_id}/page_shield answers
// {enabled, use_cloudflare_reporting_endpoint, use_connection_url_path, updated_at}; `enabled`
// says whether client-side security is on.
// vendor docs: Page Shield, how it works: the edge adds a report-only Content Security Policy to
// the HTML it serves; DNS-only records bypass the edge (vendor docs: proxy status).
// PCI DSS v4.0 requirement 6.4.3: payment page scripts executed in the browser are inventoried.
const apex = dnsRecord('A', 'shop.example', '203.0.113.10', true);
const www = dnsRecord('CNAME', 'www.shop.example', 'shop.example', true);
const dnsOnly = dnsRecord('A', 'shop.example', '203.0.113.10');
const mail = dnsRecord('MX', 'shop.example', 'mx.mail.example');
const settings = (enabled: unknown): Item => ({ enabled, use_cloudflare_reporting_endpoint: true, use_connection_url_path: false, updated_at: '2026-10-01T00:00:00Z' });

const zone = (pageShield: Item | null, records: Item[], extra: Record<string, unknown> = {}) => ({
  zones: [{ name: 'shop.example', pageShield, dnsRecords: records, ...extra }],
});

testRule(rule, {
  valid: [
    { name: 'on, serving pages', snapshot: zone(settings(true), [apex, www]) },
    // vendor docs: proxy status: DNS-only records are answered with the origin; the edge serves none of their pages.
    { name: 'off, with nothing proxied: not applicable', snapshot: zone(settings(false), [dnsOnly, mail]) },
    { name: 'off, on a zone without records: not applicable', snapshot: zone(settings(false), []) },
    // vendor docs: pausing a zone: proxied names are answered with the origin, past the edge.
    { name: 'off, on a paused zone: not applicable', snapshot: zone(settings(false), [apex], { paused: true }) },
    // vendor docs: zone status: a pending zone's name servers are not the vendor's yet; it serves nothing.
    { name: 'off, on a pending zone: not applicable', snapshot: zone(settings(false), [apex], { status: 'pending' }) },
    // The script monitor is offered on every plan: a Free zone is judged as any other (and passes here, being on).
    { name: 'on, Free plan', snapshot: { zones: [{ name: 'shop.example', plan: 'free' as const, pageShield: settings(true), dnsRecords: [apex] }] } },
    {
      // A setting that is on decides alone: the records are not needed.
      name: 'on, with the DNS records not read',
      snapshot: { zones: [{ name: 'shop.example', pageShield: settings(true), unread: { dns_records: 'failed' as const } }] },
    },
  ],
  invalid: [
    {
      name: 'off, serving pages through a proxied apex and www',
      snapshot: zone(settings(false), [apex, www, mail]),
      findings: [{ messageId: 'off', severity: 'medium', resourceType: 'zone', data: { records: 'shop.example, www.shop.example' } }],
    },
    {
      // The script monitor is offered on every plan, Free included.
      name: 'off, Free plan',
      snapshot: { zones: [{ name: 'shop.example', plan: 'free' as const, pageShield: settings(false), dnsRecords: [apex] }] },
      findings: [{ messageId: 'off' }],
    },
    {
      name: 'many proxied names are shortened',
      snapshot: zone(settings(false), ['a', 'b', 'c', 'd', 'e'].map((n) => dnsRecord('A', `${n}.shop.example`, '203.0.113.10', true))),
      findings: [{ messageId: 'off', data: { records: 'a.shop.example, b.shop.example, c.shop.example, and 2 more' } }],
    },
    // A read the token may not make (Page Shield Read is its own permission) says unknown, never pass or fail.
    { name: 'unknown when denied', snapshot: { zones: [{ name: 'shop.example', dnsRecords: [apex], unread: { page_shield: 'denied' as const } }] }, findings: [{ status: 'unknown', message: 'page_shield' }] },
    { name: 'unknown when not read at all', snapshot: { zones: [{ name: 'shop.example', dnsRecords: [apex] }] }, findings: [{ status: 'unknown' }] },
    { name: 'unknown when the answer has no enabled field', snapshot: zone({ updated_at: '2026-10-01T00:00:00Z' }, [apex]), findings: [{ status: 'unknown', message: 'enabled' }] },
    { name: 'unknown when off and the DNS records were not read', snapshot: { zones: [{ name: 'shop.example', pageShield: settings(false), unread: { dns_records: 'failed' as const } }] }, findings: [{ status: 'unknown', message: 'dns_records' }] },
  ],
});
