import { checkExpression } from '../expression.js';
import { queryBool, queryList } from '../http/context.js';
import { CODES, type ErrorItem } from '../http/envelope.js';
import { PLAN_RANK, type Filter, type Zone } from '../state.js';

/**
 * Validation shared by the filters interface and the firewall rules. Errors are collected, not
 * thrown, because both endpoints reject a whole batch with every problem.
 */

const MAX_DESCRIPTION = 500;
const MAX_REF = 50;

export interface FilterInput {
  expression: string;
  paused: boolean;
  description: string;
  ref?: string;
  usesRegex: boolean;
  fields: string[];
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function validationError(pointer: string, message: string): ErrorItem {
  return { code: CODES.validation, message, source: { pointer } };
}

export function notFoundError(what: string, id: string, pointer: string): ErrorItem {
  return { code: CODES.notFound, message: `${what} not found: ${id.slice(0, 64)}`, source: { pointer } };
}

/** Notes a problem of a batch's item, refused: null. */
export function refuse(errors: ErrorItem[], problem: ErrorItem): null {
  errors.push(problem);
  return null;
}

/** The fields filters and firewall rules check alike. */
export function checkPausedAndDescription(paused: unknown, description: unknown, pointer: string, errors: ErrorItem[]): void {
  if (paused !== undefined && typeof paused !== 'boolean') errors.push(validationError(`${pointer}/paused`, 'paused must be a boolean'));
  if (description !== undefined && (typeof description !== 'string' || [...description].length > MAX_DESCRIPTION)) {
    errors.push(validationError(`${pointer}/description`, `description must be a string of at most ${MAX_DESCRIPTION} characters`));
  }
}

/** The list filters of both collections: `id`, `paused`, and `description` (a part of it, in any case). */
export function listFilter(query: URLSearchParams): (item: { id: string; paused: boolean; description: string }) => boolean {
  const ids = queryList(query, 'id');
  const paused = queryBool(query, 'paused');
  const description = query.get('description')?.toLowerCase() ?? null;
  return (item) =>
    (!ids.length || ids.includes(item.id)) &&
    (paused === undefined || item.paused === paused) &&
    (description === null || item.description.toLowerCase().includes(description));
}

export function readFilterInput(raw: unknown, pointer: string, errors: ErrorItem[]): FilterInput | null {
  if (!isObject(raw)) return refuse(errors, validationError(pointer, 'filter must be an object'));
  const before = errors.length;
  const { expression, paused, description, ref } = raw;
  if (typeof expression !== 'string') errors.push(validationError(`${pointer}/expression`, 'expression is required and must be a string'));
  checkPausedAndDescription(paused, description, pointer, errors);
  if (ref !== undefined && (typeof ref !== 'string' || ref.length > MAX_REF)) {
    errors.push(validationError(`${pointer}/ref`, `ref must be a string of at most ${MAX_REF} characters`));
  }
  if (typeof expression !== 'string') return null;
  const check = checkExpression(expression);
  // Parse errors carry a message only, no code, as the real API answers them.
  if (!check.ok) errors.push({ message: check.message, source: { pointer: `${pointer}/expression` } });
  if (errors.length > before || !check.ok) return null;
  const input: FilterInput = {
    expression,
    paused: (paused as boolean | undefined) ?? false,
    description: (description as string | undefined) ?? '',
    usesRegex: check.usesRegex,
    fields: check.fields,
  };
  if (typeof ref === 'string') input.ref = ref;
  return input;
}

function findByExpression(zone: Zone, expression: string, exceptId?: string): Filter | undefined {
  for (const f of zone.filters.values()) if (f.expression === expression && f.id !== exceptId) return f;
  return undefined;
}

/** Refuses an expression another filter (`ids[i]` aside) or an earlier item of the batch has; meta.id names the filter. */
export function rejectDuplicates(
  zone: Zone,
  expressions: Array<string | undefined>,
  errors: ErrorItem[],
  pointer: (i: number) => string,
  ids: string[] = [],
): void {
  const seen = new Set<string>();
  expressions.forEach((expression, i) => {
    if (expression === undefined) return;
    const existing = findByExpression(zone, expression, ids[i]);
    if (existing || seen.has(expression)) errors.push(duplicateError(existing, pointer(i)));
    seen.add(expression);
  });
}

function duplicateError(existing: Filter | undefined, pointer: string): ErrorItem {
  const item: ErrorItem = { code: CODES.duplicateFilter, message: 'config duplicates an already existing config', source: { pointer } };
  if (existing) item.meta = { id: existing.id };
  return item;
}

/**
 * Features of the rules language that need a higher plan: regular expressions need Business,
 * the bot management score Enterprise. Returns why the zone is not entitled, or null.
 */
export function missingFeature(zone: Zone, input: Pick<FilterInput, 'usesRegex' | 'fields'>): string | null {
  if (input.usesRegex && PLAN_RANK[zone.plan] < PLAN_RANK.business) {
    return `the matches operator (regular expressions) needs a Business or Enterprise plan; ${zone.name} is on ${zone.plan}`;
  }
  if (input.fields.some((f) => f.startsWith('cf.bot_management.')) && zone.plan !== 'enterprise') {
    return `bot management fields need an Enterprise plan; ${zone.name} is on ${zone.plan}`;
  }
  return null;
}

export function toFilter(id: string, input: FilterInput): Filter {
  const f: Filter = { id, expression: input.expression, paused: input.paused, description: input.description };
  if (input.ref !== undefined) f.ref = input.ref;
  return f;
}
