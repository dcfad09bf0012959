import type { Answer } from './envelope.js';
import type { RequestContext } from './context.js';

export type Handler = (ctx: RequestContext) => Answer | Promise<Answer>;

export interface Route {
  method: string;
  /** Path under /client/v4 with `{name}` parameters, e.g. `/zones/{zone_id}/filters`. */
  template: string;
  handler: Handler;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string>; key: string }
  | { kind: 'method-not-allowed'; template: string; key: string; allowed: string[] }
  | { kind: 'none'; key: string };

interface Compiled {
  route: Route;
  segments: string[];
}

/** Matches paths segment by segment; literal segments win over parameters. */
export class Router {
  private readonly compiled: Compiled[] = [];

  add(routes: Route[]): this {
    for (const route of routes) this.compiled.push({ route, segments: route.template.split('/').filter(Boolean) });
    // Literal segments first, so /filters/{id} never shadows a more specific literal route.
    this.compiled.sort((a, b) => specificity(b.segments) - specificity(a.segments));
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    let template: string | undefined;
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method === method) {
        return { kind: 'found', route: c.route, params, key: `${method} ${c.route.template}` };
      }
      template ??= c.route.template;
      allowed.push(c.route.method);
    }
    if (template) return { kind: 'method-not-allowed', template, allowed, key: `${method} ${template}` };
    return { kind: 'none', key: `${method} (no route)` };
  }
}

function specificity(segments: string[]): number {
  return segments.reduce((n, s, i) => n + (s.startsWith('{') ? 0 : 2 ** (16 - i)), segments.length * 2 ** 20);
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const p = parts[i]!;
    if (s.startsWith('{')) {
      try {
        params[s.slice(1, -1)] = decodeURIComponent(p);
      } catch {
        return null;
      }
    } else if (s !== p) return null;
  }
  return params;
}
