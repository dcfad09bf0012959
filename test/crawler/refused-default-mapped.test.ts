import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * A refused default credential beside accounts mapped to credentials of their own. The API refuses
 * an unknown token with 403 code 9109 (vendor's API reference: errors); docs/credentials.md: a
 * refused credential costs its own accounts, not the scan, and only when every credential is
 * refused does the scan stop at once (exit 2), naming every refused credential's variables.
 */
const emulator = emulatorsClosedAfterEach();
const DEFAULT = 'canary-default-token-1212';
const ACME = 'canary-acme-token-3434';

async function setup() {
  const probe = await emulator({ dataset: caseDataset() });
  const acme = probe.org.state.accounts.find((a) => a.name.startsWith('Acme'))!.id;
  const emu = await emulator({ dataset: caseDataset(), token: DEFAULT, accountTokens: [{ token: ACME, accounts: [acme] }] });
  const dir = mkdtempSync(join(tmpdir(), 'zw-refused-default-'));
  writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify({ credentials: [{ accounts: [acme], tokenEnv: 'ZW_TOKEN_ACME' }] }));
  const scan = (env: NodeJS.ProcessEnv) => runInProcess(['scan', '--base-url', emu.url, '--db', join(dir, 'zonewarden.db'), '--budget', '1000000'], env, dir);
  return { emu, acme, scan };
}

describe('a refused default credential beside a mapped one', () => {
  it('costs the default credential its accounts; the mapped account is read with its own (exit 3)', async () => {
    const { emu, acme, scan } = await setup();
    const r = await scan({ ZONEWARDEN_API_TOKEN: 'canary-revoked-token-5656', ZW_TOKEN_ACME: ACME });
    expect(r.code).toBe(3);
    expect(emu.stats().byCredential[`account-token:${acme}`]?.requests ?? 0).toBeGreaterThan(0);
    expect(r.stderr + r.stdout).not.toContain('canary-revoked-token-5656');
  });

  it('stops at once when every credential is refused, naming each (exit 2)', async () => {
    const { scan } = await setup();
    const r = await scan({ ZONEWARDEN_API_TOKEN: 'canary-revoked-token-5656', ZW_TOKEN_ACME: 'canary-revoked-token-7878' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ZW_TOKEN_ACME');
    expect(r.stderr).toContain('ZONEWARDEN_API_TOKEN');
    expect(r.stderr + r.stdout).not.toContain('canary-revoked');
  });
});
