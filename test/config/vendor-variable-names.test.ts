import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parseCredentialMap } from '../../src/config/credential-map.js';
import { credentialsFromEnv, ignoredVendorVariables, redactorFor, scanCredentials, secretsFromEnv } from '../../src/config/credentials.js';
import { ConfigError } from '../../src/config/load.js';
import { runCli } from '../support/cli.js';
import { echoingDataset } from '../support/canary-dataset.js';
import { reportText } from '../support/files.js';
import { thrownBy } from '../support/errors.js';
import { emulatorsClosedAfterEach } from '../support/http.js';

/**
 * The credential under the names the vendor's own tools read. Wrangler's "System environment
 * variables" page lists CLOUDFLARE_API_TOKEN, and CLOUDFLARE_API_KEY "used with CLOUDFLARE_EMAIL"
 * for the older key-pair scheme; the Terraform provider reads the same three names for its
 * api_token, api_key and api_email. Ours (ZONEWARDEN_API_*) come first whenever one is set.
 */

const OURS = 'zw-our-token-0123456789abcdef';
const THEIRS = 'zw-vendor-token-fedcba9876543210';
const EMAIL = 'ops@example.com';
const KEY = 'c2547eb745079dac9320b638f5e225cf483cc5cfdda41';
const ACME = '023e105f4ecef8ad9ca31a8372d0c353';

const configError = (fn: () => unknown): ConfigError => thrownBy(fn, ConfigError);

describe('reading the vendor names', () => {
  it('uses CLOUDFLARE_API_TOKEN when no ZONEWARDEN_API_* variable is set', () => {
    // vendor docs: Wrangler system environment variables: CLOUDFLARE_API_TOKEN, "the API token for your Cloudflare account"
    expect(credentialsFromEnv({ CLOUDFLARE_API_TOKEN: THEIRS })).toEqual({ kind: 'token', token: THEIRS });
  });

  it('uses CLOUDFLARE_EMAIL with CLOUDFLARE_API_KEY as the key pair', () => {
    // vendor docs: Wrangler system environment variables: CLOUDFLARE_API_KEY, the older method, used with CLOUDFLARE_EMAIL
    expect(credentialsFromEnv({ CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY })).toEqual({ kind: 'key', email: EMAIL, key: KEY });
  });

  it('prefers the vendor token over the vendor key pair, as with ours', () => {
    // vendor docs: Terraform provider: api_token is "the preferred authorization scheme", the key pair "the previous" one
    expect(credentialsFromEnv({ CLOUDFLARE_API_TOKEN: THEIRS, CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY })).toEqual({ kind: 'token', token: THEIRS });
  });

  it('prefers ZONEWARDEN_API_TOKEN over CLOUDFLARE_API_TOKEN', () => {
    // decision (the vendor's docs say nothing of other tools' names): the variable named for zonewarden is the deliberate choice
    expect(credentialsFromEnv({ ZONEWARDEN_API_TOKEN: OURS, CLOUDFLARE_API_TOKEN: THEIRS })).toEqual({ kind: 'token', token: OURS });
  });

  it('prefers our key pair over the vendor token: any ZONEWARDEN_API_* variable set means ours alone are read', () => {
    // decision: a token exported for Wrangler must not displace the key pair set for zonewarden
    expect(credentialsFromEnv({ ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: KEY, CLOUDFLARE_API_TOKEN: THEIRS })).toEqual({ kind: 'key', email: EMAIL, key: KEY });
  });

  it('does not complete half of our key pair with a vendor variable, and says why', () => {
    // decision: the two names of a pair come from one family, never one of each
    const err = configError(() => credentialsFromEnv({ ZONEWARDEN_API_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY }));
    expect(err.message).toBe(
      'ZONEWARDEN_API_KEY is not set: the key pair needs both ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (CLOUDFLARE_API_KEY is not read: the CLOUDFLARE_* names are read only when no ZONEWARDEN_API_* variable is set)',
    );
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain(EMAIL);
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['the key', { CLOUDFLARE_EMAIL: EMAIL }, 'CLOUDFLARE_API_KEY is not set: the key pair needs both CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY'],
    ['the email', { CLOUDFLARE_API_KEY: KEY }, 'CLOUDFLARE_EMAIL is not set: the key pair needs both CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY'],
  ])('names %s by its vendor name when only half of the vendor key pair is set', (_what, env, message) => {
    // vendor docs: Wrangler system environment variables: the API key is used with CLOUDFLARE_EMAIL
    const err = configError(() => credentialsFromEnv(env));
    expect(err.message).toBe(message);
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain(EMAIL);
  });

  it('refuses a vendor token with a line break by its name, without echoing it', () => {
    // RFC 9110 5.5: a field value holds no CR or LF
    const err = configError(() => credentialsFromEnv({ CLOUDFLARE_API_TOKEN: `${THEIRS}\n` }));
    expect(err.message).toBe('CLOUDFLARE_API_TOKEN contains spaces, line breaks or non-ASCII characters; set it to the token alone');
    expect(err.message).not.toContain(THEIRS);
  });

  it('names both spellings when there is no credential at all', () => {
    // vendor docs: Wrangler system environment variables and Terraform provider: the CLOUDFLARE_* names
    expect(configError(() => credentialsFromEnv({ CF_API_TOKEN: THEIRS })).message).toBe(
      'no API credentials: set ZONEWARDEN_API_TOKEN (or CLOUDFLARE_API_TOKEN), or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY)',
    );
  });
});

