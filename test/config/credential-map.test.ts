import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCredentialMap, type CredentialMap } from '../../src/config/credential-map.js';
import { redactorFor, scanCredentials, secretsFromEnv } from '../../src/config/credentials.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { DEFAULT_CONFIG_FILE } from '../../src/config/options.js';
import { thrownBy } from '../support/errors.js';

/**
 * The config file's "credentials" section: accounts mapped to the environment variables holding
 * their credential. The vendor's rate limits page keeps a budget of 1,200 requests per 5 minutes
 * per user or account-owned token, so an organisation spread over several accounts may give each
 * its own credential; the file names variables, the secrets stay in the environment.
 */

const ACME = '7e16e189370958d4a5d8e47681896ba4';
const NORTHWIND = '966cad4e43b5ca177c519d68d5e6e90d';
const GLOBEX = '71cc76c3429329bdba3dcc8d09da7ee0';
const ACME_TOKEN = 'acme-owned-token-5f0c2b9d7e1a4c3b8d6e';
const GLOBEX_KEY = 'f00dfacecafe0123456789abcdef0123456789';
const DEFAULT_TOKEN = 'user-token-0a1b2c3d4e5f60718293';
const SOURCE = 'config file zw.json: credentials';

const configError = (fn: () => unknown): ConfigError => thrownBy(fn, ConfigError);
const parse = (raw: unknown) => parseCredentialMap(raw, SOURCE);

const MAP: CredentialMap = parse([
  { accounts: [ACME], tokenEnv: 'ZW_TOKEN_ACME' },
  { accounts: [GLOBEX], emailEnv: 'ZW_GLOBEX_EMAIL', keyEnv: 'ZW_GLOBEX_KEY' },
]);

