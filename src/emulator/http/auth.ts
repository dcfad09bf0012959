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

const authError = () => fail(403, CODES.authentication, 'Authentication error');

/**
 * Both schemes of the spec. Malformed headers answer 400 code 6003 with an error_chain naming the
 * header, as the real API does; well-formed but wrong or missing credentials answer 403 10000.
 */
export function authenticate(headers: IncomingHttpHeaders, expected: Credentials): void {
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    if (!m) throw malformed([{ code: 6111, message: 'Invalid format for Authorization header' }]);
    if (!same(m[1]!, expected.token)) throw authError();
    return;
  }
  const email = header(headers, 'x-auth-email');
  const key = header(headers, 'x-auth-key');
  if (email === undefined && key === undefined) throw authError();
  const chain: Array<{ code: number; message: string }> = [];
  if (email === undefined || !EMAIL.test(email)) chain.push({ code: 6102, message: 'Invalid format for X-Auth-Email header' });
  if (key === undefined || !KEY.test(key)) chain.push({ code: 6103, message: 'Invalid format for X-Auth-Key header' });
  if (chain.length > 0) throw malformed(chain);
  if (!same(email!, expected.email) || !same(key!, expected.key)) throw authError();
}

function malformed(chain: Array<{ code: number; message: string }>): ApiFailure {
  return fail(400, CODES.badAuthHeaders, 'Invalid request headers', { error_chain: chain });
}
