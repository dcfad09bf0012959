import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import { evaluate, type FindingSink } from '../../src/policy/engine.js';
import type { Finding } from '../../src/policy/findings.js';
import { activeRules, loadCatalogue, type ActiveRule } from '../../src/policy/registry.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * issue 30 item 4: a rule on the time may say until when its verdicts on a zone hold
 * (meta.declaresHorizon, ctx.holdsUntil), and an audit then keeps them on an unchanged zone until
 * that time. That is only safe if the horizon is true: judged at any time before it, on the same
 * data, the rule gives the same verdicts (statuses, severities, messages, data). Each such rule is
 * judged on the tests' organisation from several times, and again just before and halfway to each
 * zone's horizon.
 */

const emulator = emulatorsClosedAfterEach();
const catalogue = loadCatalogue(RULES);
const DAY = 86_400_000;

/** A sink that keeps each zone's verdicts (passes included) and the horizon the engine tells. */
class ZoneSink implements FindingSink {
  readonly byZone = new Map<string, string[]>();
  readonly horizons = new Map<string, number>();
  private unit: Finding[] = [];
  add(f: Finding): void {
    this.unit.push(f);
  }
  commit(): void {
    for (const f of this.unit) {
      const key = f.zone?.id ?? '';
      (this.byZone.get(key) ?? this.byZone.set(key, []).get(key)!).push(JSON.stringify([f.fingerprint, f.status, f.severity, f.message, f.data]));
    }
    this.unit = [];
  }
  rollback(): void {
    this.unit = [];
  }
  holds(zoneId: string, until: number): void {
    this.horizons.set(zoneId, until);
  }
}

describe('a rule that says until when its verdicts hold', () => {
  it("gives the same verdicts at any time before that, on every zone of the tests' organisation", async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const dir = mkdtempSync(join(tmpdir(), 'zw-horizon-'));
    const path = join(dir, 'zonewarden.db');
    const run = await runInProcess(['scan', '--base-url', emu.url, '--db', path, '--budget', '1000000', '--quiet'], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
    expect(run.code, run.stderr).toBeLessThanOrEqual(3);
    const db = openSnapshot(path);
    try {
      const all = activeRules(catalogue, DEMO_RULE_SETTINGS);
      const withHorizon = all.filter((r) => r.rule.meta.declaresHorizon === true);
      // Every rule that declares a horizon also says it depends on the time (else it is kept anyway).
      for (const r of withHorizon) expect(r.rule.meta.dependsOnTime, r.rule.meta.id).toBe(true);
      expect(withHorizon.map((r) => r.rule.meta.id)).toEqual(expect.arrayContaining(['certificate-expiry', 'certificate-pack-unhealthy', 'dnssec-not-active', 'migration-validation-stalled']));
      const judge = (rule: ActiveRule, now: number) => {
        const sink = new ZoneSink();
        evaluate(new SnapshotReader(db, 1), [rule], { now: new Date(now), sink, keepPasses: true });
        return sink;
      };
      const start = new Date(new SnapshotReader(db, 1).scan.startedAt).getTime();
      let heldLater = 0;
      let probes = 0;
      for (const rule of withHorizon) {
        for (const t0 of [start - 400 * DAY, start - 20 * DAY, start, start + 10 * DAY, start + 45 * DAY, start + 400 * DAY]) {
          const first = judge(rule, t0);
          // A zone judged tells a horizon, at or after the time it was judged at.
          for (const [zone, h] of first.horizons) expect(h, `${rule.rule.meta.id} on ${zone}`).toBeGreaterThanOrEqual(t0);
          const probeTimes = new Map<number, string[]>();
          for (const zone of first.byZone.keys()) {
            if (zone === '') continue;
            const h = first.horizons.get(zone) ?? Number.POSITIVE_INFINITY;
            if (h <= t0) continue;
            heldLater++;
            const until = Number.isFinite(h) ? h : t0 + 1000 * DAY;
            for (const t of [until - 1, t0 + Math.floor((until - t0) / 2)]) (probeTimes.get(t) ?? probeTimes.set(t, []).get(t)!).push(zone);
          }
          for (const [t, zones] of probeTimes) {
            const again = judge(rule, t);
            for (const zone of zones) {
              probes++;
              expect(again.byZone.get(zone), `${rule.rule.meta.id} on ${zone}: judged at ${new Date(t0).toISOString()}, held until ${new Date(first.horizons.get(zone) ?? Infinity).toString()}, again at ${new Date(t).toISOString()}`).toEqual(first.byZone.get(zone));
            }
          }
        }
      }
      // The check sees something: most verdicts hold past the time they were given.
      expect(heldLater).toBeGreaterThan(100);
      expect(probes).toBe(heldLater * 2);
    } finally {
      db.close();
    }
  }, 120_000);
});
