import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { DatasetError } from '../datasets/index.js';
import type { Account, Organisation } from '../state.js';
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
 * How wrong credentials are refused: 403 code 9109 (measured on GET /accounts), or 401 or 403 code
 * 10000 as some endpoints answer; it depends on the endpoint and the token, so tests choose.
 */
export type BadCredentialsAnswer = '9109' | '401' | '10000';
export const BAD_CREDENTIALS_ANSWERS: readonly BadCredentialsAnswer[] = ['9109', '401', '10000'];

function authError(answer: BadCredentialsAnswer, scheme: 'token' | 'key'): ApiFailure {
  if (answer === '401') return fail(401, CODES.authentication, 'Authentication error');
  // 9109 is a token's answer; for a wrong key pair, the 403 10000 of the spec's era.
  if (answer === '9109' && scheme === 'token') return fail(403, CODES.invalidToken, 'Invalid access token');
  return fail(403, CODES.authentication, 'Authentication error');
}

/** Both schemes of the spec; malformed headers answer 400 code 6003 naming the header, as the real API does. */
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

/** What an account-owned token may not read: `GET /accounts` (as seen in the wild), and the user's endpoints (a guess). */
export function accountTokenRefusal(routeKey: string): ApiFailure | null {
  if (routeKey === 'GET /accounts') return fail(400, CODES.accountOwnedToken, 'List accounts endpoint does not support account owned tokens.');
  if (routeKey.startsWith('GET /user') || routeKey.startsWith('PATCH /user')) return fail(403, CODES.invalidToken, 'Unauthorized to access requested resource');
  return null;
}

function malformed(chain: Array<{ code: number; message: string }>): ApiFailure {
  return fail(400, CODES.badAuthHeaders, 'Invalid request headers', { error_chain: chain });
}

/**
 * An extra account-owned token: it reads its accounts (member or not) and nothing else, with a budget
 * of its own (vendor's rate limits page: "per user/account token").
 */
export interface AccountToken {
  token: string;
  /** The accounts it may read: one for a real account-owned token, which belongs to one account. */
  accounts: string[];
  /** Its name in GET /__emulator/stats (default `account-token:<first account id>`); never the token. */
  label?: string;
  /** As `denyRoutes`, for this token; read on each request, so a test can take a permission away between scans. */
  denyRoutes?: string[];
}

/** Who the request claims to be (compared in constant time), before it is authenticated; null: authenticate refuses it. */
export function claimantOf(headers: IncomingHttpHeaders, claimants: readonly Principal[]): Principal | null {
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    return (m && claimants.find((c) => c.token !== undefined && same(m[1]!, c.token))) || null;
  }
  const email = header(headers, 'x-auth-email');
  const key = header(headers, 'x-auth-key');
  if (email === undefined || key === undefined) return null;
  return claimants.find((c) => c.email !== undefined && c.key !== undefined && same(email, c.email) && same(key, c.key)) ?? null;
}

/**
 * The organisation as an account-owned token sees it: its accounts and their zones only. A view over
 * the one state, so its writes are seen by all; derived lists are cached apart (`memoKey`).
 */
export function accountTokenView(org: Organisation, accountIds: readonly string[], memoKey: string): Organisation {
  const allowed = new Set(accountIds);
  // The dataset's accounts are all there is (none is added while the emulator runs): each seen once, as a member or not.
  const member = { get: (a: Account, prop: string | symbol) => (prop === 'member' ? allowed.has(a.id) : Reflect.get(a, prop, a)) };
  const accountsById = new Map([...org.accountsById].map(([id, a]) => [id, new Proxy(a, member)]));
  const view = Object.create(org) as Organisation;
  Object.defineProperties(view, {
    accountsById: { value: accountsById },
    visibleAccounts: { value: () => org.state.accounts.filter((a) => allowed.has(a.id)).map((a) => accountsById.get(a.id)!) },
    visibleZone: {
      value: (id: string) => {
        const zone = org.zonesById.get(id);
        return zone && allowed.has(zone.accountId) ? zone : undefined;
      },
    },
    visibleZones: { value: () => org.state.zones.filter((z) => allowed.has(z.accountId)) },
    memo: { value: <T>(key: string, build: () => T): T => org.memo(`${memoKey}\u0000${key}`, build) },
    touch: { value: () => org.touch() },
  });
  return view;
}

/** A credential the emulator knows, with what it may read and the budget (`label`) it is counted in. */
export interface Principal {
  label: string;
  token?: string;
  email?: string;
  key?: string;
  /** Account-owned tokens cannot list accounts nor read the user's endpoints (accountTokenRefusal). */
  accountOwned: boolean;
  /** The account that owns an account-owned token (the audit log's actor); null for the user. */
  owner: string | null;
  /** The organisation as this credential sees it. */
  org: Organisation;
  /** Routes refused to this credential alone (AccountToken.denyRoutes). */
  denyRoutes?: readonly string[];
}

/** Labels the emulator gives its own credentials, not available to extra tokens. */
export const USER_LABEL = 'user';
export const UNAUTHENTICATED_LABEL = 'unauthenticated';

/** The principals of `--account-token`-style extra tokens, checked against the dataset and each other. */
export function accountTokenPrincipals(org: Organisation, tokens: readonly AccountToken[], taken: readonly Principal[]): Principal[] {
  const labels = new Set([USER_LABEL, UNAUTHENTICATED_LABEL, ...taken.map((p) => p.label)]);
  const secrets = new Set(taken.flatMap((p) => (p.token === undefined ? [] : [p.token])));
  return tokens.map((t, i) => {
    if (t.accounts.length === 0) throw new DatasetError(`accountTokens[${i}]: an account-owned token belongs to an account: list it in "accounts"`);
    for (const id of t.accounts) if (!org.accountsById.has(id)) throw new DatasetError(`accountTokens[${i}]: no account ${id.slice(0, 64)} in the dataset`);
    if (!BEARER.test(`Bearer ${t.token}`)) throw new DatasetError(`accountTokens[${i}]: a token is letters, digits and - . _ ~ + /`);
    if (secrets.has(t.token)) throw new DatasetError(`accountTokens[${i}]: the token is already another credential's`);
    const label = t.label ?? `account-token:${t.accounts[0]}`;
    if (labels.has(label)) throw new DatasetError(`accountTokens[${i}]: the label ${label.slice(0, 80)} is taken: give each token a label of its own`);
    labels.add(label);
    secrets.add(t.token);
    return { label, token: t.token, accountOwned: true, owner: t.accounts[0]!, org: accountTokenView(org, t.accounts, label), ...(t.denyRoutes ? { denyRoutes: t.denyRoutes } : {}) };
  });
}
