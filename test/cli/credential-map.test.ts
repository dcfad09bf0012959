import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * `scan` with the config file's "credentials": accounts mapped to the variables holding their
 * credential (the vendor's rate limits page keeps 1,200 requests per 5 minutes per user or
 * account-owned token, so each credential is a budget of its own).
 */

const emulator = emulatorsClosedAfterEach();
const ACME_TOKEN = 'acme-owned-token-5f0c2b9d7e1a4c3b';

async function withAcmeToken(): Promise<{ emu: RunningEmulator; acme: string }> {
  const probe = await emulator({ dataset: caseDataset() });
  const acme = probe.org.state.accounts.find((a) => a.name.startsWith('Acme'))!.id;
  const emu = await emulator({ dataset: caseDataset(), accountTokens: [{ token: ACME_TOKEN, accounts: [acme], label: 'acme' }] });
  return { emu, acme };
}

function scan(emu: RunningEmulator, acme: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'zw-credmap-cli-'));
  writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify({ credentials: [{ accounts: [acme], tokenEnv: 'ZW_TOKEN_ACME' }] }));
  return runInProcess(['scan', '--base-url', emu.url, '--db', join(dir, 'zonewarden.db'), '--budget', '1000000', '--quiet', ...args], env, dir);
}

describe('scan with a credential per account', () => {
  it('scans a mapped account with its account-owned token alone, without the default credential', async () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token; API tokens: an account-owned token reads its account
    const { emu, acme } = await withAcmeToken();
    const r = await scan(emu, acme, { ZW_TOKEN_ACME: ACME_TOKEN }, '--account', acme);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Every request went with the account's own token, counted in its own budget.
    expect(Object.keys(emu.stats().byCredential)).toEqual(['acme']);
  });

  it('removes a mapped credential from what any command prints: `api` echoing it in a path', async () => {
    // docs/credentials.md: every value the mapping names is removed from logs, errors and output, as the default credential is
    const { emu, acme } = await withAcmeToken();
    const dir = mkdtempSync(join(tmpdir(), 'zw-credmap-api-'));
    writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify({ credentials: [{ accounts: [acme], tokenEnv: 'ZW_TOKEN_ACME' }] }));
    const r = await runInProcess(['api', `/zones/${ACME_TOKEN}`, '--base-url', emu.url], { ZONEWARDEN_API_TOKEN: TOKEN, ZW_TOKEN_ACME: ACME_TOKEN }, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/zones/[redacted]');
    expect(`${r.stdout}${r.stderr}`).not.toContain(ACME_TOKEN);
  });

  it('scans with the default credential and the mapping together', async () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token
    const { emu, acme } = await withAcmeToken();
    const r = await scan(emu, acme, { ZONEWARDEN_API_TOKEN: TOKEN, ZW_TOKEN_ACME: ACME_TOKEN });
    expect(r.code).toBe(0);
    expect(emu.stats().byCredential['user']!.requests).toBeGreaterThan(0);
  });

  it('needs the default credential for the whole organisation: exit 2, one line', async () => {
    // vendor answer: an account-owned token cannot list accounts (GET /accounts: 400 code 1001)
    const { emu, acme } = await withAcmeToken();
    const r = await scan(emu, acme, { ZW_TOKEN_ACME: ACME_TOKEN });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'zonewarden scan: no API credentials: set ZONEWARDEN_API_TOKEN (or CLOUDFLARE_API_TOKEN), or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY): the accounts not listed in the config file\'s "credentials" need them (or limit the scan with --account to listed accounts)\n',
    );
    expect(emu.stats().requests.total).toBe(0);
  });

  it('names an unset mapped variable before any request, and never prints a mapped secret', async () => {
    // vendor docs: API tokens are secrets; our contract (design.md): credentials never reach output or logs
    const { emu, acme } = await withAcmeToken();
    const unset = await scan(emu, acme, { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toBe(`zonewarden scan: ZW_TOKEN_ACME is not set: the config file's credentials[0] reads the API token for account ${acme} from it; set it, or remove the entry\n`);
    expect(emu.stats().requests.total).toBe(0);

    const verbose = await scan(emu, acme, { ZW_TOKEN_ACME: ACME_TOKEN }, '--account', acme, '--verbose');
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain('GET /zones');
    expect(verbose.stdout + verbose.stderr).not.toContain(ACME_TOKEN);
  });
});
