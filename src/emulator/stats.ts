/** Counters served at GET /__emulator/stats, for tests and benchmarks. */
export interface EmulatorStats {
  requests: { total: number; byRoute: Record<string, number> };
  rateLimited: number;
  /**
   * Requests and 429s by credential label (never the credential): `user` for the dataset user's
   * token and key pair, which share one budget; each account-owned token by its label;
   * `unauthenticated` for requests without a known credential.
   */
  byCredential: Record<string, { requests: number; rateLimited: number }>;
  faultsInjected: number;
  /** Requests left unanswered by --timeout-per-page. */
  hung: number;
}

export class StatsCounter {
  private byRoute = new Map<string, number>();
  private byCredential = new Map<string, { requests: number; rateLimited: number }>();
  total = 0;
  rateLimited = 0;
  faultsInjected = 0;
  hung = 0;

  count(routeKey: string, credential: string): void {
    this.total++;
    this.byRoute.set(routeKey, (this.byRoute.get(routeKey) ?? 0) + 1);
    this.credential(credential).requests++;
  }

  /** A 429, counted for the credential whose request got it. */
  limited(credential: string): void {
    this.rateLimited++;
    this.credential(credential).rateLimited++;
  }

  private credential(label: string): { requests: number; rateLimited: number } {
    let c = this.byCredential.get(label);
    if (!c) this.byCredential.set(label, (c = { requests: 0, rateLimited: 0 }));
    return c;
  }

  snapshot(): EmulatorStats {
    const sorted = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
    return {
      requests: { total: this.total, byRoute: Object.fromEntries(sorted(this.byRoute)) },
      rateLimited: this.rateLimited,
      byCredential: Object.fromEntries(sorted(this.byCredential).map(([k, v]) => [k, { ...v }])),
      faultsInjected: this.faultsInjected,
      hung: this.hung,
    };
  }

  reset(): void {
    this.byRoute = new Map();
    this.byCredential = new Map();
    this.total = this.rateLimited = this.faultsInjected = this.hung = 0;
  }
}