describe('parseCredentialMap', () => {
  it('keeps the accounts (lower case) and the names of the variables, never values', () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token (one credential per account or group of accounts)
    expect(parse([{ accounts: [ACME.toUpperCase(), NORTHWIND], tokenEnv: 'ZW_TOKEN_ACME' }, { accounts: [GLOBEX], emailEnv: 'ZW_E', keyEnv: 'ZW_K' }])).toEqual([
      { accounts: [ACME, NORTHWIND], tokenEnv: 'ZW_TOKEN_ACME' },
      { accounts: [GLOBEX], emailEnv: 'ZW_E', keyEnv: 'ZW_K' },
    ]);
  });

  // vendor docs: API reference: an account identifier is 32 characters (hexadecimal in every example and real answer)
  it.each<[string, unknown, string]>([
    ['not a list', { accounts: [ACME] }, `${SOURCE}: expected a list of`],
    ['an entry that is not an object', ['ZW_TOKEN'], `${SOURCE}[0]: expected an object such as`],
    ['an unknown key', [{ accounts: [ACME], tokenEnv: 'ZW_T', token: 'x' }], `${SOURCE}[0]: unknown key "token"; known keys: accounts, tokenEnv, emailEnv, keyEnv`],
    // A secret pasted as a key is not quoted back: no message quotes a value.
    ['a secret pasted as a key', [{ accounts: [ACME], tokenEnv: 'ZW_T', 'canary-0f1e2d3c4b5a69788796a5b4c3d2e1f0': true }], `${SOURCE}[0]: unknown key of 39 characters (not quoted: it may be a value pasted by mistake); known keys:`],
    ['no accounts', [{ tokenEnv: 'ZW_T' }], `${SOURCE}[0]: "accounts" is missing: list the account ids this credential reads`],
    ['accounts not a list', [{ accounts: ACME, tokenEnv: 'ZW_T' }], `${SOURCE}[0].accounts: expected a list of account ids`],
    ['an empty accounts list', [{ accounts: [], tokenEnv: 'ZW_T' }], `${SOURCE}[0].accounts is empty: list the account ids this credential reads, or remove the entry`],
    ['a malformed id', [{ accounts: [ACME, 'acme-bank'], tokenEnv: 'ZW_T' }], `${SOURCE}[0].accounts[1] is not an account id: expected 32 hexadecimal characters`],
    ['an id of 31 characters', [{ accounts: [ACME.slice(1)], tokenEnv: 'ZW_T' }], `${SOURCE}[0].accounts[0] is not an account id`],
    ['an id that is not a string', [{ accounts: [42], tokenEnv: 'ZW_T' }], `${SOURCE}[0].accounts[0] is not an account id`],
    ['an id listed twice', [{ accounts: [ACME, ACME.toUpperCase()], tokenEnv: 'ZW_T' }], `${SOURCE}[0].accounts lists ${ACME} twice: remove one`],
    ['an account in two entries', [{ accounts: [ACME], tokenEnv: 'ZW_A' }, { accounts: [NORTHWIND, ACME], tokenEnv: 'ZW_B' }], `${SOURCE}: account ${ACME} is in entries 0 and 1; an account is read with one credential`],
    ['both forms', [{ accounts: [ACME], tokenEnv: 'ZW_T', emailEnv: 'ZW_E', keyEnv: 'ZW_K' }], `${SOURCE}[0]: both "tokenEnv" and a key pair ("emailEnv", "keyEnv"): give one credential per entry`],
    ['a token and half a key pair', [{ accounts: [ACME], tokenEnv: 'ZW_T', keyEnv: 'ZW_K' }], `${SOURCE}[0]: both "tokenEnv" and a key pair`],
    ['no credential', [{ accounts: [ACME] }], `${SOURCE}[0]: no credential: give "tokenEnv", or "emailEnv" and "keyEnv"`],
    ['half a key pair', [{ accounts: [ACME], emailEnv: 'ZW_E' }], `${SOURCE}[0]: "keyEnv" is missing: a key pair needs both "emailEnv" and "keyEnv"`],
    ['the other half', [{ accounts: [ACME], keyEnv: 'ZW_K' }], `${SOURCE}[0]: "emailEnv" is missing`],
    ['a variable named by two entries', [{ accounts: [ACME], tokenEnv: 'ZW_T' }, { accounts: [GLOBEX], tokenEnv: 'ZW_T' }], `${SOURCE}: ZW_T is named by entries 0 and 1; one credential is one budget at the API`],
    ['the default variable', [{ accounts: [ACME], tokenEnv: 'ZONEWARDEN_API_TOKEN' }], `${SOURCE}[0].tokenEnv: ZONEWARDEN_API_TOKEN is the default credential`],
  ])('refuses %s in one line naming the place and the fix', (_what, raw, start) => {
    const message = configError(() => parse(raw)).message;
    expect(message.startsWith(start)).toBe(true);
    expect(message).not.toContain('\n');
  });

  // issue 32 item 7 ("did you mean"): a name one edit from a known one suggests it; an unrelated name gets no guess.
  it('suggests the key a one-letter typo was meant to be, and nothing for an unrelated key', () => {
    expect(configError(() => parse([{ accounts: [ACME], tokenEnb: 'ZW_T' }])).message).toBe(
      `${SOURCE}[0]: unknown key "tokenEnb"; known keys: accounts, tokenEnv, emailEnv, keyEnv (the file names variables; their values stay in the environment) (did you mean "tokenEnv"?)`,
    );
    expect(configError(() => parse([{ accounts: [ACME], tokenEnv: 'ZW_T', region: 'eu' }])).message).not.toContain('did you mean');
  });

  it.each(['zw_token_acme', '1TOKEN', '', 'ZW TOKEN', 42])('refuses %j as a variable name', (name) => {
    expect(configError(() => parse([{ accounts: [ACME], tokenEnv: name }])).message).toBe(
      `${SOURCE}[0].tokenEnv: expected the NAME of an environment variable (upper-case letters, digits and _), never the credential itself`,
    );
  });

  it('never quotes a secret pasted in place of a variable name or an account id', () => {
    // vendor docs: API tokens are secrets (create API token: "copy the token ... it will not be shown again"); a mistake in the file must not publish one in a log
    const pasted = 'Xk9-pasted_real_TOKEN_value-0123456789ab';
    for (const raw of [[{ accounts: [ACME], tokenEnv: pasted }], [{ accounts: [pasted], tokenEnv: 'ZW_T' }], [{ accounts: [ACME], tokenEnv: 'ZW_T', token: pasted }]]) {
      expect(configError(() => parse(raw)).message).not.toContain(pasted);
    }
  });
});

