import { globToRegExp, isGlob } from '../../common/glob.js';
import { normaliseHostname } from '../../cloudflare/dns/hostnames.js';

/**
 * A rule option's host-name globs (glob.ts), compiled once per zone for zones of up to a million
 * records: exact names in a set, `*<suffix>` a string test, only other globs a regular expression.
 */
export class NameGlobs {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly patterns: RegExp[] = [];

  constructor(globs: readonly string[]) {
    for (const glob of globs) {
      const g = normaliseHostname(glob);
      if (g === '') continue;
      if (!isGlob(g)) this.exact.add(g);
      else if (g.startsWith('*') && !isGlob(g.slice(1))) this.suffixes.push(g.slice(1));
      else this.patterns.push(globToRegExp(g));
    }
  }

  /** No glob at all: callers skip the test. */
  get empty(): boolean {
    return this.exact.size === 0 && this.suffixes.length === 0 && this.patterns.length === 0;
  }

  /** Whether some glob matches `name` (any case, with or without its trailing dot). */
  matches(name: string): boolean {
    if (this.empty) return false;
    const n = normaliseHostname(name);
    if (this.exact.has(n)) return true;
    for (const suffix of this.suffixes) if (n.endsWith(suffix)) return true;
    for (const pattern of this.patterns) if (pattern.test(n)) return true;
    return false;
  }
}
