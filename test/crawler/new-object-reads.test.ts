/**
 * The crawler's bot management, origin pulls and rate limiting reads against the emulator over
 * real HTTP: each read made for each zone exactly when an enabled rule declares it, the rate
 * limiting entry point asked for only where the zone's rulesets list shows the phase, and nothing
 * at all when the rule that declares a read is disabled.
 */
import { describe, expect, it } from 'vitest';
import botFightModeOff from '../../rules/bot-fight-mode-off.js';
import originPullsOff from '../../rules/origin-pulls-off.js';
import rateLimitingMissing from '../../rules/rate-limiting-missing.js';
import { declaredReadsOf, type DeclaredReads } from '../../src/api/endpoints.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { activeRules, loadCatalogue, type RuleSettings } from '../../src/policy/registry.js';
import { zoneId } from '../support/http.js';
import { scansWithReads } from '../support/reads-scan.js';


const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Example',
      zones: [
        // A Free zone that has not begun migrating: its rulesets list is read only for a declared entry point.
        { name: 'free.example', plan: 'free', security: { bot_management: { fight_mode: true } } },
        {
          name: 'limited.example',
          plan: 'pro',
          security: {
            bot_management: { sbfm_definitely_automated: 'managed_challenge' },
            origin_pulls: true,
            ratelimit_rules: [{ action: 'block', expression: 'http.request.uri.path eq "/login"', ratelimit: { requests_per_period: 10 } }],
          },
        },
        { name: 'plain.example', plan: 'business', migration: { state: 'none' } },
      ],
    },
  ],
};

const BOT_PATH = /^\/zones\/([^/]+)\/bot_management$/;
const PULLS_PATH = /^\/zones\/([^/]+)\/origin_tls_client_auth\/settings$/;
const RATELIMIT_PATH = /^\/zones\/([^/]+)\/rulesets\/phases\/http_ratelimit\/entrypoint$/;
const LIST_PATH = /^\/zones\/([^/]+)\/rulesets$/;
const ZONES = ['free.example', 'limited.example', 'plain.example'];

/** The zones (by name) each path pattern was asked for, in order of name. */
function callsPerZone(emu: RunningEmulator, lines: string[], pattern: RegExp): string[] {
  const names = new Map(ZONES.map((n) => [zoneId(emu, n), n]));
  return lines
    .map((l) => l.split(' ')[1]!.replace(/^\/client\/v4/, ''))
    .map((p) => pattern.exec(p)?.[1])
    .filter((id): id is string => id !== undefined)
    .map((id) => names.get(decodeURIComponent(id)) ?? id)
    .sort();
}

const scanWith = scansWithReads(dataset);
const scan = (reads: DeclaredReads | undefined, failRoutes: string[] = []) => scanWith(reads, { failRoutes });

/** What a scan reads for these rules as the config sets them: the reads of the enabled ones (as catalogueReads does). */
function readsFor(settings: Record<string, RuleSettings>): DeclaredReads {
  const rules = activeRules(loadCatalogue([botFightModeOff, originPullsOff, rateLimitingMissing]), settings);
  return declaredReadsOf(rules.filter((a) => a.enabled || a.overrides.some((o) => o.enabled === true)).map((a) => a.rule.meta.reads));
}

