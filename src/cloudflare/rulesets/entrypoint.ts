/** A ruleset entry point (`GET /zones/{id}/rulesets/phases/{phase}/entrypoint`, or the account's), parsed defensively. */

import { arr, bool, obj, parseJson, str } from '../fields.js';

export interface EntrypointRule {
  id: string;
  action: string | null;
  expression: string | null;
  description: string;
  /** The API's `enabled` defaults to true when absent. */
  enabled: boolean;
  parameters: Record<string, unknown>;
  /** The rule's `ref` (kept across updates; may name the rule it was made from); null when absent. */
  ref?: string | null;
}

export interface Entrypoint {
  id: string | null;
  phase: string | null;
  rules: EntrypointRule[];
}

export function parseEntrypoint(raw: string): Entrypoint {
  const e = parseJson(raw);
  return {
    id: str(e['id']),
    phase: str(e['phase']),
    rules: arr(e['rules']).map((r, i) => {
      const rule = obj(r);
      return {
        id: str(rule['id']) ?? `#${i + 1}`,
        action: str(rule['action']),
        expression: str(rule['expression']),
        description: str(rule['description']) ?? '',
        enabled: bool(rule['enabled']) ?? true,
        parameters: obj(rule['action_parameters']),
        ref: str(rule['ref']),
      };
    }),
  };
}
