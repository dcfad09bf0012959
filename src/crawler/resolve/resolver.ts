import { Resolver } from 'node:dns/promises';
import pLimit, { type LimitFunction } from 'p-limit';
import type { TargetAnswer } from '../../common/dns-target-answer.js';
import { parseResolverAddress } from './address.js';

/**
 * Asks DNS whether the names a scan's records point at exist: through the system's resolver, or
 * the one `--resolver` names, a bounded number at once, each name once per scan (one instance per
 * scan holds the answers), each with a time limit.
 *
 * The question is type CNAME for the exact name: a recursive resolver answers it without following
 * a chain, so the answer speaks of that name only (asked for an address, a name that is itself a
 * CNAME to a missing name would answer NXDOMAIN, which then speaks of the chain's last name:
 * RFC 6604 3). NXDOMAIN means the name and everything under it do not exist (RFC 1034 4.3.2,
 * RFC 8020 2); NOERROR with or without data means it exists (RFC 2308 2.2: NODATA).
 */

export interface ResolverOptions {
  /** `--resolver`: the server to ask (an IP, with an optional port); the system's resolvers when absent. */
  server?: string;
  /** Time for one attempt, in ms (default 2000); each name gets `tries` attempts. */
  timeoutMs?: number;
  tries?: number;
  /** Questions in flight at once (default 16). */
  concurrency?: number;
}

export class TargetResolver {
  private readonly resolver: Resolver;
  private readonly limit: LimitFunction;
  private readonly answers = new Map<string, Promise<TargetAnswer>>();
  /** Questions sent (each name once). */
  asked = 0;

  constructor(options: ResolverOptions = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
    if (options.server !== undefined) {
      const parsed = parseResolverAddress(options.server);
      if (!parsed.ok) throw new Error(`--resolver: expected ${parsed.reason}, got ${JSON.stringify(options.server)}`);
      this.resolver.setServers([parsed.server]);
    }
    this.limit = pLimit(options.concurrency ?? 16);
  }

  /** The servers asked, as node:dns lists them. */
  servers(): string[] {
    return this.resolver.getServers();
  }

  /** Whether the name exists; asked once per instance, later callers share the answer. */
  resolve(name: string): Promise<TargetAnswer> {
    let answer = this.answers.get(name);
    if (!answer) {
      answer = this.limit(() => this.ask(name));
      this.answers.set(name, answer);
    }
    return answer;
  }

  /** Stops the questions in flight: they answer unknown. */
  cancel(): void {
    this.resolver.cancel();
  }

  private async ask(name: string): Promise<TargetAnswer> {
    this.asked++;
    try {
      await this.resolver.resolve(name, 'CNAME');
      return { answer: 'exists' };
    } catch (err) {
      return classify(err);
    }
  }
}

/** c-ares error codes as answers: ENOTFOUND is NXDOMAIN, ENODATA is NOERROR without data. */
export function classify(err: unknown): TargetAnswer {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOTFOUND':
      return { answer: 'nxdomain' };
    case 'ENODATA':
      return { answer: 'exists' };
    case 'ESERVFAIL':
      return { answer: 'unknown', reason: 'the resolver answered SERVFAIL' };
    case 'ETIMEOUT':
      return { answer: 'unknown', reason: 'no answer before the time limit' };
    case 'EREFUSED':
      return { answer: 'unknown', reason: 'the resolver refused the question' };
    case 'ECONNREFUSED':
      return { answer: 'unknown', reason: 'the resolver could not be reached' };
    case 'ECANCELLED':
      return { answer: 'unknown', reason: 'the scan stopped before the answer' };
    default:
      return { answer: 'unknown', reason: `the question failed (${code ?? (err instanceof Error ? err.message : String(err))})` };
  }
}
