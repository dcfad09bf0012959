import { defineRule } from '../src/policy/rule.js';
import type { ZoneRow } from '../src/policy/snapshot-view.js';

/** The client-side security alerts (vendor API reference: Notification policies, `alert_type`), as the dashboard names them. */
const ALERTS: Readonly<Record<string, string>> = {
  scriptmonitor_alert_new_malicious_scripts: 'New Malicious Script',
  scriptmonitor_alert_new_code_change_detections: 'New Code Change Detection',
  scriptmonitor_alert_new_malicious_url: 'New Malicious URL',
  scriptmonitor_alert_new_malicious_hosts: 'New Malicious Domain',
  scriptmonitor_alert_new_resources: 'New Resources',
  scriptmonitor_alert_new_hosts: 'New Domain',
  scriptmonitor_alert_new_max_length_resource_url: 'New Resource Exceeds Max URL Length',
};

const listed = (names: string[]) => names.slice(0, 3).join(', ') + (names.length > 3 ? `, and ${names.length - 3} more` : '');

export default defineRule({
  meta: {
    id: 'client-side-script-alert-missing',
    title: 'An account using client-side security is told when a script turns malicious or changes',
    description:
      "Client-side security detects scripts the vendor considers malicious and changes to the scripts a page loads, but only shows them in the dashboard: nobody hears of a skimmer injected into a checkout page unless a notification policy sends the alert somewhere (e-mail, webhook, PagerDuty). PCI DSS 4.0 requirement 11.6.1 asks for exactly that: a mechanism that alerts personnel to unauthorised changes to payment pages. The rule judges each account with at least one zone whose client-side security is on (an account with it off everywhere has nothing to alert on: client-side-security-off reports those zones), and fails it once, naming the alerts in `alertTypes` that no enabled policy sends for those zones (a policy limited to some zones by `filters.zones` covers those only). The malicious script and code change detections come with Enterprise's add-on; an account without it can narrow `alertTypes` to the alerts its plan sends (e.g. new resources). Needs the notification policies (Notifications Read or Account Settings Read): without them, unknown.",
    severity: 'medium',
    category: 'zone',
    scope: 'organisation',
    resource: 'account',
    reads: ['page_shield', 'notification_policies'],
    messages: {
      missing: 'client-side security is on for {{count}} zone(s) of this account ({{zones}}), but no enabled notification policy sends {{alerts}} for them: a malicious or changed script is detected and nobody is told',
    },
    remediation:
      'Create a notification policy for each alert (dashboard: Notifications > Add, Page Shield; or `POST /accounts/{account_id}/alerting/v3/policies` with `{"alert_type": "scriptmonitor_alert_new_malicious_scripts", "enabled": true, "name": ..., "mechanisms": {"email": [{"id": "security@example.com"}]}}`, and likewise `scriptmonitor_alert_new_code_change_detections`), without a zone filter or naming every zone with client-side security on.',
    references: [
      'vendor docs: Page Shield alerts (New Malicious Script, New Code Change Detection, New Malicious Domain and URL, New Resources and Domain alerts)',
      'vendor API reference: Notification policies (GET /accounts/{account_id}/alerting/v3/policies: alert_type scriptmonitor_alert_new_malicious_scripts, scriptmonitor_alert_new_code_change_detections, ...; enabled; filters.zones; mechanisms)',
      'PCI DSS v4.0, requirement 11.6.1 (a change- and tamper-detection mechanism alerts personnel to unauthorized modification of payment pages)',
    ],
    optionHelp: {
      alertTypes: 'The notification alert types (alert_type) each account using client-side security must have an enabled policy for, covering its zones with client-side security on.',
    },
    optionChoices: { alertTypes: Object.keys(ALERTS) },
  },
  defaultOptions: { alertTypes: ['scriptmonitor_alert_new_malicious_scripts', 'scriptmonitor_alert_new_code_change_detections'] as readonly string[] },
  check(ctx) {
    const byAccount = new Map<string, ZoneRow[]>();
    for (const zone of ctx.snapshot.zones()) {
      if (zone.accountId === null) continue;
      const zones = byAccount.get(zone.accountId) ?? [];
      zones.push(zone);
      byAccount.set(zone.accountId, zones);
    }
    for (const [accountId, zones] of byAccount) {
      const resource = { type: 'account', id: accountId, name: ctx.snapshot.account(accountId)?.name ?? null };
      const on: ZoneRow[] = [];
      const unread: string[] = [];
      for (const zone of zones) {
        const read = ctx.snapshot.pageShieldOf(zone.id);
        if (!read.known) unread.push(`${zone.name} (${read.reason})`);
        else if (read.value?.enabled === true) on.push(zone);
      }
      if (on.length === 0) {
        if (unread.length) ctx.unknown(resource, `whether client-side security is on is not known for ${listed(unread)}`);
        // Not applicable: no zone of the account has anything to alert on.
        else ctx.pass(resource);
        continue;
      }
      const policies = ctx.snapshot.notificationPolicies(accountId);
      if (!policies.known) {
        ctx.unknown(resource, policies.reason);
        continue;
      }
      const uncovered = new Set<ZoneRow>();
      const missing: string[] = [];
      for (const type of ctx.options.alertTypes) {
        const sending = policies.items.filter((p) => p.alertType === type && p.enabled === true);
        // vendor API reference: a policy's `filters.zones` limits it to those zones; without it, every zone of the account.
        const left = on.filter((z) => !sending.some((p) => p.zones.length === 0 || p.zones.includes(z.id)));
        if (left.length === 0) continue;
        missing.push(`${ALERTS[type] ?? type} (${type})`);
        for (const z of left) uncovered.add(z);
      }
      if (missing.length === 0) {
        ctx.pass(resource);
        continue;
      }
      const names = [...uncovered].map((z) => z.name).sort();
      ctx.fail(resource, 'missing', { count: names.length, zones: listed(names), alerts: missing.join(' and '), alertTypes: ctx.options.alertTypes });
    }
  },
});
