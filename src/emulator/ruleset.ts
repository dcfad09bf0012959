/** A ruleset in the API's field names (spec: Rulesets); apart from state.ts, as security.ts builds them too. */

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
