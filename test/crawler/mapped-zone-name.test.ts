import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * `--zone NAME` of a zone in an account mapped to a credential of its own. The zone list filtered
 * by name shows only zones the asking credential can see (vendor's API reference: list zones), so
 * a zone of an account-owned token's account, which the default user is not a member of, is
 * found by that token alone; a scan of the whole organisation reads it, and `--zone` must too.
 */
const emulator = emulatorsClosedAfterEach();
const DEFAULT = 'canary-default-token-7373';
const ACME = 'canary-acme-token-8484';
const GLOBEX = 'canary-globex-token-9595';

async function setup(): Promise<{ emu: RunningEmulator; acme: string; globex: string; zone: string }> {
  const probe = await emulator({ dataset: caseDataset() });
  const id = (prefix: string) => probe.org.state.accounts.find((a) => a.name.startsWith(prefix))!.id;
  const acme = id('Acme');
  const globex = id('Globex');
  const emu = await emulator({ dataset: caseDataset(), token: DEFAULT, accountTokens: [{ token: ACME, accounts: [acme] }, { token: GLOBEX, accounts: [globex] }] });
  const zone = emu.org.state.zones.find((z) => z.accountId === globex)!.name;
  return { emu, acme, globex, zone };
}

async function scan(emu: RunningEmulator, credentials: unknown, env: NodeJS.ProcessEnv, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'zw-mapped-zone-'));
  writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify({ credentials }));
  const r = await runInProcess(['scan', '--base-url', emu.url, '--db', join(dir, 'zonewarden.db'), '--budget', '1000000', ...args], env, dir);
  const db = openSnapshot(join(dir, 'zonewarden.db'));
  try {
    const names = db.prepare("SELECT DISTINCT name FROM zones").pluck().all() as string[];
    return { ...r, names };
  } finally {
    db.close();
  }
}

describe('--zone of a zone in a mapped account', () => {
  it('is found through the account\u2019s own credential when the default cannot see it', async () => {
    const { emu, globex, zone } = await setup();
    const r = await scan(emu, [{ accounts: [globex], tokenEnv: 'ZW_TOKEN_GLOBEX' }], { ZONEWARDEN_API_TOKEN: DEFAULT, ZW_TOKEN_GLOBEX: GLOBEX }, '--zone', zone);
    expect(r.code).toBe(0);
    expect(r.names).toEqual([zone]);
  });

  it('is found with mapped credentials only, in the second entry', async () => {
    const { emu, acme, globex, zone } = await setup();
    const r = await scan(
      emu,
      [
        { accounts: [acme], tokenEnv: 'ZW_TOKEN_ACME' },
        { accounts: [globex], tokenEnv: 'ZW_TOKEN_GLOBEX' },
      ],
      { ZW_TOKEN_ACME: ACME, ZW_TOKEN_GLOBEX: GLOBEX },
      '--account',
      `${acme},${globex}`,
      '--zone',
      zone,
    );
    expect(r.code).toBe(0);
    expect(r.names).toEqual([zone]);
  });
});
