import { CREDENTIAL_ENV } from './options.js';
import { ConfigError } from './config-error.js';
import { didYouMean } from '../common/did-you-mean.js';

/**
 * The config file's `credentials` section: accounts mapped to the NAMES of the variables holding their credential
 * (secrets come from the environment, never from a file). Each is paced on its own: the vendor's rate limits page
 * gives 1,200 requests per 5 minutes "per user/account token".
 */
export interface CredentialMapEntry {
  /** Account ids (32 hexadecimal characters, lower case) read with this credential. */
  readonly accounts: readonly string[];
  /** The variable holding an API token; or the key pair's two variables below. */
  readonly tokenEnv?: string;
  readonly emailEnv?: string;
  readonly keyEnv?: string;
}

export type CredentialMap = readonly CredentialMapEntry[];

/** The section's key in the config file. */
export const CREDENTIALS_SECTION = 'credentials';

/** The vendor's account identifier: 32 hexadecimal characters (API reference, `account_id`). */
const ACCOUNT_ID = /^[0-9a-f]{32}$/i;
/**
 * Upper-case names only (the POSIX convention for environment variables): a token pasted where its
 * variable's name belongs is then refused rather than looked up, and no error ever quotes it.
 */
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
const ENTRY_KEYS = ['accounts', 'tokenEnv', 'emailEnv', 'keyEnv'] as const;
const SHAPE = '{"accounts": ["<account id>", ...], "tokenEnv": "<VARIABLE>"} or {"accounts": [...], "emailEnv": "<VARIABLE>", "keyEnv": "<VARIABLE>"}';
const DEFAULT_NAMES = new Set<string>(Object.values(CREDENTIAL_ENV));

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks the section's shape (the commands that call the API read the environment later, so offline
 * ones never need the variables). Errors never quote a value that could be a secret.
 */
export function parseCredentialMap(raw: unknown, source: string): CredentialMap {
  if (!Array.isArray(raw)) throw new ConfigError(`${source}: expected a list of ${SHAPE}`);
  const owner = new Map<string, number>();
  const variables = new Map<string, number>();
  const entries = raw.map((item, i): CredentialMapEntry => {
    const at = `${source}[${i}]`;
    if (!isObject(item)) throw new ConfigError(`${at}: expected an object such as ${SHAPE}`);
    for (const key of Object.keys(item)) {
      if (!(ENTRY_KEYS as readonly string[]).includes(key)) {
        // A short name is quoted; anything longer may be a secret pasted in the wrong place, and no message quotes a value.
        const named = /^[A-Za-z_][A-Za-z0-9_]{0,23}$/.test(key) ? `"${key}"` : `of ${key.length} characters (not quoted: it may be a value pasted by mistake)`;
        throw new ConfigError(`${at}: unknown key ${named}; known keys: ${ENTRY_KEYS.join(', ')} (the file names variables; their values stay in the environment)${didYouMean(key, ENTRY_KEYS)}`);
      }
    }
    const accounts = accountList(item['accounts'], at);
    for (const id of accounts) {
      const first = owner.get(id);
      if (first !== undefined) throw new ConfigError(`${source}: account ${id} is in entries ${first} and ${i}; an account is read with one credential: keep it in one entry`);
      owner.set(id, i);
    }
    const names = variableNames(item, at);
    for (const name of Object.values(names)) {
      const first = variables.get(name);
      if (first !== undefined) throw new ConfigError(`${source}: ${name} is named by entries ${first} and ${i}; one credential is one budget at the API: list all its accounts in one entry`);
      variables.set(name, i);
    }
    return Object.freeze({ accounts: Object.freeze(accounts), ...names });
  });
  return Object.freeze(entries);
}

function accountList(raw: unknown, at: string): string[] {
  if (raw === undefined) throw new ConfigError(`${at}: "accounts" is missing: list the account ids this credential reads`);
  if (!Array.isArray(raw)) throw new ConfigError(`${at}.accounts: expected a list of account ids`);
  if (raw.length === 0) throw new ConfigError(`${at}.accounts is empty: list the account ids this credential reads, or remove the entry`);
  const ids = raw.map((id, j) => {
    // The value is not quoted: a secret pasted in the wrong place must not reach a log.
    if (typeof id !== 'string' || !ACCOUNT_ID.test(id)) throw new ConfigError(`${at}.accounts[${j}] is not an account id: expected 32 hexadecimal characters (the id in the dashboard's URL)`);
    return id.toLowerCase();
  });
  const twice = ids.find((id, j) => ids.indexOf(id) !== j);
  if (twice !== undefined) throw new ConfigError(`${at}.accounts lists ${twice} twice: remove one`);
  return ids;
}

function variableNames(item: Record<string, unknown>, at: string): Pick<CredentialMapEntry, 'tokenEnv' | 'emailEnv' | 'keyEnv'> {
  const has = (key: string) => item[key] !== undefined;
  if (has('tokenEnv') && (has('emailEnv') || has('keyEnv'))) {
    throw new ConfigError(`${at}: both "tokenEnv" and a key pair ("emailEnv", "keyEnv"): give one credential per entry, a token or a key pair`);
  }
  if (has('tokenEnv')) return { tokenEnv: variableName(item['tokenEnv'], `${at}.tokenEnv`) };
  if (has('emailEnv') && has('keyEnv')) return { emailEnv: variableName(item['emailEnv'], `${at}.emailEnv`), keyEnv: variableName(item['keyEnv'], `${at}.keyEnv`) };
  if (has('emailEnv') || has('keyEnv')) {
    const missing = has('emailEnv') ? 'keyEnv' : 'emailEnv';
    throw new ConfigError(`${at}: "${missing}" is missing: a key pair needs both "emailEnv" and "keyEnv"`);
  }
  throw new ConfigError(`${at}: no credential: give "tokenEnv", or "emailEnv" and "keyEnv" (names of environment variables)`);
}

function variableName(raw: unknown, at: string): string {
  if (typeof raw !== 'string' || !ENV_NAME.test(raw)) {
    throw new ConfigError(`${at}: expected the NAME of an environment variable (upper-case letters, digits and _), never the credential itself`);
  }
  if (DEFAULT_NAMES.has(raw)) {
    throw new ConfigError(`${at}: ${raw} is the default credential, which every account not listed here uses already: name another variable, or remove the entry`);
  }
  return raw;
}
