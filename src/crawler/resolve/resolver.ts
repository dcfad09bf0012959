import { Resolver } from 'node:dns/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit, { type LimitFunction } from 'p-limit';
import type { ResolverCheck, TargetAnswer } from '../../common/dns-target-answer.js';
import { parseResolverAddress } from '../../common/resolver-address.js';
import { entryOf } from '../../common/map-entry.js';
import { KnownNames } from './known-names.js';

/**
 * Asks DNS whether the names a scan's records point at exist, each name once per scan (an instance
 * per scan), a bounded number at once. The question is type CNAME for the exact name: a recursive
 * resolver answers it without following a chain, so the answer speaks of that name only (RFC 6604 3).
 * NXDOMAIN: the name and everything under it do not exist (RFC 1034 4.3.2, RFC 8020 2); NOERROR with
 * or without data: it exists (RFC 2308 2.2). A resolver is believed only once it has answered for
 * names known to exist (check()): one that denies everything would make every target dangle.
 */

export interface ResolverOptions {
  /** `--resolver`; the system's resolvers when absent. */
  server?: string;
  /** Time for one attempt, in ms (default 2000); each name gets `tries` attempts. */
  timeoutMs?: number;
  tries?: number;
  /** Questions in flight at once (default 16). */
  concurrency?: number;
  /**
   * A name with no answer (a timeout, SERVFAIL) is asked again this many times (default 2), after a
   * growing pause (`pauseMs`, default 500): a resolver busy for a moment then still answers.
   */
  rounds?: number;
  pauseMs?: number;
}

export class TargetResolver {
  private readonly resolver: Resolver;
  private readonly limit: LimitFunction;
  private readonly answers = new Map<string, Promise<TargetAnswer>>();
  private readonly rounds: number;
  private readonly pauseMs: number;
  private readonly known = new KnownNames();
  /** The check's result, when the scan made it (only when some target is resolved). */
  checked: Promise<ResolverCheck> | null = null;
  private readonly stopped = new AbortController();
  /** Questions sent. */
  asked = 0;

  constructor(options: ResolverOptions = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
    if (options.server !== undefined) {
      const parsed = parseResolverAddress(options.server);
      if (!parsed.ok) throw new Error(`--resolver: expected ${parsed.reason}, got ${JSON.stringify(options.server)}`);
      this.resolver.setServers([parsed.server]);
    }
    this.limit = pLimit(options.concurrency ?? 16);
    this.rounds = options.rounds ?? 2;
    this.pauseMs = options.pauseMs ?? 500;
  }

  servers(): string[] {
    return this.resolver.getServers();
  }

  /** A zone as listed: its assigned name servers may check the resolver (known-names.ts). */
  offerKnownNames(zone: { name?: unknown; status?: unknown; name_servers?: unknown }): void {
    this.known.offer(zone);
  }

  /**
   * Whether the resolver is believed, decided once, when the first targets are to be resolved: no
   * name known to exist may be NXDOMAIN, and one must have answered.
   */
  check(): Promise<ResolverCheck> {
    return (this.checked ??= this.runCheck());
  }

  resolve(name: string): Promise<TargetAnswer> {
    return entryOf(this.answers, name, () => this.answer(name));
  }

  /** Stops the questions in flight: they answer unknown. */
  cancel(): void {
    this.stopped.abort();
    this.resolver.cancel();
  }

  private async runCheck(): Promise<ResolverCheck> {
    const servers = this.servers();
    const names = this.known.pick();
    const asked = await Promise.all(names.map(async (name) => ({ name, ...(await this.resolve(name)) })));
    const where = `the resolver (${servers.join(', ') || 'the system\'s'})`;
    const fix = 'pass --resolver with a resolver that answers for public names (docs/scanning.md)';
    const denied = asked.filter((a) => a.answer === 'nxdomain').map((a) => a.name);
    let reason: string | null = null;
    if (names.length === 0) {
      reason = `${where} could not be checked: no zone of the scan lists the name servers the API assigned to it, the names known to exist it is checked against; no target was judged`;
    } else if (denied.length > 0) {
      reason = `${where} answered NXDOMAIN (no such name) for ${denied.join(', ')}, name servers the API assigned to the scanned zones, which exist: its answers about other names cannot be believed, so no target was judged; ${fix}`;
    } else if (!asked.some((a) => a.answer === 'exists')) {
      const why = asked.find((a) => a.answer === 'unknown');
      reason = `${where} gave no answer about ${names.join(', ')}, name servers the API assigned to the scanned zones (${why && 'reason' in why ? why.reason : 'no answer'}): no target was judged; ${fix}`;
    }
    return { servers, names: asked.map((a) => ('reason' in a ? { name: a.name, answer: a.answer, reason: a.reason } : { name: a.name, answer: a.answer })), trusted: reason === null, reason };
  }

  private async answer(name: string): Promise<TargetAnswer> {
    let answer = await this.limit(() => this.ask(name));
    for (let round = 1; round <= this.rounds && isPassing(answer) && !this.stopped.signal.aborted; round++) {
      try {
        await sleep(this.pauseMs * round, undefined, { signal: this.stopped.signal });
      } catch {
        break;
      }
      answer = await this.limit(() => this.ask(name));
    }
    return answer;
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

const TIMED_OUT = 'no answer before the time limit';
const SERVFAIL = 'the resolver answered SERVFAIL';

/** No answer that may come another time: a timeout, or SERVFAIL (a resolver failing upstream for a moment). */
function isPassing(answer: TargetAnswer): boolean {
  return answer.answer === 'unknown' && (answer.reason === TIMED_OUT || answer.reason === SERVFAIL);
}

/** c-ares error codes as answers: ENOTFOUND is NXDOMAIN, ENODATA is NOERROR without data. */
const ANSWERS = new Map<string, TargetAnswer>([
  ['ENOTFOUND', { answer: 'nxdomain' }],
  ['ENODATA', { answer: 'exists' }],
  ['ESERVFAIL', { answer: 'unknown', reason: SERVFAIL }],
  ['ETIMEOUT', { answer: 'unknown', reason: TIMED_OUT }],
  ['EREFUSED', { answer: 'unknown', reason: 'the resolver refused the question' }],
  ['ECONNREFUSED', { answer: 'unknown', reason: 'the resolver could not be reached' }],
  ['ECANCELLED', { answer: 'unknown', reason: 'the scan stopped before the answer' }],
]);

function classify(err: unknown): TargetAnswer {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const known = code === undefined ? undefined : ANSWERS.get(code);
  return known ? { ...known } : { answer: 'unknown', reason: `the question failed (${code ?? (err instanceof Error ? err.message : String(err))})` };
}