describe('the "credentials" section in the config file', () => {
  function cwdWith(content: unknown): string {
    const dir = mkdtempSync(join(tmpdir(), 'zw-credmap-'));
    writeFileSync(join(dir, DEFAULT_CONFIG_FILE), JSON.stringify(content));
    return dir;
  }

  it('is read into config.credentials, and is empty when absent', () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token
    const cwd = cwdWith({ credentials: [{ accounts: [ACME], tokenEnv: 'ZW_TOKEN_ACME' }] });
    expect(loadConfig({ flags: {}, env: {}, cwd }).credentials).toEqual([{ accounts: [ACME], tokenEnv: 'ZW_TOKEN_ACME' }]);
    expect(loadConfig({ flags: {}, env: {}, cwd: cwdWith({}) }).credentials).toEqual([]);
  });

  it('is checked when the file is loaded, naming the file', () => {
    const cwd = cwdWith({ credentials: [{ accounts: [], tokenEnv: 'ZW_T' }] });
    expect(configError(() => loadConfig({ flags: {}, env: {}, cwd })).message).toBe(
      `config file ${join(cwd, DEFAULT_CONFIG_FILE)}: credentials[0].accounts is empty: list the account ids this credential reads, or remove the entry`,
    );
  });

  it('does not read the variables when loading: commands that never call the API need none of them', () => {
    const cwd = cwdWith({ credentials: [{ accounts: [ACME], tokenEnv: 'ZW_UNSET' }] });
    expect(() => loadConfig({ flags: {}, env: {}, cwd })).not.toThrow();
  });
});

