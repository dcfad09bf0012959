import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * `zonewarden scan` reads per zone what the rules as configured declare: a rule switched off
 * everywhere costs no call, one enabled for some zones only still has its data read.
 */

const emulator = emulatorsClosedAfterEach();
const dataset: DatasetFile = { version: 1, accounts: [{ name: 'A', zones: [{ name: 'a.example', plan: 'pro' }, { name: 'b.example', plan: 'free' }] }] };
const DNSSEC = 'GET /zones/{zone_id}/dnssec';
const SETTINGS = 'GET /zones/{zone_id}/settings/{setting_id}';
const BOT_MANAGEMENT = 'GET /zones/{zone_id}/bot_management';
const ORIGIN_PULLS = 'GET /zones/{zone_id}/origin_tls_client_auth/settings';

async function scanWith(rules: Record<string, unknown>): Promise<Record<string, number>> {
  const emu = await emulator({ dataset });
  const dir = mkdtempSync(join(tmpdir(), 'zw-scan-reads-'));
  const config = join(dir, 'zonewarden.config.json');
  writeFileSync(config, JSON.stringify({ rules }));
  const r = await runInProcess(['scan', '--base-url', emu.url, '--db', join(dir, 'zw.db'), '--config', config, '--quiet'], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
  expect(r.code, r.stderr).toBe(0);
  return emu.stats().requests.byRoute;
}

describe('scan reads what the configured rules declare', () => {
  it('reads every declared read with every rule on: 13 settings each, the WAF switch on the Pro zone only', async () => {
    const byRoute = await scanWith({});
    expect(byRoute[DNSSEC]).toBe(2);
    // 14 settings: the 7 before (security-level-weak reads only browser_check) + security_level
    // (under-attack-left-on), development_mode, always_online, email_obfuscation, hotlink_protection,
    // ip_geolocation and challenge_ttl (one new rule each); + waf on the Pro zone. development_mode is
    // not read: the zone list carries it (vendor's API reference, zones: development_mode).
    expect(byRoute[SETTINGS]).toBe(2 * 13 + 1);
    // bot-fight-mode-off and origin-pulls-off read one object each per zone.
    expect(byRoute[BOT_MANAGEMENT]).toBe(2);
    expect(byRoute[ORIGIN_PULLS]).toBe(2);
  });

  it('skips the reads of rules switched off everywhere', async () => {
    const byRoute = await scanWith({ 'dnssec-not-active': { enabled: false }, 'ssl-mode-insecure': { enabled: false }, 'legacy-waf-off': { enabled: false } });
    expect(byRoute[DNSSEC]).toBeUndefined();
    // The 13 settings read without ssl (ssl-mode-insecure is its only reader): 12 per zone, and no waf.
    expect(byRoute[SETTINGS]).toBe(2 * 12);
  });

  it('keeps the reads of a rule enabled for some zones only', async () => {
    const byRoute = await scanWith({ 'dnssec-not-active': { enabled: false, overrides: [{ zones: ['a.example'], enabled: true }] } });
    expect(byRoute[DNSSEC]).toBe(2);
  });
});
