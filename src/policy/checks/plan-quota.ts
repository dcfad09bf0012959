import type { RuleOptions, ZoneContext } from '../rule.js';

/**
 * Rules per zone by plan, the same for firewall rules and for the custom rules phase that replaced
 * them (vendor docs: firewall rules and custom rules availability: Free 5, Pro 20, Business 100,
 * Enterprise 1,000).
 */
export const PLAN_RULE_QUOTAS: Readonly<Record<string, number>> = Object.freeze({ free: 5, pro: 20, business: 100, enterprise: 1000 });

type QuotaOptions = RuleOptions & { quotas: Record<string, number>; warnAt: number };

/**
 * Judges `count` rules against the zone's plan quota: high at the quota (the next rule, often an
 * emergency block, is refused), medium from `warnAt` of it, unknown for a plan with no known quota.
 * `what` names the rules in the unknown reason, `ruleId` the rule whose options set the quotas.
 */
export function judgeQuota<O extends QuotaOptions>(ctx: ZoneContext<O>, count: number, what: string, ruleId: string): void {
  const plan = ctx.zone.plan;
  const quota = plan === null ? undefined : ctx.options.quotas[plan];
  if (quota === undefined) return ctx.unknown(ctx.zone.resource, `no ${what} quota is known for the plan "${plan ?? 'unknown'}"; set options.quotas of ${ruleId}`);
  const data = { count, plan, quota, percent: quota === 0 ? 100 : Math.floor((count / quota) * 100) };
  if (count >= quota) return ctx.fail(ctx.zone.resource, 'atQuota', data, 'high');
  if (count >= Math.ceil(quota * ctx.options.warnAt)) return ctx.fail(ctx.zone.resource, 'nearQuota', data, 'medium');
  ctx.pass();
}
