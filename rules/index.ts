import type { AnyRule } from '../src/policy/rule.js';
import firewallRuleQuota from './firewall-rule-quota.js';
import zoneNotActive from './zone-not-active.js';

/** The rule catalogue, in the order `zonewarden rules` lists it. One file per rule, named by its id. */
export const RULES: readonly AnyRule[] = [firewallRuleQuota, zoneNotActive];
