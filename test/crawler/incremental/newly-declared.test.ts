import { describe, expect, it } from 'vitest';
import type { DeclaredReads } from '../../../src/api/endpoints.js';
import { partitionsNewlyDeclared } from '../../../src/crawler/incremental/read-plan.js';

/**
 * What a night reads for every zone because the rules ask for it and the scan it reads on from
 * was not asked (a rule switched on since): no audit log entry speaks of a token's or a config's
 * choices, so nothing else would bring it in before the zone's full-read turn.
 */
describe('partitionsNewlyDeclared', () => {
  const reads = (settings: string[], objects: string[]): DeclaredReads => ({ settings, objects }) as unknown as DeclaredReads;
  const cases: Array<{ name: string; before: DeclaredReads | null; tonight: DeclaredReads; again: string[] }> = [
    { name: 'the same reads: nothing', before: reads(['ssl'], ['dnssec']), tonight: reads(['ssl'], ['dnssec']), again: [] },
    { name: 'fewer reads: nothing (carrying more than needed is harmless)', before: reads(['ssl', 'waf'], ['dnssec', 'bot_management']), tonight: reads(['ssl'], []), again: [] },
    { name: 'an object switched on: its partition', before: reads(['ssl'], ['dnssec']), tonight: reads(['ssl'], ['dnssec', 'bot_management']), again: ['bot_management'] },
    { name: 'a setting added: the settings partition, read whole', before: reads(['ssl'], []), tonight: reads(['ssl', 'security_level'], []), again: ['zone_settings'] },
    // reads/rulesets-list.ts: a Free zone's rulesets list is read only for a custom or rate limiting entry point.
    { name: 'a custom rules entry point: it and the rulesets list', before: reads([], []), tonight: reads([], ['custom_entrypoint']), again: ['custom_entrypoint', 'rulesets'] },
    { name: 'a rate limiting entry point: it and the rulesets list', before: reads([], ['dnssec']), tonight: reads([], ['ratelimit_entrypoint']), again: ['ratelimit_entrypoint', 'rulesets'] },
    { name: 'a scan from before reads were recorded: taken as asked the same', before: null, tonight: reads(['ssl'], ['dnssec']), again: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect([...partitionsNewlyDeclared(c.before, c.tonight)].sort()).toEqual([...c.again].sort());
    });
  }
});