describe('scanCredentials', () => {
  const env = { ZW_TOKEN_ACME: ACME_TOKEN, ZW_GLOBEX_EMAIL: 'globex-ops@example.net', ZW_GLOBEX_KEY: GLOBEX_KEY, ZONEWARDEN_API_TOKEN: DEFAULT_TOKEN };

  it('reads each mapped credential from its variable, labelled with the variable name', () => {
    // vendor docs: rate limits: 1,200 requests per 5 minutes per user or account-owned token (each labelled credential is paced apart)
    expect(scanCredentials(MAP, [], env)).toEqual({
      default: { label: 'ZONEWARDEN_API_TOKEN', credentials: { kind: 'token', token: DEFAULT_TOKEN } },
      mapped: [
        { label: 'ZW_TOKEN_ACME', variables: 'ZW_TOKEN_ACME', accounts: [ACME], credentials: { kind: 'token', token: ACME_TOKEN } },
        { label: 'ZW_GLOBEX_KEY', variables: 'ZW_GLOBEX_EMAIL and ZW_GLOBEX_KEY', accounts: [GLOBEX], credentials: { kind: 'key', email: 'globex-ops@example.net', key: GLOBEX_KEY } },
      ],
    });
  });

  it('names an unset variable, the entry and its accounts, and how to fix it', () => {
    expect(configError(() => scanCredentials(MAP, [], { ...env, ZW_TOKEN_ACME: '' })).message).toBe(
      `ZW_TOKEN_ACME is not set: the config file's credentials[0] reads the API token for account ${ACME} from it; set it, or remove the entry`,
    );
    expect(configError(() => scanCredentials(MAP, [], { ...env, ZW_GLOBEX_KEY: undefined })).message).toBe(
      `ZW_GLOBEX_KEY is not set: the config file's credentials[1] reads the API key for account ${GLOBEX} from it; set it, or remove the entry`,
    );
  });

  it('needs only the entries holding an account of a scan limited by --account', () => {
    // A scan of Acme alone reads nothing with Globex's key pair: its variables may be unset.
    const acmeOnly = scanCredentials(MAP, [ACME.toUpperCase()], { ...env, ZW_GLOBEX_EMAIL: undefined, ZW_GLOBEX_KEY: undefined });
    expect(acmeOnly.mapped.map((m) => m.label)).toEqual(['ZW_TOKEN_ACME']);
    // Without the default, a scan of Acme alone still needs nothing more.
    expect(scanCredentials(MAP, [ACME], { ZW_TOKEN_ACME: ACME_TOKEN }).mapped.map((m) => m.label)).toEqual(['ZW_TOKEN_ACME']);
    // The entry of an account in scope is still read, and still checked.
    expect(configError(() => scanCredentials(MAP, [GLOBEX], { ...env, ZW_GLOBEX_KEY: undefined })).message).toMatch(/^ZW_GLOBEX_KEY is not set/);
    // An unscoped scan needs every entry.
    expect(configError(() => scanCredentials(MAP, [], { ...env, ZW_GLOBEX_KEY: undefined })).message).toMatch(/^ZW_GLOBEX_KEY is not set/);
  });

  it.each([
    ['a line break', `${ACME_TOKEN}\n`],
    ['a space', `Bearer ${ACME_TOKEN}`],
    ['non-ASCII', `${ACME_TOKEN}é`],
  ])('refuses a value with %s without echoing it', (_what, value) => {
    // RFC 9110 5.5: field values are visible ASCII (obs-text aside); a line break would end the header
    const message = configError(() => scanCredentials(MAP, [], { ...env, ZW_TOKEN_ACME: value })).message;
    expect(message).toBe('ZW_TOKEN_ACME contains spaces, line breaks or non-ASCII characters; set it to the API token alone');
    expect(message).not.toContain(ACME_TOKEN);
  });

  it('lets the default credential be absent when --account names mapped accounts only', () => {
    // vendor docs: API tokens: an account-owned token belongs to one account; an organisation may read each account with its own
    const noDefault = { ...env, ZONEWARDEN_API_TOKEN: undefined };
    expect(scanCredentials(MAP, [ACME, GLOBEX.toUpperCase()], noDefault).default).toBeNull();
  });

  it('keeps the "no API credentials" error when an account in scope, or the whole organisation, needs the default', () => {
    // vendor answer: GET /accounts with an account-owned token is 400 code 1001, so listing the organisation needs the default credential
    const noDefault = { ...env, ZONEWARDEN_API_TOKEN: undefined };
    const hint = 'no API credentials: set ZONEWARDEN_API_TOKEN (or CLOUDFLARE_API_TOKEN), or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY): the accounts not listed in the config file\'s "credentials" need them (or limit the scan with --account to listed accounts)';
    expect(configError(() => scanCredentials(MAP, [], noDefault)).message).toBe(hint);
    expect(configError(() => scanCredentials(MAP, [ACME, NORTHWIND], noDefault)).message).toBe(hint);
    expect(configError(() => scanCredentials([], [], {})).message).toBe('no API credentials: set ZONEWARDEN_API_TOKEN (or CLOUDFLARE_API_TOKEN), or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY)');
  });

  it('refuses two variables holding one token, or key pairs of one user: the API would count them as one budget', () => {
    // vendor docs: rate limits: "per user", cumulative "regardless of whether the request is made via the dashboard, API key, or API token"
    const same = configError(() => scanCredentials(MAP, [], { ...env, ZW_TOKEN_ACME: DEFAULT_TOKEN }));
    expect(same.message).toBe('ZONEWARDEN_API_TOKEN and ZW_TOKEN_ACME hold the same token, which the API counts as one budget: put its accounts in one entry');
    expect(same.message).not.toContain(DEFAULT_TOKEN);
    const pairs = parse([
      { accounts: [ACME], emailEnv: 'ZW_E1', keyEnv: 'ZW_K1' },
      { accounts: [GLOBEX], emailEnv: 'ZW_E2', keyEnv: 'ZW_K2' },
    ]);
    const user = { ZW_E1: 'ops@example.net', ZW_K1: 'key-one-0123456789', ZW_E2: 'OPS@example.net', ZW_K2: 'key-two-0123456789' };
    const message = configError(() => scanCredentials(pairs, [ACME, GLOBEX], user)).message;
    expect(message).toBe('the key pairs of ZW_K1 and ZW_K2 belong to the same user (same e-mail), who has one budget at the API: put their accounts in one entry');
    expect(message).not.toContain('ops@example.net');
  });
});

