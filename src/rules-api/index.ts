/** `zonewarden/rules`: the rule contract for rules of your own, loaded with `--rules-dir` (docs/custom-rules.md). */
export { CATEGORIES, defineRule, SEVERITIES } from '../policy/rule.js';
export { FRAMEWORKS } from '../policy/compliance.js';
export type { Control, Framework } from '../policy/compliance.js';
export type {
  AnyRule,
  Category,
  ContextFor,
  OptionValue,
  OrganisationContext,
  ResourceRef,
  RuleDefinition,
  RuleMeta,
  RuleOptions,
  RuleScope,
  Severity,
  ZoneContext,
} from '../policy/rule.js';
export type { SnapshotView } from '../policy/snapshot-view.js';
export type { ZoneView } from '../policy/zone-view.js';
export { normaliseHostname } from '../cloudflare/dns/hostnames.js';