describe('a scan with the vendor names', () => {
  it('labels the default credential by the variable it came from, never its value', () => {
    // vendor docs: rate limits are kept per user or account-owned token; the label names which credential a budget is
    const found = scanCredentials([], [], { CLOUDFLARE_API_TOKEN: THEIRS });
    expect(found.default).toEqual({ label: 'CLOUDFLARE_API_TOKEN', credentials: { kind: 'token', token: THEIRS } });
    expect(scanCredentials([], [], { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY }).default?.label).toBe('CLOUDFLARE_API_KEY');
  });

  it('leaves a vendor variable to the config file mapping that names it, instead of reading it as the default too', () => {
    // vendor docs: API tokens: an account-owned token belongs to one account; one named for an account is for that account
    const map = parseCredentialMap([{ accounts: [ACME], tokenEnv: 'CLOUDFLARE_API_TOKEN' }], 'credentials');
    const found = scanCredentials(map, [ACME], { CLOUDFLARE_API_TOKEN: THEIRS });
    expect(found.default).toBeNull();
    expect(found.mapped.map((m) => m.label)).toEqual(['CLOUDFLARE_API_TOKEN']);
    expect(credentialsFromEnv({ CLOUDFLARE_API_TOKEN: THEIRS, ZONEWARDEN_API_TOKEN: OURS }, map)).toEqual({ kind: 'token', token: OURS });
    expect(() => credentialsFromEnv({ CLOUDFLARE_API_TOKEN: THEIRS }, map)).toThrow(/^no API credentials/);
    // The whole organisation needs a default, which the mapped vendor variable is not: the error does not ask to set it.
    expect(configError(() => scanCredentials(map, [], { CLOUDFLARE_API_TOKEN: THEIRS })).message).toBe(
      'no default API credential: set ZONEWARDEN_API_TOKEN, or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (the CLOUDFLARE_* variables are mapped to accounts of their own in the config file\'s "credentials", so they are not the default): the accounts not listed in the config file\'s "credentials" need them (or limit the scan with --account to listed accounts)',
    );
  });
});

describe('the note when both spellings are set', () => {
  it.each<[string, NodeJS.ProcessEnv, string | null]>([
    ['unset vendor names', { ZONEWARDEN_API_TOKEN: OURS }, null],
    ['the same token under both names', { ZONEWARDEN_API_TOKEN: OURS, CLOUDFLARE_API_TOKEN: OURS }, null],
    ['vendor names only', { CLOUDFLARE_API_TOKEN: THEIRS }, null],
    [
      'another token',
      { ZONEWARDEN_API_TOKEN: OURS, CLOUDFLARE_API_TOKEN: THEIRS },
      'CLOUDFLARE_API_TOKEN is set too, to another value, and ignored: the default credential is read from ZONEWARDEN_API_TOKEN (the ZONEWARDEN_API_* variables come first)',
    ],
    [
      'a vendor key pair beside our token',
      { ZONEWARDEN_API_TOKEN: OURS, CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY },
      'CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY are set too, to another value, and ignored: the default credential is read from ZONEWARDEN_API_TOKEN (the ZONEWARDEN_API_* variables come first)',
    ],
    [
      'a vendor token beside our key pair',
      { ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: KEY, CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_TOKEN: THEIRS },
      'CLOUDFLARE_API_TOKEN is set too, to another value, and ignored: the default credential is read from ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (the ZONEWARDEN_API_* variables come first)',
    ],
  ])('with %s', (_what, env, note) => {
    // decision: ours win silently when the values agree; otherwise one line names the variables, never their values
    expect(ignoredVendorVariables(env)).toBe(note);
    if (note) for (const value of [OURS, THEIRS, EMAIL, KEY]) expect(note).not.toContain(value);
  });

  it('says nothing of a vendor variable the config file maps to accounts of its own', () => {
    // vendor docs: API tokens: an account-owned token read for its own account is in use, not ignored
    const map = parseCredentialMap([{ accounts: [ACME], tokenEnv: 'CLOUDFLARE_API_TOKEN' }], 'credentials');
    expect(ignoredVendorVariables({ ZONEWARDEN_API_TOKEN: OURS, CLOUDFLARE_API_TOKEN: THEIRS }, map)).toBeNull();
  });
});

