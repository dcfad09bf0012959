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
 * An account mapped to a credential that cannot see it. The zone list answers an account the
 * credential cannot see with an empty list (`GET /zones?account.id=...`, 200), as it does an id
 * that is no account; the account itself answers 404 code 1005 (vendor's API reference: account
 * details). docs/credentials.md: a credential that cannot read its accounts costs its own
 * accounts (recorded as not read, exit 3, the variable named), never a complete scan of none.
 */
const emulator = emulatorsClosedAfterEach();
const DEFAULT = 'canary-default-token-5151';
const ACME = 'canary-acme-token-6262';

async function accountIds(): Promise<{ acme: string; northwind: string }> {
  const probe = await emulator({ dataset: caseDataset() });
  const id = (prefix: string) => probe.org.state.accounts.find((a) => a.name.startsWith(prefix))!.id;
  return { acme: id('Acme'), northwind: id('Northwind') };
}

async function run(emu: RunningEmulator, dir: string, credentials: unknown, env: NodeJS.ProcessEnv) {
  writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify({ credentials }));
  return runInProcess(['scan', '--base-url', emu.url, '--db', join(dir, 'zonewarden.db'), '--budget', '1000000'], env, dir);
}

describe('an account mapped to a credential that cannot see it', () => {
  it('is recorded as not read, its stored zones kept, the scan incomplete (exit 3) naming the variable', async () => {
    const { acme, northwind } = await accountIds();
    const emu = await emulator({ dataset: caseDataset(), token: DEFAULT, accountTokens: [{ token: ACME, accounts: [acme] }] });
    const dir = mkdtempSync(join(tmpdir(), 'zw-unseen-'));
    // Night 1: the default credential reads everything.
    const first = await run(emu, dir, [], { ZONEWARDEN_API_TOKEN: DEFAULT });
    expect(first.code).toBe(0);
    // Night 2: Northwind mapped by mistake to Acme's account-owned token, which cannot see it.
    const second = await run(emu, dir, [{ accounts: [acme, northwind], tokenEnv: 'ZW_TOKEN_ACME' }], { ZONEWARDEN_API_TOKEN: DEFAULT, ZW_TOKEN_ACME: ACME });
    expect(second.code).toBe(3);
    expect(second.stderr).toContain('ZW_TOKEN_ACME');
    expect(second.stderr + second.stdout).not.toContain(ACME);
    const db = openSnapshot(join(dir, 'zonewarden.db'));
    try {
      const listing = db.prepare("SELECT state FROM coverage WHERE kind = 'account' AND scope_id = ? AND endpoint = 'zones' ORDER BY pk DESC LIMIT 1").pluck().get(northwind);
      expect(listing).toBe('denied');
      // Northwind's zones were not taken for deleted: no partition of theirs counts as attempted by night 2.
      const zones = emu.org.state.zones.filter((z) => z.accountId === northwind).length;
      expect(zones).toBeGreaterThan(0);
      const secondRef = db.prepare("SELECT max(last_attempt_scan) FROM partitions WHERE kind = 'account' AND scope_id = ?").pluck().get(northwind) as number;
      const closed = db
        .prepare("SELECT count(*) FROM partitions WHERE kind = 'zone' AND last_attempt_scan = ? AND scope_id IN (SELECT item_id FROM zones WHERE account_id = ?)")
        .pluck()
        .get(secondRef, northwind);
      expect(closed).toBe(0);
    } finally {
      db.close();
    }
  });

  it('an id in the credentials setting that is no account is not a complete scan', async () => {
    const { acme } = await accountIds();
    const emu = await emulator({ dataset: caseDataset(), token: DEFAULT, accountTokens: [{ token: ACME, accounts: [acme] }] });
    const dir = mkdtempSync(join(tmpdir(), 'zw-unseen-'));
    const r = await run(emu, dir, [{ accounts: ['0123456789abcdef0123456789abcdef'], tokenEnv: 'ZW_TOKEN_ACME' }], { ZONEWARDEN_API_TOKEN: DEFAULT, ZW_TOKEN_ACME: ACME });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('0123456789abcdef0123456789abcdef');
  });
});
