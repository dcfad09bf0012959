import { zoneWrite } from '../audit-log.js';
import { param, type RequestContext } from '../http/context.js';
import { CODES, fail } from '../http/envelope.js';
import type { Account, Ruleset, Zone } from '../state.js';

/** The zone named by the path, or the API's answer for an unknown one (400, code 1003). */
export function zoneFor(ctx: RequestContext): Zone {
  const zone = ctx.org.visibleZone(param(ctx, 'zone_id'));
  if (!zone) throw fail(400, CODES.invalidZone, 'Invalid or missing zone id.');
  return zone;
}

/** The account named by the path, when the user is a member of it; any other answers 404 (code 1005). */
export function accountFor(ctx: RequestContext): Account {
  const id = param(ctx, 'account_id');
  const account = ctx.org.accountsById.get(id);
  if (!account || !account.member) return notFound('account', id);
  return account;
}

/** A phase entry point, or the API's answer before its first write (404 code 10003). */
export function entrypointOrMissing(ruleset: Ruleset | null | undefined, phase: string): Ruleset {
  if (!ruleset) throw fail(404, CODES.rulesetNotFound, `could not find entrypoint ruleset in the ${phase} phase`);
  return ruleset;
}

export function notFound(what: string, id: string): never {
  throw fail(404, CODES.notFound, `${what} not found: ${id.slice(0, 64)}`);
}

/** The `<op>:` forms of text filters, on lower-cased values. */
const TEXT_OPERATORS = new Map<string, (value: string, arg: string) => boolean>([
  ['contains', (v, arg) => v.includes(arg)],
  ['starts_with', (v, arg) => v.startsWith(arg)],
  ['ends_with', (v, arg) => v.endsWith(arg)],
  ['equal', (v, arg) => v === arg],
  ['not_equal', (v, arg) => v !== arg],
]);

/** Text filters on lists: exact, or the `contains:`/`starts_with:`/`ends_with:` forms of the zones list. */
export function textMatcher(raw: string): (value: string) => boolean {
  const [op, ...rest] = raw.split(':');
  const test = TEXT_OPERATORS.get(op!);
  if (!test) return (v) => v.toLowerCase() === raw.toLowerCase();
  const arg = rest.join(':').toLowerCase();
  return (v) => test(v.toLowerCase(), arg);
}

/** A text filter's predicate, when the query gives one: `value` of an item matched as textMatcher says. */
export function textPredicate<T>(raw: string | null, value: (item: T) => string): Array<(item: T) => boolean> {
  if (!raw) return [];
  const matches = textMatcher(raw);
  return [(item) => matches(value(item))];
}

/** `match=all` (default) needs every filter to hold; `match=any` one of them. */
export function combine<T>(ctx: RequestContext, predicates: Array<(item: T) => boolean>): (item: T) => boolean {
  const match = ctx.query.get('match') ?? 'all';
  if (match !== 'all' && match !== 'any') throw fail(400, CODES.validation, 'match must be any or all');
  if (predicates.length === 0) return () => true;
  return match === 'all' ? (item) => predicates.every((p) => p(item)) : (item) => predicates.some((p) => p(item));
}

/** Logs a write of a zone's phase entry point: created by the first, updated by the next; `why` ends the description. */
export function recordEntrypointWrite(ctx: RequestContext, zone: Zone, ruleset: Ruleset, created: boolean, request: unknown, why = ''): void {
  const resource = { product: 'rulesets', type: 'ruleset', what: `Ruleset ${ruleset.phase} entry point` };
  ctx.record(zoneWrite(zone, created ? 'create' : 'update', resource, ruleset.id, request, ruleset, why));
}
