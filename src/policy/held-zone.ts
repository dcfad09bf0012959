import type { FindingSink } from './engine.js';
import type { Finding } from './findings.js';

/**
 * The verdicts of the rules run again on a zone judged in part, held until the audit knows
 * whether they changed anything (KeptVerdicts.confirm).
 *
 * Most zones judged in part give the verdicts they gave before: a certificate renewed by the
 * vendor, a DNS record edited that no rule objects to. Such a zone is then kept like an unchanged
 * one: its rows stay with the audit that judged it, and neither the taken-over verdicts nor the
 * new ones are read back, counted or written again. Holding is bounded: a zone whose rules give
 * more than HELD_FINDINGS findings is let go at once (its verdicts go on to the sink as they come),
 * since a zone of 400,000 records must not sit in memory to be compared.
 */

/** Findings held for one zone at most before it is let go. */
export const HELD_FINDINGS = 2_000;

/** One rule's verdicts on the held zone, as they stood. */
export interface HeldUnit {
  rule: string;
  findings: Finding[];
  /** Passes by zone id (or account key), as the engine tells them (see Verdicts.passes). */
  passes: ReadonlyMap<string, number>;
  /** The zone's endpoints the rule read. */
  reads: ReadonlySet<string>;
}

/**
 * A sink that holds each unit's findings until taken (`take`), or, once let go, passes every call
 * on to the sink behind it. `onLetGo` runs when holding ends by itself (too many findings), before
 * the unit under way goes on: it gives the units held so far to the sink.
 */
export class HoldingSink implements FindingSink {
  private unit: Finding[] = [];
  private stood: Finding[] = [];
  private held = 0;
  private lettingGo = false;
  letGo = false;

  constructor(
    private readonly target: FindingSink,
    private readonly onLetGo: () => void,
    private readonly limit = HELD_FINDINGS,
  ) {}

  add(f: Finding): void {
    if (this.letGo) return this.target.add(f);
    this.unit.push(f);
    if (++this.held > this.limit) this.release();
  }

  commit(): void {
    if (this.letGo) return this.target.commit();
    this.stood = this.unit;
    this.unit = [];
  }

  rollback(): void {
    if (this.letGo) return this.target.rollback();
    this.held -= this.unit.length;
    this.unit = [];
  }

  /** The findings of the unit that just stood. */
  take(): Finding[] {
    const stood = this.stood;
    this.stood = [];
    return stood;
  }

  /** Stops holding: the units held so far go to the sink (onLetGo), then the unit under way. */
  release(): void {
    if (this.letGo || this.lettingGo) return;
    this.lettingGo = true;
    this.onLetGo();
    this.letGo = true;
    for (const f of this.unit) this.target.add(f);
    this.unit = [];
  }
}
