import type { RuleOptions, ZoneContext } from '../rule.js';

/** Rules per zone by plan, firewall rules and custom rules alike (vendor docs: firewall rules and custom rules availability). */
export const PLAN_RULE_QUOTAS: Readonly<Record<string, number>> = Object.freeze({ free: 5, pro: 20, business: 100, enterprise: 1000 });

type QuotaOptions = RuleOptions & { quotas: Record<string, number>; warnAt: number };

/** Judges `count` rules against the plan's quota: high at it (the next rule, often an emergency block, is refused), medium from `warnAt`. */
export function judgeQuota<O extends QuotaOptions>(ctx: ZoneContext<O>, count: number, what: string, ruleId: string): void {
  const plan = ctx.zone.plan;
  const quota = plan === null ? undefined : ctx.options.quotas[plan];
  if (quota === undefined) return ctx.unknown(ctx.zone.resource, `no ${what} quota is known for the plan "${plan ?? 'unknown'}"; set options.quotas of ${ruleId}`);
  const data = { count, plan, quota, percent: quota === 0 ? 100 : Math.floor((count / quota) * 100) };
  if (count >= quota) return ctx.fail(ctx.zone.resource, 'atQuota', data, 'high');
  if (count >= Math.ceil(quota * ctx.options.warnAt)) return ctx.fail(ctx.zone.resource, 'nearQuota', data, 'medium');
  ctx.pass();
}
