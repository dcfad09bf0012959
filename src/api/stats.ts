/** Counters of the client's traffic by route template, for the scan summary and benchmarks. */
export interface RouteCounters {
  /** Attempts sent, retries included. */
  requests: number;
  retries: number;
  rateLimited: number;
  failures: number;
  bytes: number;
}

export interface ClientStats {
  total: RouteCounters;
  byRoute: Record<string, RouteCounters>;
  /** Time requests spent waiting for the rate budget. */
  pacedMs: number;
}

const zero = (): RouteCounters => ({ requests: 0, retries: 0, rateLimited: 0, failures: 0, bytes: 0 });

/** `/zones/023e.../dns_records` -> `/zones/{id}/dns_records`: ids (hex, UUIDs, numbers) folded. */
export function routeTemplate(path: string): string {
  return path
    .split('?')[0]!
    .split('/')
    .map((s) => (/^([0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i.test(s) ? '{id}' : s))
    .join('/');
}

export class StatsRecorder {
  private readonly routes = new Map<string, RouteCounters>();
  readonly total = zero();

  add(route: string, delta: Partial<RouteCounters>): void {
    let c = this.routes.get(route);
    if (!c) this.routes.set(route, (c = zero()));
    for (const [k, v] of Object.entries(delta) as Array<[keyof RouteCounters, number]>) {
      c[k] += v;
      this.total[k] += v;
    }
  }

  snapshot(pacedMs: number): ClientStats {
    return {
      total: { ...this.total },
      byRoute: Object.fromEntries([...this.routes].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, { ...v }])),
      pacedMs,
    };
  }
}
