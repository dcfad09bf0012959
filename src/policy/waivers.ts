import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ZonewardenError } from '../common/errors.js';
import type { Finding } from './findings.js';
import { globToRegExp } from './glob.js';

/**
 * Waivers: accepted risks, each with a reason, an owner and an end date. A waiver turns matching
 * failures into `waived`; once past its date it stops applying and is itself reported, so that a
 * waiver cannot silently become permanent. Dates are compared with the scan's time, so auditing a
 * scan again gives the same result.
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
}

/** Waivers ending within this many days are listed as expiring. */
export const EXPIRING_DAYS = 14;

const KEYS = ['rule', 'zone', 'resource', 'reason', 'owner', 'expires'];
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

export function loadWaivers(path: string, ruleIds: readonly string[]): Waiver[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new WaiverError(`waivers file ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseWaivers(text, path, ruleIds, extname(path).toLowerCase() === '.json' ? 'json' : 'yaml');
}

export function parseWaivers(text: string, source: string, ruleIds: readonly string[], format: 'json' | 'yaml'): Waiver[] {
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
  return list.map((entry, i) => readWaiver(entry, i + 1, source, ruleIds));
}

function readWaiver(entry: unknown, index: number, source: string, ruleIds: readonly string[]): Waiver {
  const where = `waivers file ${source}: waiver ${index}`;
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new WaiverError(`${where}: expected an object with ${KEYS.join(', ')}`);
  const w = entry as Record<string, unknown>;
  for (const key of Object.keys(w)) {
    if (!KEYS.includes(key)) throw new WaiverError(`${where}: unknown key "${key}"; waivers have ${KEYS.join(', ')}`);
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
  if (!ruleIds.some((id) => ruleRe.test(id))) throw new WaiverError(`${where}: rule "${rule}" matches no rule; zonewarden rules lists them`);
  return { index, rule, zone, resource, reason, owner, expires, expiresAt };
}

/** A waiver as the audit reports it (its end as written, without the parsed instant). */
export interface WaiverState extends Omit<Waiver, 'expiresAt'> {
  /** Whole days until it ends (negative once ended). */
  daysLeft: number;
  /** Failures it waived (or, once expired, would have waived). */
  matched: number;
}

export interface WaiverReport {
  active: WaiverState[];
  /** Active, ending within EXPIRING_DAYS days. */
  expiring: WaiverState[];
  /** Ended: no longer applied. */
  expired: WaiverState[];
  /** Active but matching no failure: fixed, or a typo. */
  unused: WaiverState[];
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

/**
 * The waivers of an audit, applied finding by finding (so findings can stream past) while the
 * report of what each waiver matched builds up.
 */
export class WaiverSet {
  private readonly compiled;

  constructor(
    waivers: readonly Waiver[],
    private readonly now: Date,
  ) {
    this.compiled = waivers.map((w) => ({ w, match: matcher(w), active: w.expiresAt.getTime() > now.getTime(), matched: 0 }));
  }

  /**
   * A failure matched by an active waiver (the first in the file) becomes `waived`. With
   * `tentative`, the waivers it matched are noted there rather than counted, for `confirm` to
   * count once the finding stands (a rule that throws leaves no finding, and no match).
   */
  apply(f: Finding, tentative?: number[]): Finding {
    if (f.status !== 'fail' || this.compiled.length === 0) return f;
    let applied: Finding | null = null;
    for (const [i, c] of this.compiled.entries()) {
      if (!c.match(f)) continue;
      if (tentative) tentative.push(i);
      else c.matched++;
      if (c.active && !applied) applied = { ...f, status: 'waived', waiver: { reason: c.w.reason, owner: c.w.owner, expires: c.w.expires, index: c.w.index } };
    }
    return applied ?? f;
  }

  /** Counts the matches `apply` noted as tentative. */
  confirm(tentative: readonly number[]): void {
    for (const i of tentative) this.compiled[i]!.matched++;
  }

  report(): WaiverReport {
    const now = this.now.getTime();
    const state = ({ w: { expiresAt, ...waiver }, matched }: (typeof this.compiled)[number]): WaiverState => ({
      ...waiver,
      daysLeft: Math.floor((expiresAt.getTime() - now) / 86_400_000),
      matched,
    });
    const active = this.compiled.filter((c) => c.active);
    return {
      active: active.map(state),
      expiring: active.filter((c) => c.w.expiresAt.getTime() - now <= EXPIRING_DAYS * 86_400_000).map(state),
      expired: this.compiled.filter((c) => !c.active).map(state),
      unused: active.filter((c) => c.matched === 0).map(state),
    };
  }
}

export function applyWaivers(findings: readonly Finding[], waivers: readonly Waiver[], now: Date): { findings: Finding[]; report: WaiverReport } {
  const set = new WaiverSet(waivers, now);
  const out = findings.map((f) => set.apply(f));
  return { findings: out, report: set.report() };
}
