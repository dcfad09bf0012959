import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { createRequire } from 'node:module';
import { ZonewardenError } from '../common/errors.js';
import { didYouMean } from '../common/did-you-mean.js';
import type { Finding } from './findings.js';
import { globToRegExp, isGlob } from '../common/glob.js';

/** The YAML parser, loaded when a YAML waivers file is read: most audits have none, and loading it costs 40 ms of each. */
const parseYaml = (text: string, options: { prettyErrors: boolean; uniqueKeys: boolean }): unknown =>
  (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text, options);

/**
 * Waivers: accepted risks with a reason, an owner and an end date (against the scan's time), turning
 * matching failures into `waived`. Issue 32: covering every rule or zone, waiving critical failures
 * or more than `waiverMaxMatches` needs `acknowledge`; ending past `waiverMaxDays` is refused.
 */

export class WaiverError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_WAIVERS', message);
  }
}

export interface Waiver {
  /** 1-based position in the file. */
  index: number;
  rule: string;
  zone: string | null;
  resource: string | null;
  reason: string;
  owner: string;
  /** As written in the file. */
  expires: string;
  /** The first instant the waiver no longer applies. */
  expiresAt: Date;
  /** What the waiver covers on purpose, as written; absent when it acknowledges nothing. */
  acknowledge?: Acknowledgement[];
  /** Set by `auditWithinLimits` on a waiver over this match limit without `many`: it waives nothing. */
  overLimit?: number;
}

/** What a waiver may acknowledge: every rule, every zone, critical failures, more than `waiverMaxMatches` matches. */
export const ACKNOWLEDGEMENTS = ['all-rules', 'all-zones', 'critical', 'many'] as const;
export type Acknowledgement = (typeof ACKNOWLEDGEMENTS)[number];

export const DEFAULT_WAIVER_MAX_DAYS = 90;

export interface WaiverLimits {
  /** Latest end a waiver may have: this many days after today (UTC), through that day. */
  maxDays?: number;
  /** "Today" for maxDays: the wall clock unless given. */
  now?: Date;
}

/** Waivers ending within this many days are listed as expiring. */
export const EXPIRING_DAYS = 14;

