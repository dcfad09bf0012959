import { describe, expect, it } from 'vitest';
import { credentialsFromEnv, secretsFromEnv } from '../../src/config/credentials.js';
import { ConfigError } from '../../src/config/load.js';
import { thrownBy } from '../support/errors.js';

const TOKEN = 'tok_0123456789abcdefABCDEF';
const EMAIL = 'auditor@example.com';
const KEY = 'c2547eb745079dac9320b638f5e225cf483cc5cfdda41';

/** The ConfigError thrown by `fn`; fails the test when nothing (or something else) is thrown. */
const configError = (fn: () => unknown): ConfigError => thrownBy(fn, ConfigError);

describe('credentialsFromEnv', () => {
  it('uses the token alone', () => {
    expect(credentialsFromEnv({ ZONEWARDEN_API_TOKEN: TOKEN })).toEqual({ kind: 'token', token: TOKEN });
  });

  it('prefers the token over a complete key pair', () => {
    expect(credentialsFromEnv({ ZONEWARDEN_API_TOKEN: TOKEN, ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: KEY })).toEqual({
      kind: 'token',
      token: TOKEN,
    });
  });

  it('prefers the token over half a key pair instead of complaining about the missing half', () => {
    expect(credentialsFromEnv({ ZONEWARDEN_API_TOKEN: TOKEN, ZONEWARDEN_API_EMAIL: EMAIL })).toEqual({ kind: 'token', token: TOKEN });
  });

  it('uses the key pair when there is no token', () => {
    expect(credentialsFromEnv({ ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: KEY })).toEqual({ kind: 'key', email: EMAIL, key: KEY });
  });

  it('treats an empty token as unset and falls back to the key pair', () => {
    expect(credentialsFromEnv({ ZONEWARDEN_API_TOKEN: '', ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: KEY })).toEqual({
      kind: 'key',
      email: EMAIL,
      key: KEY,
    });
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['the key', { ZONEWARDEN_API_EMAIL: EMAIL }, 'ZONEWARDEN_API_KEY is not set: the key pair needs both ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY'],
    ['the email', { ZONEWARDEN_API_KEY: KEY }, 'ZONEWARDEN_API_EMAIL is not set: the key pair needs both ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY'],
    ['the key (empty)', { ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: '' }, 'ZONEWARDEN_API_KEY is not set: the key pair needs both ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY'],
  ])('names %s when only half of the key pair is set', (_what, env, message) => {
    const err = configError(() => credentialsFromEnv(env));
    expect(err.message).toBe(message);
    // The half that is set is not echoed either.
    expect(err.message).not.toContain(EMAIL);
    expect(err.message).not.toContain(KEY);
  });

  it.each<[string, NodeJS.ProcessEnv]>([
    ['nothing set', {}],
    ['everything empty', { ZONEWARDEN_API_TOKEN: '', ZONEWARDEN_API_EMAIL: '', ZONEWARDEN_API_KEY: '' }],
    ['other variables only', { CF_API_TOKEN: TOKEN, HOME: '/root' }],
  ])('says how to set credentials when there are none (%s)', (_what, env) => {
    // vendor docs: Wrangler's system environment variables: CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL with CLOUDFLARE_API_KEY; both spellings are named
    expect(configError(() => credentialsFromEnv(env)).message).toBe(
      'no API credentials: set ZONEWARDEN_API_TOKEN (or CLOUDFLARE_API_TOKEN), or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY)',
    );
  });

  const badValues: Array<[string, string]> = [
    ['a space', 'abc def-secret-1'],
    ['a trailing newline', 'abcdef-secret-2\n'],
    ['a carriage return', 'abcdef-secret-3\r'],
    ['a tab', 'abc\tdef-secret-4'],
    ['a leading space', ' abcdef-secret-5'],
    ['non-ASCII', 'abcdéf-secret-6'],
    ['a NUL', 'abcdef\u0000secret-7'],
  ];

  it.each(badValues)('refuses a token with %s without echoing it', (_what, value) => {
    const message = configError(() => credentialsFromEnv({ ZONEWARDEN_API_TOKEN: value })).message;
    expect(message).toBe('ZONEWARDEN_API_TOKEN contains spaces, line breaks or non-ASCII characters; set it to the token alone');
    expect(message).not.toContain(value);
    expect(message).not.toContain(value.trim());
    expect(message).not.toContain('secret-');
  });

  it.each(badValues)('refuses an email with %s without echoing it', (_what, value) => {
    const message = configError(() => credentialsFromEnv({ ZONEWARDEN_API_EMAIL: value, ZONEWARDEN_API_KEY: KEY })).message;
    expect(message).toBe('ZONEWARDEN_API_EMAIL contains spaces, line breaks or non-ASCII characters');
    expect(message).not.toContain('secret-');
    expect(message).not.toContain(KEY);
  });

  it.each(badValues)('refuses a key with %s without echoing it', (_what, value) => {
    const message = configError(() => credentialsFromEnv({ ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: value })).message;
    expect(message).toBe('ZONEWARDEN_API_KEY contains spaces, line breaks or non-ASCII characters');
    expect(message).not.toContain('secret-');
    expect(message).not.toContain(EMAIL);
  });

  it('accepts every printable ASCII character except space', () => {
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    expect(credentialsFromEnv({ ZONEWARDEN_API_TOKEN: printable })).toEqual({ kind: 'token', token: printable });
  });

  it('throws ConfigError with the config code and usage exit', () => {
    const err = configError(() => credentialsFromEnv({}));
    expect(err.code).toBe('ZW_CONFIG');
    expect(err.exitCode).toBe(2);
  });
});

describe('secretsFromEnv', () => {
  it('returns the token and the key as secrets and the email as an identity, whichever is in use', () => {
    expect(secretsFromEnv({ ZONEWARDEN_API_TOKEN: TOKEN, ZONEWARDEN_API_EMAIL: EMAIL, ZONEWARDEN_API_KEY: KEY })).toEqual({
      secrets: [TOKEN, KEY],
      identities: [EMAIL],
    });
  });

  it.each<[string, NodeJS.ProcessEnv, { secrets: string[]; identities: string[] }]>([
    ['nothing', {}, { secrets: [], identities: [] }],
    ['empty values', { ZONEWARDEN_API_TOKEN: '', ZONEWARDEN_API_EMAIL: '', ZONEWARDEN_API_KEY: '' }, { secrets: [], identities: [] }],
    ['token only', { ZONEWARDEN_API_TOKEN: TOKEN }, { secrets: [TOKEN], identities: [] }],
    ['key only', { ZONEWARDEN_API_KEY: KEY }, { secrets: [KEY], identities: [] }],
    ['email only', { ZONEWARDEN_API_EMAIL: EMAIL }, { secrets: [], identities: [EMAIL] }],
    ['unrelated variables', { CF_API_TOKEN: TOKEN }, { secrets: [], identities: [] }],
  ])('with %s', (_what, env, expected) => {
    expect(secretsFromEnv(env)).toEqual(expected);
  });

  it('includes values the credentials check would refuse, so they are still redacted', () => {
    expect(secretsFromEnv({ ZONEWARDEN_API_TOKEN: 'bad token\n' }).secrets).toEqual(['bad token\n']);
  });
});
