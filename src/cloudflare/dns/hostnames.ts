/** Host names compare without case or a final dot (a fully qualified name may end in one). */

export function normaliseHostname(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * Certificate host patterns, looked up in constant time so a large zone stays linear. A wildcard `*.example.com`
 * covers exactly one label: `a.example.com`, not `example.com` nor `a.b.example.com` (RFC 6125, 6.4.3).
 */
export class HostPatterns<T> {
  private readonly exact = new Map<string, T>();
  /** Wildcard patterns by the name below the `*.`. */
  private readonly wildcard = new Map<string, T>();

  /** Adds a pattern; the first value given for a pattern is kept. */
  add(pattern: string, value: T): void {
    const p = normaliseHostname(pattern);
    if (p.startsWith('*.')) {
      const base = p.slice(2);
      if (base !== '' && !this.wildcard.has(base)) this.wildcard.set(base, value);
    } else if (p !== '' && !this.exact.has(p)) {
      this.exact.set(p, value);
    }
  }

  /** The value of a pattern covering `host`, an exact one first; undefined when none does. */
  match(host: string): T | undefined {
    const h = normaliseHostname(host);
    const exact = this.exact.get(h);
    if (exact !== undefined) return exact;
    // A wildcard record name (`*.example.com`) is served by the same wildcard only.
    if (h.startsWith('*.')) return this.wildcard.get(h.slice(2));
    // Below the first label (`a.b.example` -> `b.example`); a single label has no wildcard.
    const dot = h.indexOf('.');
    return dot === -1 ? undefined : this.wildcard.get(h.slice(dot + 1));
  }

  covers(host: string): boolean {
    return this.match(host) !== undefined;
  }
}
