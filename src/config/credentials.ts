import { createRedactor, type Redact } from '../common/redact.js';
import { CREDENTIAL_ENV, VENDOR_CREDENTIAL_ENV } from './options.js';
import { ConfigError } from './config-error.js';
import type { CredentialMap, CredentialMapEntry } from './credential-map.js';

/** API credentials, read from the environment only (design.md). */
export type Credentials = { kind: 'token'; token: string } | { kind: 'key'; email: string; key: string };

/** Header values must be single-line printable ASCII; anything else would be refused or mangled. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** The value, checked; the error never echoes it, but says what is wrong with it (and, given `what`, what to set). */
function headerSafe(name: string, value: string, what?: string): string {
  if (!HEADER_SAFE.test(value)) throw new ConfigError(`${name} contains spaces, line breaks or non-ASCII characters${what ? `; set it to ${what} alone` : ''}`);
  return value;
}

const NO_CREDENTIALS =
  `no API credentials: set ${CREDENTIAL_ENV.token} (or ${VENDOR_CREDENTIAL_ENV.token}), ` +
  `or ${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key} (or ${VENDOR_CREDENTIAL_ENV.email} and ${VENDOR_CREDENTIAL_ENV.key})`;

/** The three variables of a default credential: ours, or the vendor's names for them. */
type CredentialNames = { readonly token: string; readonly email: string; readonly key: string };

const ROLES = ['token', 'email', 'key'] as const;

const anySet = (env: NodeJS.ProcessEnv, names: CredentialNames): boolean => ROLES.some((role) => Boolean(env[names[role]]));

export function credentialsFromEnv(env: NodeJS.ProcessEnv, source?: CredentialMapSource): Credentials {
  const found = readDefault(env, mapOf(source));
  if (!found) throw new ConfigError(NO_CREDENTIALS);
  return found.credentials;
}

/**
 * The default credential, or null when none of its variables is set. Our ZONEWARDEN_API_* names
 * come first: when any of them is set, they alone are read (half a key pair is then an error, as
 * before). Otherwise the vendor's names (CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL with
 * CLOUDFLARE_API_KEY) are read the same way, token before key pair, unless the config file's
 * mapping names one of them for accounts of its own: then they belong to the mapping.
 */
function readDefault(env: NodeJS.ProcessEnv, map: CredentialMap): { credentials: Credentials; names: CredentialNames } | null {
  const names = anySet(env, CREDENTIAL_ENV)
    ? CREDENTIAL_ENV
    : !mapsVendorNames(map) && anySet(env, VENDOR_CREDENTIAL_ENV) ? VENDOR_CREDENTIAL_ENV : null;
  if (!names) return null;
  const credentials = readCredential(env, names);
  return credentials && { credentials, names };
}

function mapsVendorNames(map: CredentialMap): boolean {
  const vendor = new Set<string>(Object.values(VENDOR_CREDENTIAL_ENV));
  return map.some((e) => [e.tokenEnv, e.emailEnv, e.keyEnv].some((name) => name !== undefined && vendor.has(name)));
}

function readCredential(env: NodeJS.ProcessEnv, names: CredentialNames): Credentials | null {
  const token = env[names.token];
  const email = env[names.email];
  const key = env[names.key];
  if (token) return { kind: 'token', token: headerSafe(names.token, token, 'the token') };
  if (email && key) return { kind: 'key', email: headerSafe(names.email, email), key: headerSafe(names.key, key) };
  if (email || key) {
    const missing = email ? names.key : names.email;
    throw new ConfigError(`${missing} is not set: the key pair needs both ${names.email} and ${names.key}${vendorIgnoredText(env, names)}`);
  }
  return null;
}

/** Why a vendor variable that is set did not complete our half key pair: ours, once set, are read alone. */
function vendorIgnoredText(env: NodeJS.ProcessEnv, names: CredentialNames): string {
  if (names !== CREDENTIAL_ENV) return '';
  const set = ROLES.map((role) => VENDOR_CREDENTIAL_ENV[role]).filter((name) => env[name]);
  if (set.length === 0) return '';
  return ` (${listText(set)} ${set.length === 1 ? 'is' : 'are'} not read: the CLOUDFLARE_* names are read only when no ZONEWARDEN_API_* variable is set)`;
}

/**
 * One line for the log when the default credential comes from our variables while the vendor's
 * hold another value (a token exported for Wrangler or Terraform, say): names only, never values.
 * Null when the vendor's names are unset, equal to ours, or in use by the config file's mapping.
 */
export function ignoredVendorVariables(env: NodeJS.ProcessEnv, source?: CredentialMapSource): string | null {
  const map = mapOf(source);
  const found = readDefault(env, map);
  if (!found || found.names !== CREDENTIAL_ENV) return null;
  const mapped = new Set(map.flatMap((e) => [e.tokenEnv, e.emailEnv, e.keyEnv]));
  const ignored = ROLES.filter((role) => {
    const name = VENDOR_CREDENTIAL_ENV[role];
    return Boolean(env[name]) && !mapped.has(name) && env[name] !== env[CREDENTIAL_ENV[role]];
  }).map((role) => VENDOR_CREDENTIAL_ENV[role]);
  if (ignored.length === 0) return null;
  const used = found.credentials.kind === 'token' ? CREDENTIAL_ENV.token : `${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key}`;
  return `${listText(ignored)} ${ignored.length === 1 ? 'is' : 'are'} set too, to another value, and ignored: the default credential is read from ${used} (the ZONEWARDEN_API_* variables come first)`;
}

