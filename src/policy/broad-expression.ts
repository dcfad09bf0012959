/**
 * Whether a rule expression matches (nearly) every request: `true`, or conditions on the host
 * name only (every path, method and client of the site). A skip rule with such an expression
 * switches protection off for a whole site rather than for one known client or path.
 */

const FIELD = /\b(?:[a-z][a-z0-9_]*\.)+[a-z0-9_]+(?:\[[^\]]*\])*/g;
const STRING = /"(?:[^"\\]|\\.)*"/g;
const HOST_FIELDS = new Set(['http.host', 'http.request.host']);

/** Whether an expression matches every request outright: `true`, or none at all. */
export function matchesEverything(expression: string | null): boolean {
  return expression === null || /^\(*\s*true\s*\)*$/.test(expression.trim());
}

export function isBroadExpression(expression: string | null): boolean {
  if (expression === null || matchesEverything(expression)) return true;
  const bare = expression.replace(STRING, '""').trim();
  const fields = bare.match(FIELD) ?? [];
  return fields.length > 0 && fields.every((f) => HOST_FIELDS.has(f));
}
