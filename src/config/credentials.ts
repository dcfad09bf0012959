import { createRedactor, type Redact } from '../common/redact.js';
import { CREDENTIAL_ENV } from './options.js';
import { ConfigError } from './load.js';
import type { CredentialMap, CredentialMapEntry } from './credential-map.js';

/** API credentials, read from the environment only (design.md). */
export type Credentials = { kind: 'token'; token: string } | { kind: 'key'; email: string; key: string };

/** Header values must be single-line printable ASCII; anything else would be refused or mangled. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

const NO_CREDENTIALS = `no API credentials: set ${CREDENTIAL_ENV.token}, or ${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key}`;

export function credentialsFromEnv(env: NodeJS.ProcessEnv): Credentials {
  const found = defaultCredentialsFromEnv(env);
  if (!found) throw new ConfigError(NO_CREDENTIALS);
  return found;
}

/** The default credential (the ZONEWARDEN_API_* variables), or null when none of them is set. */
export function defaultCredentialsFromEnv(env: NodeJS.ProcessEnv): Credentials | null {
  const token = env[CREDENTIAL_ENV.token];
  const email = env[CREDENTIAL_ENV.email];
  const key = env[CREDENTIAL_ENV.key];
  if (token) {
    // Never echo the value: say what is wrong with it.
    if (!HEADER_SAFE.test(token)) throw new ConfigError(`${CREDENTIAL_ENV.token} contains spaces, line breaks or non-ASCII characters; set it to the token alone`);
    return { kind: 'token', token };
  }
  if (email && key) {
    if (!HEADER_SAFE.test(email)) throw new ConfigError(`${CREDENTIAL_ENV.email} contains spaces, line breaks or non-ASCII characters`);
    if (!HEADER_SAFE.test(key)) throw new ConfigError(`${CREDENTIAL_ENV.key} contains spaces, line breaks or non-ASCII characters`);
    return { kind: 'key', email, key };
  }
  if (email || key) {
    const missing = email ? CREDENTIAL_ENV.key : CREDENTIAL_ENV.email;
    throw new ConfigError(`${missing} is not set: the key pair needs both ${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key}`);
  }
  return null;
}

/** A credential with the accounts it reads; `label` is its variable's name, never its value. */
export interface LabelledCredentials {
  label: string;
  credentials: Credentials;
}

export interface MappedCredentials extends LabelledCredentials {
  accounts: readonly string[];
}

/** Every credential a scan uses: the default (null when absent and not needed) and the mapped ones. */
export interface ScanCredentials {
  default: LabelledCredentials | null;
  mapped: MappedCredentials[];
}

/**
 * The credentials of the config file's `credentials` section, read from the variables it names.
 * The default credential may be absent only when the scan is limited to accounts (`scopeAccounts`,
 * the --account list) that are all mapped; a whole-organisation scan needs it to list accounts,
 * which an account-owned token cannot do (GET /accounts answers 400 code 1001).
 */
export function scanCredentials(map: CredentialMap, scopeAccounts: readonly string[], env: NodeJS.ProcessEnv): ScanCredentials {
  const mapped = map.map((entry, i) => ({ ...mappedCredentials(entry, i, env), accounts: entry.accounts }));
  const found = defaultCredentialsFromEnv(env);
  const covered = new Set(map.flatMap((e) => e.accounts));
  const allMapped = scopeAccounts.length > 0 && scopeAccounts.every((id) => covered.has(id.toLowerCase()));
  if (!found && !allMapped) {
    throw new ConfigError(map.length === 0 ? NO_CREDENTIALS : `${NO_CREDENTIALS}: the accounts not listed in the config file's "credentials" need them (or limit the scan with --account to listed accounts)`);
  }
  const fallback = found && { label: found.kind === 'token' ? CREDENTIAL_ENV.token : CREDENTIAL_ENV.key, credentials: found };
  refuseShared([...(fallback ? [fallback] : []), ...mapped]);
  return { default: fallback, mapped };
}

function mappedCredentials(entry: CredentialMapEntry, index: number, env: NodeJS.ProcessEnv): LabelledCredentials {
  const value = (name: string, what: string): string => {
    const v = env[name];
    if (!v) throw new ConfigError(`${name} is not set: the config file's credentials[${index}] reads ${what} for ${accountsText(entry.accounts)} from it; set it, or remove the entry`);
    if (!HEADER_SAFE.test(v)) throw new ConfigError(`${name} contains spaces, line breaks or non-ASCII characters; set it to ${what} alone`);
    return v;
  };
  if (entry.tokenEnv) return { label: entry.tokenEnv, credentials: { kind: 'token', token: value(entry.tokenEnv, 'the API token') } };
  const email = value(entry.emailEnv!, 'the e-mail of the key pair');
  return { label: entry.keyEnv!, credentials: { kind: 'key', email, key: value(entry.keyEnv!, 'the API key') } };
}

function accountsText(accounts: readonly string[]): string {
  return accounts.length === 1 ? `account ${accounts[0]}` : `accounts ${accounts.slice(0, 3).join(', ')}${accounts.length > 3 ? ` and ${accounts.length - 3} more` : ''}`;
}

/**
 * Two variables holding the same token, or key pairs of the same user, are one budget at the API
 * (per user, whether dashboard, key or token): pacing them apart would spend it twice over.
 */
function refuseShared(all: LabelledCredentials[]): void {
  const seen = new Map<string, string>();
  for (const { label, credentials: c } of all) {
    const identity = c.kind === 'token' ? `token\u0000${c.token}` : `user\u0000${c.email.toLowerCase()}`;
    const first = seen.get(identity);
    if (first !== undefined) {
      throw new ConfigError(
        c.kind === 'token'
          ? `${first} and ${label} hold the same token, which the API counts as one budget: put its accounts in one entry`
          : `the key pairs of ${first} and ${label} belong to the same user (same e-mail), who has one budget at the API: put their accounts in one entry`,
      );
    }
    seen.set(identity, label);
  }
}

/** Where the mapping comes from: the map itself, or a loaded config holding it. */
export type CredentialMapSource = CredentialMap | { readonly credentials: CredentialMap };

function mapOf(source: CredentialMapSource | undefined): CredentialMap {
  if (!source) return [];
  return Array.isArray(source) ? (source as CredentialMap) : (source as { credentials: CredentialMap }).credentials ?? [];
}

/**
 * Every secret value present in the environment, whether or not it is the one in use: the default
 * variables' and, given the config (or its mapping), those of every variable the mapping names.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv, source?: CredentialMapSource): { secrets: string[]; identities: string[] } {
  const pick = (name: string | undefined) => (name && env[name] ? [env[name]!] : []);
  const map = mapOf(source);
  return {
    secrets: [...pick(CREDENTIAL_ENV.token), ...pick(CREDENTIAL_ENV.key), ...map.flatMap((e) => [...pick(e.tokenEnv), ...pick(e.keyEnv)])],
    identities: [...pick(CREDENTIAL_ENV.email), ...map.flatMap((e) => pick(e.emailEnv))],
  };
}

/** Removes every credential of the environment (the mapping's too, when given), and key pairs' e-mails, from diagnostics, webhooks and stored errors. */
export function redactorFor(env: NodeJS.ProcessEnv, source?: CredentialMapSource): Redact {
  const { secrets, identities } = secretsFromEnv(env, source);
  return createRedactor([...secrets, ...identities]);
}