function listText(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** A credential with the accounts it reads; `label` is its variable's name, never its value. */
export interface LabelledCredentials {
  label: string;
  credentials: Credentials;
}

export interface MappedCredentials extends LabelledCredentials {
  accounts: readonly string[];
  /** The variable(s) holding it, for messages: the token's, or the key pair's two. */
  variables: string;
}

/** Every credential a scan uses: the default (null when absent and not needed) and the mapped ones. */
export interface ScanCredentials {
  default: LabelledCredentials | null;
  mapped: MappedCredentials[];
}

/** How many credentials a scan reads with: the default one, if any, and each mapped one. */
export function credentialCount(c: ScanCredentials): number {
  return (c.default ? 1 : 0) + c.mapped.length;
}

/**
 * The credentials a scan uses. The default may be absent only when --account (`scopeAccounts`) names mapped accounts
 * alone: a whole-organisation scan needs it to list accounts, which an account-owned token cannot do (GET /accounts
 * answers 400 code 1001).
 */
export function scanCredentials(map: CredentialMap, scopeAccounts: readonly string[], env: NodeJS.ProcessEnv): ScanCredentials {
  // A scan limited to some accounts needs only the entries holding one of them: the others' variables may be unset.
  const scope = new Set(scopeAccounts.map((id) => id.toLowerCase()));
  const indexed = map.map((entry, i) => ({ entry, i }));
  const used = scope.size === 0 ? indexed : indexed.filter(({ entry }) => entry.accounts.some((id) => scope.has(id.toLowerCase())));
  const mapped = used.map(({ entry, i }) => ({
    ...mappedCredentials(entry, i, env),
    accounts: entry.accounts,
    variables: entry.tokenEnv ?? `${entry.emailEnv} and ${entry.keyEnv}`,
  }));
  const found = readDefault(env, map);
  const covered = new Set(used.flatMap(({ entry }) => entry.accounts.map((id) => id.toLowerCase())));
  const allMapped = scopeAccounts.length > 0 && scopeAccounts.every((id) => covered.has(id.toLowerCase()));
  if (!found && !allMapped) {
    // With the vendor's names mapped to accounts of their own, only ours can be the default: say so, rather than ask for a variable already set.
    const missing = mapsVendorNames(map)
      ? `no default API credential: set ${CREDENTIAL_ENV.token}, or ${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key} (the CLOUDFLARE_* variables are mapped to accounts of their own in the config file's "credentials", so they are not the default)`
      : NO_CREDENTIALS;
    throw new ConfigError(map.length === 0 ? missing : `${missing}: the accounts not listed in the config file's "credentials" need them (or limit the scan with --account to listed accounts)`);
  }
  // Labelled by the variable actually read: ours, or the vendor's name for it.
  const fallback = found && { label: found.credentials.kind === 'token' ? found.names.token : found.names.key, credentials: found.credentials };
  refuseShared([...(fallback ? [fallback] : []), ...mapped]);
  return { default: fallback, mapped };
}

function mappedCredentials(entry: CredentialMapEntry, index: number, env: NodeJS.ProcessEnv): LabelledCredentials {
  const value = (name: string, what: string): string => {
    const v = env[name];
    if (!v) throw new ConfigError(`${name} is not set: the config file's credentials[${index}] reads ${what} for ${accountsText(entry.accounts)} from it; set it, or remove the entry`);
    return headerSafe(name, v, what);
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

/** Every secret value in the environment, in use or not: the default variables' and those the mapping names. */
export function secretsFromEnv(env: NodeJS.ProcessEnv, source?: CredentialMapSource): { secrets: string[]; identities: string[] } {
  const pick = (name: string | undefined) => (name && env[name] ? [env[name]!] : []);
  const map = mapOf(source);
  // The vendor's names too, whichever credential is in use: a value exported for another tool is still a secret.
  const defaults = [CREDENTIAL_ENV, VENDOR_CREDENTIAL_ENV];
  return {
    secrets: [...defaults.flatMap((n) => [...pick(n.token), ...pick(n.key)]), ...map.flatMap((e) => [...pick(e.tokenEnv), ...pick(e.keyEnv)])],
    identities: [...defaults.flatMap((n) => pick(n.email)), ...map.flatMap((e) => pick(e.emailEnv))],
  };
}

/** Removes every credential of the environment (the mapping's too, when given), and key pairs' e-mails, from diagnostics, webhooks and stored errors. */
export function redactorFor(env: NodeJS.ProcessEnv, source?: CredentialMapSource): Redact {
  const { secrets, identities } = secretsFromEnv(env, source);
  return createRedactor([...secrets, ...identities]);
}
