import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * `scan` and `run` against the answers the real API gives that the spec does not list: what the
 * user sees (exit code, the one line), what is stored, and what the reports say.
 */

const emulator = emulatorsClosedAfterEach();

function job(baseUrl: string, token = TOKEN) {
  const cwd = mkdtempSync(join(tmpdir(), 'zw-real-cli-'));
  const run = (...args: string[]) => runInProcess([...args, '--base-url', baseUrl, '--budget', '1000000', '--retries', '0'], { ZONEWARDEN_API_TOKEN: token }, cwd);
  const scans = () => {
    if (!existsSync(join(cwd, 'zonewarden.db'))) return [];
    const db = openSnapshot(join(cwd, 'zonewarden.db'));
    try {
      return db.prepare('SELECT status FROM scans ORDER BY id').all() as Array<{ status: string }>;
    } finally {
      db.close();
    }
  };
  return { cwd, run, scans };
}

const url = (emu: RunningEmulator) => emu.url;

describe('refused credentials on the first call', () => {
  // docs/api-surface.md, answers beyond the spec: 403 9109 "Invalid access token".
  it('scan exits 2 with one line naming the variable, and records no complete scan', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const { run, scans } = job(url(emu), 'revoked-canary-token');
    const r = await run('scan');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^zonewarden scan: the API refused the credentials \(GET \/accounts: HTTP 403, 9109 Invalid access token\): check ZONEWARDEN_API_TOKEN \(or CLOUDFLARE_API_TOKEN\) \(a valid, unexpired token or key with read access\)$/m);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('revoked-canary-token');
    expect(scans()).toEqual([{ status: 'aborted' }]);
  });

  it('run exits 2 and writes no reports of an empty organisation', async () => {
    // docs/api-surface.md, answers beyond the spec: some endpoints answer 401 code 10000 "Authentication error".
    const emu = await emulator({ dataset: caseDataset(), badCredentials: '401' });
    const { cwd, run } = job(url(emu), 'revoked-canary-token');
    const r = await run('run', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zonewarden run: the API refused the credentials \(GET \/accounts: HTTP 401, 10000 Authentication error\)/);
    expect(r.stdout).toBe('');
    expect(readdirSync(cwd).filter((f) => f !== 'zonewarden.db' && !f.startsWith('zonewarden.db-'))).toEqual([]);
  });
});

describe('an API that cannot be reached', () => {
  it('run exits 2 on a refused connection, the cause in one line, and writes no reports', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const gone = emu.url;
    await emu.close();
    const { cwd, run } = job(gone);
    const r = await run('run', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^zonewarden run: the API at http:\/\/127\.0\.0\.1:\d+\/client\/v4 cannot be reached: GET \/accounts: connection failed \(ECONNREFUSED\)/);
    expect(readdirSync(cwd).filter((f) => !f.startsWith('zonewarden.db'))).toEqual([]);
  });
});

describe('an account-owned token', () => {
  // docs/api-surface.md, answers beyond the spec: GET /accounts answers such a token with 400 code 1001.
  it('scan is complete (exit 0) and says the accounts and invites are not readable with these credentials', async () => {
    const emu = await emulator({ dataset: caseDataset(), tokenKind: 'account' });
    const { run, scans } = job(url(emu));
    const r = await run('scan');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/scan 1 complete in .*: 1 accounts, \d+ zones/);
    expect(r.stderr).toContain('not readable with these credentials: user: accounts (denied): these credentials are an account-owned token');
    expect(r.stderr).toMatch(/not readable with these credentials: user: invites \(denied\)/);
    expect(scans()).toEqual([{ status: 'complete' }]);
  });
});

describe('a permission the token lacks, later in the scan', () => {
  it('scan exits 3 naming the part as denied, and keeps the rest', async () => {
    // docs/api-surface.md, answers beyond the spec: 403 9109 "Unauthorized to access requested resource".
    const emu = await emulator({ dataset: caseDataset(), denyRoutes: ['GET /zones/{zone_id}/firewall/rules'] });
    const { run, scans } = job(url(emu));
    const r = await run('scan');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/firewall_rules \(denied\): GET \/zones\/[0-9a-f]+\/firewall\/rules: HTTP 403, API error 9109 Unauthorized to access requested resource/);
    expect(scans()).toEqual([{ status: 'incomplete' }]);
  });
});

describe('retired endpoints', () => {
  // vendor SDK (cloudflare 7.x): the URI-based overrides list "returns 410 Gone".
  it('run completes, and the report says which parts the API retired', async () => {
    const emu = await emulator({ dataset: caseDataset(), apiEra: 'retired' });
    const { run, scans } = job(url(emu));
    const r = await run('run', '--quiet', '--format', 'md,json', '--fail-on', 'none');
    expect(r.code, r.stderr).toBe(0);
    expect(scans()).toEqual([{ status: 'complete' }]);
    const [mdPath, jsonPath] = r.stdout.split('\n');
    const md = readFileSync(mdPath!, 'utf8');
    // The migration check answered compatible: false: the zone fails though the overrides that block it
    // cannot be listed any more (API spec: Managed-rules migration, rule 4; the list answers 410 Gone).
    const findings = (JSON.parse(readFileSync(jsonPath!, 'utf8')) as { findings: Array<{ rule: string; status: string; zone: { name: string } | null; message: string }> }).findings;
    expect(findings.find((f) => f.rule === 'migration-incompatible' && f.zone?.name === 'acme-bank.example')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/could not be listed because the API retired that list \(410 Gone\)/),
    });
    expect(md).toContain('The scan read everything in its scope.');
    expect(md).toMatch(/Retired by the API \(not a gap in the scan; checks that need it are unknown\): the .* of \d+ part\(s\): the API retired this endpoint \(HTTP 410/);
  });
});
