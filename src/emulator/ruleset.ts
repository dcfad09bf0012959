/**
 * A ruleset and its rules as the emulator holds them, in the field names of the API's answers
 * (spec: Rulesets). Apart from state.ts because the zone's security model (security.ts), which the
 * state holds, builds rulesets too.
 */

export interface RulesetRule {
  id: string;
  version: string;
  action: string;
  expression: string;
  description: string;
  ref: string;
  enabled: boolean;
  action_parameters?: Record<string, unknown>;
  /** Rate limiting rules (phase `http_ratelimit`): characteristics, period, requests_per_period, mitigation_timeout. */
  ratelimit?: Record<string, unknown>;
  last_updated: string;
}

export interface Ruleset {
  id: string;
  name: string;
  description: string;
  phase: string;
  kind: string;
  version: string;
  last_updated: string;
  rules: RulesetRule[];
}
