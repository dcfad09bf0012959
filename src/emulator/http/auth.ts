import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiFailure, CODES, fail } from './envelope.js';

export interface Credentials {
  token: string;
  email: string;
  key: string;
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const KEY = /^[A-Za-z0-9_-]+$/;

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * How wrong credentials are refused. The real API answers a junk, revoked or IP-restricted token
 * with 403 code 9109 "Invalid access token" (measured on GET /accounts), and some endpoints with
 * 401 or 403 code 10000 "Authentication error"; which one a client meets depends on the endpoint
 * and the token, so tests choose.
 */
export type BadCredentialsAnswer = '9109' | '401' | '10000';
export const BAD_CREDENTIALS_ANSWERS: readonly BadCredentialsAnswer[] = ['9109', '401', '10000'];

function authError(answer: BadCredentialsAnswer, scheme: 'token' | 'key'): ApiFailure {
  if (answer === '401') return fail(401, CODES.authentication, 'Authentication error');
  // 9109 is a token's answer; for a wrong key pair, the 403 10000 of the spec's era.
  if (answer === '9109' && scheme === 'token') return fail(403, CODES.invalidToken, 'Invalid access token');
  return fail(403, CODES.authentication, 'Authentication error');
}

/**
 * Both schemes of the spec. Malformed headers answer 400 code 6003 with an error_chain naming the
 * header, as the real API does; well-formed but wrong or missing credentials answer as `answer`
 * says. Returns the scheme that authenticated.
 */
export function authenticate(headers: IncomingHttpHeaders, expected: Credentials, answer: BadCredentialsAnswer = '9109'): 'token' | 'key' {
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    if (!m) throw malformed([{ code: 6111, message: 'Invalid format for Authorization header' }]);
    if (!same(m[1]!, expected.token)) throw authError(answer, 'token');
    return 'token';
  }
  const email = header(headers, 'x-auth-email');
  const key = header(headers, 'x-auth-key');
  if (email === undefined && key === undefined) throw authError(answer, 'token');
  const chain: Array<{ code: number; message: string }> = [];
  if (email === undefined || !EMAIL.test(email)) chain.push({ code: 6102, message: 'Invalid format for X-Auth-Email header' });
  if (key === undefined || !KEY.test(key)) chain.push({ code: 6103, message: 'Invalid format for X-Auth-Key header' });
  if (chain.length > 0) throw malformed(chain);
  if (!same(email!, expected.email) || !same(key!, expected.key)) throw authError(answer, 'key');
  return 'key';
}

/**
 * What an account-owned token may not read. `GET /accounts` answers 400 code 1001 (seen in the
 * wild, with this message). The user-level endpoints (invites) belong to a user, which such a
 * token has none of: the emulator answers 403 9109 "Unauthorized to access requested resource",
 * a guess (the code is the real API's answer for a permission a token lacks; what it answers on
 * /user/invites to an account-owned token is not documented).
 */
export function accountTokenRefusal(routeKey: string): ApiFailure | null {
  if (routeKey === 'GET /accounts') return fail(400, CODES.accountOwnedToken, 'List accounts endpoint does not support account owned tokens.');
  if (routeKey.startsWith('GET /user') || routeKey.startsWith('PATCH /user')) return fail(403, CODES.invalidToken, 'Unauthorized to access requested resource');
  return null;
}

function malformed(chain: Array<{ code: number; message: string }>): ApiFailure {
  return fail(400, CODES.badAuthHeaders, 'Invalid request headers', { error_chain: chain });
}