describe('redaction of mapped secrets', () => {
  const env = { ZW_TOKEN_ACME: ACME_TOKEN, ZW_GLOBEX_EMAIL: 'globex-ops@example.net', ZW_GLOBEX_KEY: GLOBEX_KEY, ZONEWARDEN_API_TOKEN: DEFAULT_TOKEN };

  it('adds the mapping\'s tokens and keys to the secrets and its e-mails to the identities, from the map or a config', () => {
    // vendor docs: API tokens and keys are secrets; the key pair's e-mail identifies the user
    const expected = { secrets: [DEFAULT_TOKEN, ACME_TOKEN, GLOBEX_KEY], identities: ['globex-ops@example.net'] };
    expect(secretsFromEnv(env, MAP)).toEqual(expected);
    expect(secretsFromEnv(env, { credentials: MAP })).toEqual(expected);
  });

  it('keeps working without a mapping, for callers that have none', () => {
    expect(secretsFromEnv(env)).toEqual({ secrets: [DEFAULT_TOKEN], identities: [] });
    expect(redactorFor(env)(`t=${ACME_TOKEN}`)).toBe(`t=${ACME_TOKEN}`);
  });

  it('removes every mapped secret, even one the checks would refuse', () => {
    const redact = redactorFor({ ...env, ZW_TOKEN_ACME: 'bad token value\n' }, MAP);
    expect(redact(`a bad token value\n, ${GLOBEX_KEY} and globex-ops@example.net`)).toBe('a [redacted], [redacted] and [redacted]');
  });

  it('canary: a secret from a mapped variable never appears in the message of an error thrown for it', () => {
    // vendor docs: API tokens are secrets; our contract (design.md): credentials never reach logs, errors or reports
    const canary = 'CANARY-acme-token-9f8e7d6c5b4a39281706';
    const cases: NodeJS.ProcessEnv[] = [
      { ZW_TOKEN_ACME: `${canary} `, ZW_GLOBEX_EMAIL: 'globex-ops@example.net', ZW_GLOBEX_KEY: GLOBEX_KEY },
      { ZW_TOKEN_ACME: canary, ZW_GLOBEX_EMAIL: 'globex-ops@example.net', ZW_GLOBEX_KEY: `${canary}\r\n` },
      { ZW_TOKEN_ACME: canary, ZW_GLOBEX_EMAIL: 'globex-ops@example.net', ZW_GLOBEX_KEY: GLOBEX_KEY, ZONEWARDEN_API_TOKEN: canary },
      { ZW_TOKEN_ACME: canary, ZW_GLOBEX_EMAIL: 'globex-ops@example.net' },
    ];
    for (const env of cases) {
      const err = configError(() => scanCredentials(MAP, [ACME, GLOBEX], env));
      expect(err.message).not.toContain(canary.slice(0, 12));
      expect(String(err.stack)).not.toContain(canary.slice(0, 12));
    }
  });
});
