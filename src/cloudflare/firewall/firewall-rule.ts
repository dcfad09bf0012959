/** The previous firewall rules and filters (`GET /zones/{id}/firewall/rules`, `.../filters`), parsed defensively. */

import { bool, obj, parseJson, str, strings } from '../fields.js';

export interface FirewallRuleDetail {
  description: string | null;
  /** The expression the rule's inline filter object carries, when it does. */
  inlineExpression: string | null;
  /** The `paused` of the filter object the API embeds in the rule; null when it carries none. */
  inlineFilterPaused: boolean | null;
  /** The rule's `ref` (its own reference, free text); null when absent or empty. */
  ref: string | null;
  products: string[];
}

export function parseFirewallRuleDetail(raw: string): FirewallRuleDetail {
  const r = parseJson(raw);
  const filter = obj(r['filter']);
  return { description: str(r['description']), inlineExpression: str(filter['expression']), inlineFilterPaused: bool(filter['paused']), ref: str(r['ref']) || null, products: strings(r['products']) };
}

/** A filter's description: null when absent or blank, so callers can fall back to its id. */
export function parseFilterDescription(raw: string): string | null {
  const d = parseJson(raw)['description'];
  return typeof d === 'string' && d.trim() !== '' ? d : null;
}
