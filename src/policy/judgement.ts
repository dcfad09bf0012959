import { createHash } from 'node:crypto';
import { PACKAGE } from '../common/package-info.js';
import { runsAnywhere, type ActiveRule } from './registry.js';
import { ruleSourceOf } from './rule-source.js';
import { overridesOf } from './zone-overrides.js';
import type { Waiver } from './waivers.js';

/**
 * What an audit was judged with besides the scan: tool version, rules, waivers. An audit with
 * another judgement is a trial, stored beside the official one rather than over it (issue 32).
 */
export interface Judgement {
  tool: string;
  /** sha256 of every rule's definition and settings. */
  rules: string;
  /** sha256 of the waivers and waiverMaxMatches. */
  waivers: string;
}

const sha256 = (parts: Iterable<string>): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

/** A waiver as the file gives it (a Waiver, or the state an audit reports of it). */
export type WaiverDefinition = Pick<Waiver, 'index' | 'rule' | 'zone' | 'resource' | 'reason' | 'owner' | 'expires' | 'acknowledge'>;

/** The waivers count as the file has them: `overLimit` follows from the file, the data and `maxMatches`. */
export function judgementOf(rules: readonly ActiveRule[], waivers: readonly WaiverDefinition[], maxMatches: number | null): Judgement {
  const definitions = [...waivers]
    .sort((a, b) => a.index - b.index)
    .map((w) => ({ index: w.index, rule: w.rule, zone: w.zone, resource: w.resource, reason: w.reason, owner: w.owner, expires: w.expires, acknowledge: w.acknowledge ?? [] }));
  return { tool: PACKAGE.version, rules: rulesJudgement(rules), waivers: sha256([JSON.stringify({ maxMatches, waivers: definitions })]) };
}

/** The rules part of a judgement: what the passes depend on (waivers turn failures into waived ones, never passes). */
export function rulesJudgement(rules: readonly ActiveRule[]): string {
  return sha256(rules.filter(runsAnywhere).map(ruleIdentity));
}

/** A rule's definition, settings and (custom rules) its directory's files (rule-source.ts), as text. */
export function ruleIdentity(r: ActiveRule): string {
  const { rule } = r;
  const source = ruleSourceOf(rule);
  return JSON.stringify({
    meta: rule.meta,
    defaults: rule.defaultOptions,
    code: String(rule.check),
    ...(source === undefined ? {} : { source }),
    enabled: r.enabled,
    severity: r.severity,
    options: r.options,
    ...overridesOf(r),
  });
}

export function sameJudgement(a: Judgement, b: Judgement): boolean {
  return a.tool === b.tool && a.rules === b.rules && a.waivers === b.waivers;
}

/** The stored form (audits.judgement); null for audits stored before schema 10, or unreadable. */
export function parseJudgement(text: string | null): Judgement | null {
  if (!text) return null;
  try {
    const j = JSON.parse(text) as Partial<Judgement>;
    return typeof j.tool === 'string' && typeof j.rules === 'string' && typeof j.waivers === 'string' ? { tool: j.tool, rules: j.rules, waivers: j.waivers } : null;
  } catch {
    return null;
  }
}

/** What differs, for the note on a trial: "waivers differ", "rules or their settings differ and zonewarden 1.2 judged it". */
export function differences(official: Judgement | null, trial: Judgement): string {
  if (official === null) return 'rules, settings or waivers may differ (it was stored by an earlier zonewarden)';
  const parts: string[] = [];
  if (official.waivers !== trial.waivers) parts.push('waivers differ');
  if (official.rules !== trial.rules) parts.push('rules or their settings differ');
  if (official.tool !== trial.tool) parts.push(`zonewarden ${official.tool} judged it, this is ${trial.tool}`);
  return parts.join(', ') || 'the same judgement';
}
