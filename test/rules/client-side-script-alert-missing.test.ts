import rule from '../../rules/client-side-script-alert-missing.js';
import { dnsRecord, zoneIdOf, type Item } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: Page Shield alerts: New Malicious Script, New Code Change Detection, New Malicious
// Domain and URL, New Resources and New Domain alerts, each sent by a notification policy.
// vendor API reference: Notification policies: GET /accounts/{account_id}/alerting/v3/policies,
// each {id, name, alert_type, enabled, filters, mechanisms}; alert_type values
// scriptmonitor_alert_new_malicious_scripts and scriptmonitor_alert_new_code_change_detections;
// `filters.zones` limits a policy to those zones.
// PCI DSS v4.0 requirement 11.6.1: personnel are alerted to unauthorised changes to payment pages.
const ACCOUNT = 'acc0000000000000000000000000000a';
const OTHER = 'acc0000000000000000000000000000b';
const accounts = [
  { id: ACCOUNT, name: 'Example Org', type: 'standard' },
  { id: OTHER, name: 'Other Org', type: 'standard' },
];
const apex = (zone: string) => dnsRecord('A', zone, '203.0.113.10', true);
const shield = (enabled: boolean): Item => ({ enabled, use_cloudflare_reporting_endpoint: true, use_connection_url_path: false, updated_at: '2026-10-01T00:00:00Z' });
const zone = (name: string, on: boolean | null, account = ACCOUNT) => ({ name, account, dnsRecords: [apex(name)], ...(on === null ? {} : { pageShield: shield(on) }) });

let n = 0;
const policy = (alertType: string, fields: Item = {}): Item => ({
  id: `pol${(++n).toString(16).padStart(29, '0')}`,
  name: `Page Shield ${alertType}`,
  alert_type: alertType,
  enabled: true,
  mechanisms: { email: [{ id: 'security@example.com' }] },
  filters: {},
  ...fields,
});
const MALICIOUS = 'scriptmonitor_alert_new_malicious_scripts';
const CHANGES = 'scriptmonitor_alert_new_code_change_detections';
const both = () => [policy(MALICIOUS), policy(CHANGES)];

testRule(rule, {
  valid: [
    { name: 'both alerts sent by enabled policies for every zone', snapshot: { accounts, zones: [zone('shop.example', true)], notificationPolicies: { [ACCOUNT]: both() } } },
    {
      name: 'policies limited to the zones that have client-side security on',
      snapshot: {
        accounts,
        zones: [zone('shop.example', true), zone('blog.example', false)],
        notificationPolicies: { [ACCOUNT]: [policy(MALICIOUS, { filters: { zones: [zoneIdOf('shop.example')] } }), policy(CHANGES, { filters: { zones: [zoneIdOf('shop.example')] } })] },
      },
    },
    // Not applicable: with client-side security off everywhere there is nothing to alert on (client-side-security-off reports those zones).
    { name: 'no zone with client-side security on: no policy needed', snapshot: { accounts, zones: [zone('shop.example', false)], notificationPolicies: { [ACCOUNT]: [] } } },
    { name: 'no zone on, the policies not read: not applicable all the same', snapshot: { accounts, zones: [zone('shop.example', false)] } },
    {
      // The option narrows what is required, e.g. for a plan without the malicious script detection.
      name: 'alertTypes narrowed to the new resources alert',
      options: { alertTypes: ['scriptmonitor_alert_new_resources'] },
      snapshot: { accounts, zones: [zone('shop.example', true)], notificationPolicies: { [ACCOUNT]: [policy('scriptmonitor_alert_new_resources')] } },
    },
  ],
  invalid: [
    {
      name: 'no policy at all: one finding for the account, both alerts named',
      snapshot: { accounts, zones: [zone('shop.example', true), zone('store.example', true)], notificationPolicies: { [ACCOUNT]: [] } },
      findings: [{ messageId: 'missing', severity: 'medium', resourceType: 'account', resourceId: ACCOUNT, resourceName: 'Example Org', data: { count: 2, zones: 'shop.example, store.example' }, message: [MALICIOUS, CHANGES] }],
    },
    {
      name: 'the code change policy is disabled',
      snapshot: { accounts, zones: [zone('shop.example', true)], notificationPolicies: { [ACCOUNT]: [policy(MALICIOUS), policy(CHANGES, { enabled: false })] } },
      findings: [{ messageId: 'missing', data: { alerts: `New Code Change Detection (${CHANGES})` } }],
    },
    {
      name: 'policies for other alerts do not count',
      snapshot: { accounts, zones: [zone('shop.example', true)], notificationPolicies: { [ACCOUNT]: [policy('universal_ssl_event_type'), policy('scriptmonitor_alert_new_resources')] } },
      findings: [{ messageId: 'missing', message: [MALICIOUS, CHANGES] }],
    },
    {
      // vendor API reference: filters.zones limits a policy to the zones named.
      name: 'policies limited to another zone leave this one uncovered',
      snapshot: {
        accounts,
        zones: [zone('shop.example', true), zone('store.example', true)],
        notificationPolicies: { [ACCOUNT]: [policy(MALICIOUS, { filters: { zones: [zoneIdOf('shop.example')] } }), policy(CHANGES)] },
      },
      findings: [{ messageId: 'missing', data: { count: 1, zones: 'store.example', alerts: `New Malicious Script (${MALICIOUS})` } }],
    },
    {
      name: 'each account judged on its own zones and policies',
      snapshot: {
        accounts,
        zones: [zone('shop.example', true), zone('other.example', true, OTHER)],
        notificationPolicies: { [ACCOUNT]: both(), [OTHER]: [] },
      },
      findings: [{ messageId: 'missing', resourceId: OTHER, data: { zones: 'other.example' } }],
    },
    // A read the token may not make (Notifications Read) says unknown, never pass or fail.
    { name: 'unknown when the policies were refused', snapshot: { accounts, zones: [zone('shop.example', true)], notificationPolicies: { [ACCOUNT]: 'denied' } }, findings: [{ status: 'unknown', resourceId: ACCOUNT, message: 'notification_policies' }] },
    { name: 'unknown when the policies were not read', snapshot: { accounts, zones: [zone('shop.example', true)] }, findings: [{ status: 'unknown', resourceId: ACCOUNT }] },
    {
      name: 'unknown when no zone is known on and one was not read',
      snapshot: { accounts, zones: [zone('shop.example', false), { ...zone('store.example', null), unread: { page_shield: 'denied' as const } }], notificationPolicies: { [ACCOUNT]: [] } },
      findings: [{ status: 'unknown', message: 'store.example' }],
    },
  ],
});
