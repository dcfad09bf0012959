/**
 * The crawler's zone security reads against the emulator over real HTTP: only what the rules
 * declare, one call each per zone, the legacy WAF switch never asked where it cannot exist, and
 * failures (an error on a setting included) recorded as gaps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import type { ApiClient } from '../../src/api/client.js';
import { callsPerZone, declaredReadsOf, type DeclaredReads } from '../../src/api/endpoints.js';
import { crawl, type CrawlResult } from '../../src/crawler/crawl.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { emulatorsClosedAfterEach, TOKEN, zoneId } from '../support/http.js';

const emulator = emulatorsClosedAfterEach();
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Example',
      zones: [
        { name: 'free.example', plan: 'free' },
        { name: 'pro.example', plan: 'pro', waf: { enabled: false }, security: { settings: { ssl: 'flexible' }, dnssec: 'active', custom_rules: [{ action: 'block', expression: 'true' }] } },
        { name: 'done.example', plan: 'business', migration: { state: 'complete' } },
      ],
    },
  ],
};

const SETTINGS_ROUTE = 'GET /zones/{zone_id}/settings/{setting_id}';

async function scan(emu: RunningEmulator, reads: DeclaredReads | undefined, wrap: (c: ApiClient) => ApiClient = (c) => c): Promise<{ reader: SnapshotReader; result: CrawlResult }> {
  const db = openSnapshot(':memory:');
  dbs.push(db);
  const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
  try {
    const writer = ScanWriter.start(db, emu.url, { accounts: [], zones: [] }, createRedactor([TOKEN]));
    const result = await crawl({ client: wrap(client), writer, scope: { accounts: [], zones: [] }, concurrency: 2, logger: recordingLogger(), ...(reads ? { reads } : {}) });
    writer.finish(result.missing.length ? 'incomplete' : 'complete', {});
    return { reader: new SnapshotReader(db, writer.scanId), result };
  } finally {
    await client.close();
  }
}

describe('zone security reads', () => {
  it('reads nothing extra when no rule declares a read', async () => {
    const emu = await emulator({ dataset });
    await scan(emu, undefined);
    const routes = Object.keys(emu.stats().requests.byRoute);
    // `settings` covers the origin pulls switch (origin_tls_client_auth/settings) too.
    expect(routes.filter((r) => /settings|dnssec|universal|http_request_firewall_custom|http_ratelimit|bot_management/.test(r))).toEqual([]);
  });

  it('reads what the catalogue declares, one call each per zone, the WAF switch only where it exists', async () => {
    const reads = declaredReadsOf(RULES.map((r) => r.meta.reads));
    // 15 settings: the 8 before (7 + the legacy waf switch) and, in table order, security_level
    // (under-attack-left-on), development_mode, always_online, email_obfuscation, hotlink_protection,
    // ip_geolocation, challenge_ttl, one rule each.
    expect(reads.settings).toEqual([
      'ssl', 'min_tls_version', 'tls_1_3', 'always_use_https', 'automatic_https_rewrites', 'security_header', 'security_level', 'browser_check', 'waf',
      'development_mode', 'always_online', 'email_obfuscation', 'hotlink_protection', 'ip_geolocation', 'challenge_ttl',
    ]);
    // 8 objects: the 3 before, and bot_management (bot-fight-mode-off), origin_pulls (origin-pulls-off),
    // ratelimit_entrypoint (rate-limiting-missing), page_shield (client-side-security-off),
    // security_txt (security-txt-missing).
    expect(reads.objects).toEqual(['dnssec', 'universal_ssl', 'custom_entrypoint', 'bot_management', 'origin_pulls', 'ratelimit_entrypoint', 'page_shield', 'security_txt']);
    // The members and the notification policies are the account's: read per account, not per zone.
    expect(reads.accounts).toEqual(['account_members', 'notification_policies']);
    // dns-dangling-target's resolutions go to DNS, not to the API: no call.
    expect(reads.resolved).toEqual(['dns_targets']);
    // 23 calls at most per zone: 15 settings + 8 objects (was 8 + 3 = 11); development_mode is not
    // asked where the zone list carries it (below).
    expect(callsPerZone(reads)).toBe(23);
    const emu = await emulator({ dataset });
    const { reader, result } = await scan(emu, reads);
    expect(result.missing).toEqual([]);
    const byRoute = emu.stats().requests.byRoute;
    // The legacy switch of a Free zone (never offered) and of a migrated zone (gone) is not asked, nor
    // development_mode, which the zone list carries (vendor's API reference, zones: development_mode).
    expect(byRoute[SETTINGS_ROUTE]).toBe(3 * 14 - 2);
    expect(byRoute['GET /zones/{zone_id}/dnssec']).toBe(3);
    expect(byRoute['GET /zones/{zone_id}/ssl/universal/settings']).toBe(3);
    // Every zone has bot settings and an origin pulls switch, on every plan: one call each per zone.
    expect(byRoute['GET /zones/{zone_id}/bot_management']).toBe(3);
    expect(byRoute['GET /zones/{zone_id}/origin_tls_client_auth/settings']).toBe(3);
    expect(byRoute['GET /zones/{zone_id}/page_shield']).toBe(3);
    expect(byRoute['GET /zones/{zone_id}/security-center/securitytxt']).toBe(3);
    // No zone here has rate limiting rules: each rulesets list shows no http_ratelimit phase, so none is asked.
    expect([...emu.org.zonesById.values()].filter((z) => z.security.rateLimitRules !== null)).toEqual([]);
    expect(byRoute['GET /zones/{zone_id}/rulesets/phases/http_ratelimit/entrypoint']).toBeUndefined();
    // Only zones whose rulesets list shows a custom rules entry point are asked for it (vendor's API reference: list zone rulesets).
    const withCustom = [...emu.org.zonesById.values()].filter((z) => z.security.customRules !== null).length;
    expect(withCustom).toBeLessThan(3);
    expect(byRoute['GET /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint']).toBe(withCustom);
    expect(byRoute['GET /zones/{zone_id}/rulesets']).toBe(3);

    const pro = zoneId(emu, 'pro.example');
    const settings = reader.zoneObject(pro, 'zone_settings');
    if (!settings.known) throw new Error(settings.reason);
    const values = Object.fromEntries(settings.items.map((r) => [r.id, JSON.parse(r.raw).value]));
    expect(values).toMatchObject({ ssl: 'flexible', waf: 'off', min_tls_version: '1.0' });
    expect(reader.coverageOf('zone', pro, 'zone_settings')).toMatchObject({ state: 'ok', pages: 14, items: 14 });
    expect(values['development_mode']).toBeUndefined();
    // No custom rules yet: the zone's rulesets list shows no such phase, an answer with no object and no call.
    const free = zoneId(emu, 'free.example');
    expect(reader.coverageOf('zone', free, 'custom_entrypoint')).toMatchObject({ state: 'ok', items: 0, message: expect.stringContaining('rulesets list shows no http_request_firewall_custom') });
    expect(reader.coverageOf('zone', pro, 'custom_entrypoint')).toMatchObject({ state: 'ok', items: 1 });
    expect(reader.coverageOf('zone', free, 'ratelimit_entrypoint')).toMatchObject({ state: 'ok', items: 0, message: expect.stringContaining('rulesets list shows no http_ratelimit') });
    expect(reader.coverageOf('zone', free, 'bot_management')).toMatchObject({ state: 'ok', items: 1 });
    expect(reader.coverageOf('zone', free, 'origin_pulls')).toMatchObject({ state: 'ok', items: 1 });
  });

  it('reads development_mode zone by zone only when the zone list does not carry it', async () => {
    const emu = await emulator({ dataset });
    // A zone list answer without the field (an older API, a proxy that drops it): the setting is read, as before.
    const withoutField = (c: ApiClient): ApiClient =>
      new Proxy(c, {
        get: (t, k) =>
          k === 'get'
            ? async (path: string, o: object) => {
                const answer = (await t.get(path, o as never)) as { result: unknown };
                if (path === '/zones' && Array.isArray(answer.result)) for (const z of answer.result as Array<Record<string, unknown>>) delete z['development_mode'];
                return answer;
              }
            : Reflect.get(t, k),
      });
    const { reader } = await scan(emu, { settings: ['ssl', 'development_mode'], objects: [] }, withoutField);
    expect(emu.stats().requests.byRoute[SETTINGS_ROUTE]).toBe(3 * 2);
    const settings = reader.zoneObject(zoneId(emu, 'pro.example'), 'zone_settings');
    expect(settings.known && settings.items.map((r) => r.id).sort()).toEqual(['development_mode', 'ssl']);

    const emu2 = await emulator({ dataset });
    const carried = await scan(emu2, { settings: ['ssl', 'development_mode'], objects: [] });
    // The zone list carries it: one setting call a zone instead of two, and the zone row holds it.
    expect(emu2.stats().requests.byRoute[SETTINGS_ROUTE]).toBe(3);
    const zone = carried.reader.zones().find((z) => z.name === 'pro.example')!;
    expect(JSON.parse(zone.raw)).toMatchObject({ development_mode: 0 });
  });

  it('takes an error on a setting for a failed read, never for "not offered"', async () => {
    const emu = await emulator({ dataset });
    // vendor API reference, zone settings: a setting the plan does not offer answers 200 with
    // editable: false; an error (here the answer to a setting id the API does not know) is a gap.
    const refuseSsl = (c: ApiClient): ApiClient =>
      new Proxy(c, { get: (t, k) => (k === 'get' ? (path: string, o: object) => t.get(path.replace('/settings/ssl', '/settings/not_on_this_plan'), o) : Reflect.get(t, k)) });
    const { reader, result } = await scan(emu, { settings: ['ssl', 'tls_1_3'], objects: [] }, refuseSsl);
    expect(result.missing.map((m) => `${m.name} ${m.endpoint} ${m.state}`).sort()).toEqual(['done.example zone_settings failed', 'free.example zone_settings failed', 'pro.example zone_settings failed']);
    expect(reader.zoneObject(zoneId(emu, 'pro.example'), 'zone_settings').known).toBe(false);
  });

  it('records a failed read as missing, for the settings and for an object', async () => {
    const emu = await emulator({ dataset, failRoutes: [SETTINGS_ROUTE, 'GET /zones/{zone_id}/dnssec'] });
    const { reader, result } = await scan(emu, { settings: ['ssl'], objects: ['dnssec'] });
    const missing = result.missing.map((m) => `${m.name} ${m.endpoint} ${m.state}`).sort();
    expect(missing).toEqual(['done.example dnssec failed', 'done.example zone_settings failed', 'free.example dnssec failed', 'free.example zone_settings failed', 'pro.example dnssec failed', 'pro.example zone_settings failed']);
    expect(reader.zoneObject(zoneId(emu, 'pro.example'), 'zone_settings').known).toBe(false);
  });
});

describe('managed rules reads', () => {
  const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
  const ENTRYPOINT = 'GET /zones/{zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint';
  const ACCOUNT_ENTRYPOINT = 'GET /accounts/{account_id}/rulesets/phases/http_request_firewall_managed/entrypoint';
  const managed: DatasetFile = {
    version: 1,
    accounts: [
      {
        name: 'Standard',
        zones: [
          { name: 'free.example', plan: 'free' },
          { name: 'old.example', plan: 'pro', waf: { enabled: true } },
          // vendor docs: WAF migration: zones created since 2022-09 run the new managed rules, with no migration state.
          { name: 'born-new.example', plan: 'business', migration: { state: 'none' } },
        ],
      },
      {
        name: 'Enterprise',
        type: 'enterprise',
        // vendor docs: account-level WAF configuration (Enterprise): the account's managed-phase entry point deploys to its zones by expression.
        managed_rules: [{ action: 'execute', expression: 'cf.zone.name eq "big.example"', action_parameters: { id: MANAGED } }],
        zones: [
          { name: 'big.example', plan: 'enterprise', migration: { state: 'none' }, security: { managed_rules: [] } },
          { name: 'big-two.example', plan: 'enterprise', migration: { state: 'none' } },
        ],
      },
    ],
  };

  it('reads every paid zone\'s managed entry point, and each Enterprise account\'s once, kept with each of its zones', async () => {
    const emu = await emulator({ dataset: managed });
    const { reader, result } = await scan(emu, undefined);
    expect(result.missing).toEqual([]);
    const byRoute = emu.stats().requests.byRoute;
    // Four paid zones, whatever their migration says, list their rulesets; the Free zone that has not
    // begun does not. Only the three with a managed entry point are asked for it: old.example, still
    // on the previous WAF, has none, as its list shows (vendor's API reference: list zone rulesets).
    expect(byRoute['GET /zones/{zone_id}/rulesets']).toBe(4);
    expect(byRoute[ENTRYPOINT]).toBe(3);
    // The Enterprise account once for its two zones; the standard account not at all.
    expect(byRoute[ACCOUNT_ENTRYPOINT]).toBe(1);
    expect(reader.coverageOf('zone', zoneId(emu, 'free.example'), 'entrypoint')?.state).toBe('skipped');
    // A zone still on the previous WAF has no entry point yet: its rulesets list says so, an answer.
    expect(reader.coverageOf('zone', zoneId(emu, 'old.example'), 'entrypoint')).toMatchObject({ state: 'ok', items: 0 });
    expect(reader.coverageOf('zone', zoneId(emu, 'born-new.example'), 'entrypoint')).toMatchObject({ state: 'ok', items: 1 });
    for (const name of ['big.example', 'big-two.example']) {
      const kept = reader.zoneObject(zoneId(emu, name), 'account_entrypoint');
      if (!kept.known) throw new Error(kept.reason);
      expect(JSON.parse(kept.items[0]!.raw)).toMatchObject({ phase: 'http_request_firewall_managed', rules: [{ action: 'execute', expression: 'cf.zone.name eq "big.example"' }] });
    }
    expect(reader.coverageOf('zone', zoneId(emu, 'born-new.example'), 'account_entrypoint')?.state).toBe('skipped');
  });

  it('asks a zone born on the new managed rules nothing of the migration or the previous WAF', async () => {
    const emu = await emulator({ dataset: managed });
    const { reader } = await scan(emu, undefined);
    const id = zoneId(emu, 'born-new.example');
    for (const partition of ['migration_check', 'migration_config', 'waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'] as const) {
      expect(reader.coverageOf('zone', id, partition)?.state, partition).toBe('skipped');
    }
    // Only the zone still on the previous WAF is asked about its migration.
    expect(emu.stats().requests.byRoute['GET /zones/{zone_id}/waf_migration/check']).toBe(2);
  });

  it('takes a refused account entry point as not permitted: the scan stays complete', async () => {
    // An account-owned token cannot list accounts (400 code 1001), so an Enterprise zone's account
    // is asked for its entry point; the emulator refuses it (403 code 10000), as the live API
    // refuses a token without the permission.
    const refused: DatasetFile = {
      version: 1,
      accounts: [{ name: 'Standard', zones: ['big.example', 'big-two.example'].map((name) => ({ name, plan: 'enterprise' as const, migration: { state: 'none' as const } })) }],
    };
    const emu = await emulator({ dataset: refused, tokenKind: 'account' });
    const { reader, result } = await scan(emu, undefined);
    expect(result.missing).toEqual([]);
    expect(result.notPermitted.filter((m) => m.endpoint === 'account_entrypoint').map((m) => m.name).sort()).toEqual(['big-two.example', 'big.example']);
    // A refusal is the account's answer for each of its zones: asked once.
    expect(emu.stats().requests.byRoute['GET /accounts/{account_id}/rulesets/phases/http_request_firewall_managed/entrypoint']).toBe(1);
    expect(reader.coverageOf('zone', zoneId(emu, 'big.example'), 'account_entrypoint')).toMatchObject({ state: 'denied', httpStatus: 403 });
  });
});
