import { createRedactor, type Redact } from '../common/redact.js';
import { CREDENTIAL_ENV } from './options.js';
import { ConfigError } from './load.js';

/** API credentials, read from the environment only (design.md). */
export type Credentials = { kind: 'token'; token: string } | { kind: 'key'; email: string; key: string };

/** Header values must be single-line printable ASCII; anything else would be refused or mangled. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

export function credentialsFromEnv(env: NodeJS.ProcessEnv): Credentials {
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
  throw new ConfigError(`no API credentials: set ${CREDENTIAL_ENV.token}, or ${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key}`);
}

/** Every secret value present in the environment, whether or not it is the one in use. */
export function secretsFromEnv(env: NodeJS.ProcessEnv): { secrets: string[]; identities: string[] } {
  const pick = (name: string) => (env[name] ? [env[name]!] : []);
  return { secrets: [...pick(CREDENTIAL_ENV.token), ...pick(CREDENTIAL_ENV.key)], identities: pick(CREDENTIAL_ENV.email) };
}

/** Removes every credential of the environment, and the key pair's e-mail, from diagnostics, webhooks and stored errors. */
export function redactorFor(env: NodeJS.ProcessEnv): Redact {
  const { secrets, identities } = secretsFromEnv(env);
  return createRedactor([...secrets, ...identities]);
}