describe('redaction of the vendor names', () => {
  it('counts the vendor token and key as secrets and the vendor e-mail as an identity, whether in use or not', () => {
    // vendor docs: API tokens and the Global API key grant access to the account: a secret under any name
    const env = { ZONEWARDEN_API_TOKEN: OURS, CLOUDFLARE_API_TOKEN: THEIRS, CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY };
    expect(secretsFromEnv(env)).toEqual({ secrets: [OURS, THEIRS, KEY], identities: [EMAIL] });
    const redact = redactorFor(env);
    expect(redact(`a ${THEIRS} b ${KEY} c ${EMAIL}`)).not.toMatch(new RegExp(`${THEIRS}|${KEY}|${EMAIL}`));
  });
});

describe('canary: a credential set only under the vendor names against the emulator', () => {
  const emulator = emulatorsClosedAfterEach();
  const canary = { token: 'zw-vendor-canary-token-4b7e1d9a2c', email: 'vendor-canary-3f1a@example.net', key: 'zw-vendor-canary-key-8c2d6e0f15' };

  it.each([
    ['CLOUDFLARE_API_TOKEN', { CLOUDFLARE_API_TOKEN: canary.token }, [canary.token]],
    ['CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY', { CLOUDFLARE_EMAIL: canary.email, CLOUDFLARE_API_KEY: canary.key }, [canary.key, canary.email]],
  ])('scans with %s and never prints, stores or reports it', async (_names, env, canaries) => {
    // vendor docs: Wrangler system environment variables: the token (or key with e-mail) authenticates "CI/CD, and other automation"
    const emu = await emulator({ dataset: echoingDataset(canaries[0]!), token: canary.token, email: canary.email, key: canary.key });
    const dir = mkdtempSync(join(tmpdir(), 'zw-vendor-names-'));
    const db = join(dir, 'zonewarden.db');
    const out = join(dir, 'reports');
    const r = await runCli(['run', '--base-url', emu.url, '--db', db, '--budget', '1000000', '--out', out, '--format', 'html,md,json,csv', '--fail-on', 'none', '--verbose'], env);
    // Exit 0: the emulator accepts only this credential, so the vendor names were read.
    expect(r.code, r.stderr).toBe(0);
    const sqlite = new Database(db, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT item_id, zone_id FROM dns_records').all()).toEqual([{ item_id: 'rec-[redacted]', zone_id: 'zone-[redacted]' }]);
    } finally {
      sqlite.close();
    }
    const text = reportText(out);
    expect(text).toContain('zone-[redacted]');
    for (const value of canaries) {
      expect(r.stdout + r.stderr).not.toContain(value);
      for (const file of [db, `${db}-wal`, `${db}-shm`]) if (existsSync(file)) expect(readFileSync(file).includes(value), file).toBe(false);
      expect(text).not.toContain(value);
    }
  });

  it('uses ZONEWARDEN_API_TOKEN when both are set, says so by name, and still never prints the vendor value', async () => {
    // decision: ours first; the ignored vendor value is redacted like any credential in the environment
    const ours = 'zw-our-canary-token-71c0e5a9b3';
    const emu = await emulator({ dataset: echoingDataset(canary.token), token: ours });
    const r = await runCli(['api', '/zones', '--paginate', '--base-url', emu.url], { ZONEWARDEN_API_TOKEN: ours, CLOUDFLARE_API_TOKEN: canary.token });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('CLOUDFLARE_API_TOKEN is set too, to another value, and ignored: the default credential is read from ZONEWARDEN_API_TOKEN');
    expect(r.stdout).toContain('zone-[redacted]');
    expect(r.stdout + r.stderr).not.toContain(canary.token);
    expect(r.stdout + r.stderr).not.toContain(ours);
  });
});