const KEYS = ['rule', 'zone', 'resource', 'reason', 'owner', 'expires', 'acknowledge'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A date alone means "through that day" (UTC); a date-time is exact. */
function parseExpiry(text: string): Date | null {
  if (DATE.test(text)) {
    const start = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== text ? null : new Date(start.getTime() + 86_400_000);
  }
  if (DATE_TIME.test(text)) {
    const d = new Date(text);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

export function loadWaivers(path: string, ruleIds: readonly string[], limits: WaiverLimits = {}): Waiver[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new WaiverError(`waivers file ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseWaivers(text, path, ruleIds, extname(path).toLowerCase() === '.json' ? 'json' : 'yaml', limits);
}

export function parseWaivers(text: string, source: string, ruleIds: readonly string[], format: 'json' | 'yaml', limits: WaiverLimits = {}): Waiver[] {
  let doc: unknown;
  try {
    doc = format === 'json' ? JSON.parse(text) : parseYaml(text, { prettyErrors: false, uniqueKeys: true });
  } catch (err) {
    const first = ((err as Error).message ?? String(err)).split('\n')[0];
    throw new WaiverError(`waivers file ${source}: not valid ${format === 'json' ? 'JSON' : 'YAML'} (${first})`);
  }
  if (doc === null || doc === undefined) return [];
  const list = Array.isArray(doc) ? doc : typeof doc === 'object' && Array.isArray((doc as Record<string, unknown>)['waivers']) ? (doc as { waivers: unknown[] }).waivers : null;
  if (!list) throw new WaiverError(`waivers file ${source}: expected a list of waivers, or an object with a "waivers" list`);
  const latest = latestEnd(limits);
  return list.map((entry, i) => readWaiver(entry, i + 1, source, ruleIds, latest));
}

/** The latest end a waiver may have: the end of the UTC day `maxDays` days after today. */
function latestEnd(limits: WaiverLimits): { at: Date; days: number } {
  const days = limits.maxDays ?? DEFAULT_WAIVER_MAX_DAYS;
  const now = limits.now ?? new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { at: new Date(today + (days + 1) * 86_400_000), days };
}

/** A glob with no letter or digit in it ("*", "*.*", "?*"...) stands for any name. */
const anyName = (glob: string) => !/[\p{L}\p{N}]/u.test(glob);

function readAcknowledge(value: unknown, where: string): Acknowledgement[] | undefined {
  if (value === undefined || value === null) return undefined;
  const words = ACKNOWLEDGEMENTS.join(', ');
  if (!Array.isArray(value) || value.length === 0) throw new WaiverError(`${where}: "acknowledge" must be a list of ${words}, e.g. acknowledge: [all-zones]`);
  for (const word of value) {
    if (!ACKNOWLEDGEMENTS.includes(word as Acknowledgement)) throw new WaiverError(`${where}: "acknowledge" takes ${words}, got ${JSON.stringify(word)}`);
  }
  return [...new Set(value as Acknowledgement[])];
}

function readWaiver(entry: unknown, index: number, source: string, ruleIds: readonly string[], latest: { at: Date; days: number }): Waiver {
  const where = `waivers file ${source}: waiver ${index}`;
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new WaiverError(`${where}: expected an object with ${KEYS.join(', ')}`);
  const w = entry as Record<string, unknown>;
  for (const key of Object.keys(w)) {
    if (!KEYS.includes(key)) throw new WaiverError(`${where}: unknown key "${key}"; waivers have ${KEYS.join(', ')}${didYouMean(key, KEYS)}`);
  }
  const text = (key: string, required: boolean): string | null => {
    const v = w[key];
    if (v === undefined || v === null) {
      if (required) throw new WaiverError(`${where}: "${key}" is required`);
      return null;
    }
    if (typeof v !== 'string' || v.trim() === '') throw new WaiverError(`${where}: "${key}" must be a non-empty string`);
    return v.trim();
  };
  const rule = text('rule', true) as string;
  const zone = text('zone', false);
  const resource = text('resource', false);
  if (zone === null && resource === null) throw new WaiverError(`${where}: give "zone" or "resource" (a name, an id or a glob), so the waiver cannot cover everything by accident`);
  const reason = text('reason', true) as string;
  const owner = text('owner', true) as string;
  const expires = text('expires', true) as string;
  const expiresAt = parseExpiry(expires);
  if (!expiresAt) throw new WaiverError(`${where}: "expires" must be a date like 2027-01-31 or a time like 2027-01-31T12:00:00Z, got ${JSON.stringify(expires)}`);
  const ruleRe = globToRegExp(rule);
  if (!ruleIds.some((id) => ruleRe.test(id))) throw new WaiverError(`${where}: rule "${rule}" matches no rule; zonewarden rules lists them${isGlob(rule) ? '' : didYouMean(rule, ruleIds)}`);
  const acknowledge = readAcknowledge(w['acknowledge'], where);
  const needs = (a: Acknowledgement, what: string) => {
    if (!acknowledge?.includes(a)) throw new WaiverError(`${where}: ${what}; if that is meant, add "acknowledge: [${a}]" to the waiver`);
  };
  // An exact rule id never covers rules added later; a glob that matches every rule id does.
  if (anyName(rule) || (isGlob(rule) && ruleIds.every((id) => ruleRe.test(id)))) needs('all-rules', `rule "${rule}" matches every rule`);
  if (zone !== null && anyName(zone)) needs('all-zones', `zone "${zone}" matches every zone`);
  if (zone === null && resource !== null && anyName(resource)) needs('all-zones', `resource "${resource}" with no zone matches every resource of every zone`);
  if (expiresAt.getTime() > latest.at.getTime()) {
    const last = new Date(latest.at.getTime() - 86_400_000).toISOString().slice(0, 10);
    throw new WaiverError(`${where}: expires ${expires}, later than waiverMaxDays (${latest.days}) days from today; end it by ${last}, renewing it then if still needed`);
  }
  return { index, rule, zone, resource, reason, owner, expires, expiresAt, ...(acknowledge ? { acknowledge } : {}) };
}

/** A waiver as the audit reports it (its end as written, without the parsed instant). */
export interface WaiverState extends Omit<Waiver, 'expiresAt'> {
  /** Whole days until it ends (negative once ended). */
  daysLeft: number;
  /** Failures it waived (or, once expired, would have waived). */
  matched: number;
  /** Critical failures it matched but left failing, as it does not acknowledge `critical`. */
  heldCritical: number;
}

export interface WaiverReport {
  active: WaiverState[];
  /** Active, ending within EXPIRING_DAYS days. */
  expiring: WaiverState[];
  /** Ended: no longer applied. */
  expired: WaiverState[];
  /** Active but matching no failure: fixed, or a typo. */
  unused: WaiverState[];
  /** Active but leaving matched failures failing for want of `many` or `critical`; absent in older audits. */
  held?: WaiverState[];
}

function matcher(w: Waiver): (f: Finding) => boolean {
  const rule = globToRegExp(w.rule);
  const zone = w.zone === null ? null : globToRegExp(w.zone);
  const resource = w.resource === null ? null : globToRegExp(w.resource);
  return (f) =>
    rule.test(f.rule) &&
    (zone === null || (f.zone !== null && (zone.test(f.zone.id) || (f.zone.name !== null && zone.test(f.zone.name))))) &&
    (resource === null || resource.test(f.resource.id) || (f.resource.name !== null && resource.test(f.resource.name)));
}

/** The waivers of an audit, applied finding by finding while the report of their matches builds up. */
export class WaiverSet {
  private readonly compiled;

  constructor(
    waivers: readonly Waiver[],
    private readonly now: Date,
  ) {
    this.compiled = waivers.map((w) => ({
      w,
      match: matcher(w),
      active: w.expiresAt.getTime() > now.getTime(),
      critical: w.acknowledge?.includes('critical') === true,
      matched: 0,
      heldCritical: 0,
    }));
  }

  /**
   * A failure matched by the first active waiver that may waive it becomes `waived`. With
   * `tentative`, matches are noted there (i, or -(i + 1) for a critical failure held back) for
   * `confirm` to count once the finding stands.
   */
  apply(f: Finding, tentative?: number[]): Finding {
    if (f.status !== 'fail' || this.compiled.length === 0) return f;
    let applied: Finding | null = null;
    for (const [i, c] of this.compiled.entries()) {
      if (!c.match(f)) continue;
      const heldCritical = c.active && c.w.overLimit === undefined && f.severity === 'critical' && !c.critical;
      if (tentative) {
        tentative.push(i);
        if (heldCritical) tentative.push(-(i + 1));
      } else {
        c.matched++;
        if (heldCritical) c.heldCritical++;
      }
      if (c.active && c.w.overLimit === undefined && !heldCritical && !applied) {
        applied = { ...f, status: 'waived', waiver: { reason: c.w.reason, owner: c.w.owner, expires: c.w.expires, index: c.w.index } };
      }
    }
    return applied ?? f;
  }

  /** Counts the matches `apply` noted as tentative. */
  confirm(tentative: readonly number[]): void {
    for (const i of tentative) {
      if (i >= 0) this.compiled[i]!.matched++;
      else this.compiled[-i - 1]!.heldCritical++;
    }
  }

  report(): WaiverReport {
    const now = this.now.getTime();
    const state = ({ w: { expiresAt, ...waiver }, matched, heldCritical }: (typeof this.compiled)[number]): WaiverState => ({
      ...waiver,
      daysLeft: Math.floor((expiresAt.getTime() - now) / 86_400_000),
      matched,
      heldCritical,
    });
    const active = this.compiled.filter((c) => c.active);
    return {
      active: active.map(state),
      expiring: active.filter((c) => c.w.expiresAt.getTime() - now <= EXPIRING_DAYS * 86_400_000).map(state),
      expired: this.compiled.filter((c) => !c.active).map(state),
      unused: active.filter((c) => c.matched === 0).map(state),
      held: active.filter((c) => (c.w.overLimit !== undefined && c.matched > 0) || c.heldCritical > 0).map(state),
    };
  }
}

export function applyWaivers(findings: readonly Finding[], waivers: readonly Waiver[], now: Date): { findings: Finding[]; report: WaiverReport } {
  const set = new WaiverSet(waivers, now);
  const out = findings.map((f) => set.apply(f));
  return { findings: out, report: set.report() };
}

/**
 * Runs `audit`; when a waiver without `many` matched more than `maxMatches` failures, runs it again
 * with that waiver waiving nothing: findings stream into the database, so the limit is known only after.
 */
export function auditWithinLimits<T extends { waivers: WaiverReport }>(waivers: readonly Waiver[], maxMatches: number, audit: (waivers: readonly Waiver[]) => T): T {
  const first = audit(waivers);
  const over = new Set(first.waivers.active.filter((s) => s.matched > maxMatches && !s.acknowledge?.includes('many')).map((s) => s.index));
  if (over.size === 0) return first;
  return audit(waivers.map((w) => (over.has(w.index) ? { ...w, overLimit: maxMatches } : w)));
}

/** One line for each waiver that left failures failing for want of an acknowledgement. */
export function heldWaiverWarnings(report: WaiverReport, source: string): string[] {
  return (report.held ?? []).flatMap((s) => {
    const where = `waivers file ${source}: waiver ${s.index} (rule ${s.rule}${s.zone === null ? '' : `, zone ${s.zone}`}${s.resource === null ? '' : `, resource ${s.resource}`})`;
    if (s.overLimit !== undefined) {
      return [`${where} matched ${s.matched} failures, more than waiverMaxMatches (${s.overLimit}): none waived; add "acknowledge: [many]" to the waiver to waive them`];
    }
    return [`${where} matched ${s.heldCritical} critical failure(s): left failing; add "acknowledge: [critical]" to the waiver to waive them`];
  });
}
