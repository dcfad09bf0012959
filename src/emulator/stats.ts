/** Counters served at GET /__emulator/stats, for tests and benchmarks. */
export interface EmulatorStats {
  requests: { total: number; byRoute: Record<string, number> };
  rateLimited: number;
  faultsInjected: number;
  /** Requests left unanswered by --timeout-per-page. */
  hung: number;
}

export class StatsCounter {
  private byRoute = new Map<string, number>();
  total = 0;
  rateLimited = 0;
  faultsInjected = 0;
  hung = 0;

  count(routeKey: string): void {
    this.total++;
    this.byRoute.set(routeKey, (this.byRoute.get(routeKey) ?? 0) + 1);
  }

  snapshot(): EmulatorStats {
    return {
      requests: { total: this.total, byRoute: Object.fromEntries([...this.byRoute].sort(([a], [b]) => (a < b ? -1 : 1))) },
      rateLimited: this.rateLimited,
      faultsInjected: this.faultsInjected,
      hung: this.hung,
    };
  }

  reset(): void {
    this.byRoute = new Map();
    this.total = this.rateLimited = this.faultsInjected = this.hung = 0;
  }
}