describe('bot management, origin pulls and rate limiting reads', () => {
  it('the rules declare one read each', () => {
    expect(botFightModeOff.meta.reads).toEqual(['bot_management']);
    expect(originPullsOff.meta.reads).toEqual(['origin_pulls']);
    expect(rateLimitingMissing.meta.reads).toEqual(['ratelimit_entrypoint']);
    expect(readsFor({}).objects).toEqual(['bot_management', 'origin_pulls', 'ratelimit_entrypoint']);
  });

  it('reads none of them when no rule declares them', async () => {
    const { emu, lines } = await scan(undefined);
    for (const pattern of [BOT_PATH, PULLS_PATH, RATELIMIT_PATH]) expect(callsPerZone(emu, lines, pattern)).toEqual([]);
    // The Free zone that has not begun migrating needs no entry point, so not its rulesets list either.
    expect(callsPerZone(emu, lines, LIST_PATH)).toEqual(['limited.example', 'plain.example']);
  });

  it('reads the bot management settings once per zone when declared, and nothing else new', async () => {
    const { emu, lines, reader, result } = await scan(readsFor({ 'origin-pulls-off': { enabled: false }, 'rate-limiting-missing': { enabled: false } }));
    expect(result.missing).toEqual([]);
    expect(callsPerZone(emu, lines, BOT_PATH)).toEqual(ZONES);
    expect(callsPerZone(emu, lines, PULLS_PATH)).toEqual([]);
    expect(callsPerZone(emu, lines, RATELIMIT_PATH)).toEqual([]);
    const stored = reader.zoneObject(zoneId(emu, 'limited.example'), 'bot_management');
    if (!stored.known) throw new Error(stored.reason);
    // vendor's API reference: bot management config: a Pro zone's answer carries sbfm_definitely_automated.
    expect(JSON.parse(stored.items[0]!.raw)).toMatchObject({ sbfm_definitely_automated: 'managed_challenge' });
    expect(reader.coverageOf('zone', zoneId(emu, 'free.example'), 'origin_pulls')).toBeUndefined();
  });

  it('reads the origin pulls setting once per zone when declared', async () => {
    const { emu, lines, reader } = await scan(readsFor({ 'bot-fight-mode-off': { enabled: false }, 'rate-limiting-missing': { enabled: false } }));
    expect(callsPerZone(emu, lines, PULLS_PATH)).toEqual(ZONES);
    expect(callsPerZone(emu, lines, BOT_PATH)).toEqual([]);
    const on = reader.zoneObject(zoneId(emu, 'limited.example'), 'origin_pulls');
    const off = reader.zoneObject(zoneId(emu, 'plain.example'), 'origin_pulls');
    if (!on.known || !off.known) throw new Error('origin pulls not read');
    // vendor's API reference: zone-level authenticated origin pulls settings: {enabled}, false by default.
    expect(JSON.parse(on.items[0]!.raw)).toEqual({ enabled: true });
    expect(JSON.parse(off.items[0]!.raw)).toEqual({ enabled: false });
  });

  it('reads the rate limiting entry point only where the rulesets list shows the phase, listing every zone for it', async () => {
    const { emu, lines, reader, result } = await scan(readsFor({ 'bot-fight-mode-off': { enabled: false }, 'origin-pulls-off': { enabled: false } }));
    expect(result.missing).toEqual([]);
    // The declared entry point needs the list on every plan, the Free zone's included (vendor's API reference: list zone rulesets).
    expect(callsPerZone(emu, lines, LIST_PATH)).toEqual(ZONES);
    expect(callsPerZone(emu, lines, RATELIMIT_PATH)).toEqual(['limited.example']);
    expect(callsPerZone(emu, lines, BOT_PATH)).toEqual([]);
    expect(reader.coverageOf('zone', zoneId(emu, 'limited.example'), 'ratelimit_entrypoint')).toMatchObject({ state: 'ok', items: 1 });
    // No such phase in the list: an answer with no object, known without a call.
    for (const name of ['free.example', 'plain.example']) {
      expect(reader.coverageOf('zone', zoneId(emu, name), 'ratelimit_entrypoint')).toMatchObject({ state: 'ok', items: 0, message: expect.stringContaining('rulesets list shows no http_ratelimit') });
    }
  });

  it('reads all three when every rule is enabled, and none when all are disabled', async () => {
    const all = await scan(readsFor({}));
    expect(callsPerZone(all.emu, all.lines, BOT_PATH)).toEqual(ZONES);
    expect(callsPerZone(all.emu, all.lines, PULLS_PATH)).toEqual(ZONES);
    expect(callsPerZone(all.emu, all.lines, RATELIMIT_PATH)).toEqual(['limited.example']);

    const none = await scan(readsFor({ 'bot-fight-mode-off': { enabled: false }, 'origin-pulls-off': { enabled: false }, 'rate-limiting-missing': { enabled: false } }));
    for (const pattern of [BOT_PATH, PULLS_PATH, RATELIMIT_PATH]) expect(callsPerZone(none.emu, none.lines, pattern)).toEqual([]);
    expect(callsPerZone(none.emu, none.lines, LIST_PATH)).toEqual(['limited.example', 'plain.example']);
    expect(none.reader.coverageOf('zone', zoneId(none.emu, 'limited.example'), 'ratelimit_entrypoint')).toBeUndefined();
  });

  it('records a failed read as missing', async () => {
    const { reader, result, emu } = await scan({ settings: [], objects: ['bot_management'] }, ['GET /zones/{zone_id}/bot_management']);
    expect(result.missing.map((m) => `${m.name} ${m.endpoint} ${m.state}`).sort()).toEqual(ZONES.map((z) => `${z} bot_management failed`));
    expect(reader.zoneObject(zoneId(emu, 'limited.example'), 'bot_management').known).toBe(false);
  });
});
