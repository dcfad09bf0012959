/** The account's notification policies, parsed defensively: a missing or oddly typed field becomes null (or an empty list). */

import { bool, obj, parseJson, str, strings } from '../fields.js';

/** One of `GET /accounts/{id}/alerting/v3/policies` (vendor API reference: Notification policies). */
export interface NotificationPolicy {
  id: string;
  name: string | null;
  alertType: string | null;
  enabled: boolean | null;
  /** `filters.zones`: the zones the policy is limited to; empty: every zone of the account. */
  zones: string[];
}

export function parseNotificationPolicy(id: string, raw: string): NotificationPolicy {
  const p = parseJson(raw);
  return { id, name: str(p['name']), alertType: str(p['alert_type']), enabled: bool(p['enabled']), zones: strings(obj(p['filters'])['zones']) };
}
