import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { addToWorld } from './dns/world.js';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditActor, Change } from './audit-log.js';
import { createClock } from './clock.js';
import { buildOrganisation, DatasetError, DEFAULT_GENERATED, type DatasetChoice, type GeneratedSize } from './datasets/index.js';
import {
  accountTokenPrincipals,
  accountTokenRefusal,
  authenticate,
  claimantOf,
  UNAUTHENTICATED_LABEL,
  USER_LABEL,
  type AccountToken,
  type BadCredentialsAnswer,
  type Credentials,
  type Principal,
} from './http/auth.js';
import { Hang, type ApiEra, type RequestContext } from './http/context.js';
import { ApiFailure, CODES, envelopeText, fail, failureBody, noRoute, type Answer, type Envelope } from './http/envelope.js';
import { BAD_GATEWAY_PAGE, Faults, type FaultKind } from './http/faults.js';
import { CredentialBudgets, rateLimitHeaders, secondsUntil, type RateLimitHeaderStyle } from './http/rate-limit.js';
import { Router, type RouteMatch } from './http/router.js';
import { createIdFactory, stableId } from './ids.js';
import { advanceNight, NightOptionError, type NightOptions, type NightReport } from './night.js';
import { securityInsightRoutes } from './routes/security-insights.js';
import { accountAndZoneRoutes } from './routes/accounts-zones.js';
import { AUDIT_LOG_ROUTE, auditLogRoutes } from './routes/audit-log.js';
import { certificatePackRoutes } from './routes/certificate-packs.js';
import { customRuleRoutes } from './routes/custom-rules.js';
import { dnsRoutes } from './routes/dns-records.js';
import { filterRoutes } from './routes/filters.js';
import { firewallRuleRoutes } from './routes/firewall-rules.js';
import { legacyWafRoutes } from './routes/legacy-waf.js';
import { migrationRoutes } from './routes/migration.js';
import { rulesetsListRoutes } from './routes/rulesets-list.js';
import { zoneSecurityRoutes } from './routes/zone-security.js';
import { userRoutes } from './routes/user.js';
import { Organisation } from './state.js';
import { StatsCounter, type EmulatorStats } from './stats.js';

export const API_PREFIX = '/client/v4';
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface EmulatorOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  dataset?: DatasetChoice;
  generated?: Partial<GeneratedSize>;
  /** The emulator clock's starting instant; dataset times are relative to it. Default: now. */
  now?: Date;
  /** The clock moves only when a night advances it, so countdowns do not depend on the machine's speed (golden tests). */
  frozenClock?: boolean;
  token?: string;
  email?: string;
  key?: string;
  /** Delay before every API answer. */
  latencyMs?: number;
  /** How long a migration PUT takes to show in the status; default 0 (at once). */
  migrationDelaySeconds?: number;
  /** Requests per window (default 1200 per 300 s) for each credential's budget; 0 disables the budgets. */
  rateLimit?: number;
  rateWindowSeconds?: number;
  /** Requests per second from one client address (default 200); 0 disables. */
  ipRateLimit?: number;
  rateLimitHeaders?: RateLimitHeaderStyle;
  faultRate?: number;
  /** Which faults --fault-rate injects (default 500, 502, 503). */
  faultKinds?: FaultKind[];
  faultSeed?: number;
  /** Routes that always answer 500, e.g. `GET /zones/{zone_id}/filters`. */
  failRoutes?: string[];
  /** Routes whose answer is lost after the write happened (and was logged): the edge's 502 page. */
  lostAnswerRoutes?: string[];
  /** Routes the token lacks the permission for: 403 code 9109, as the real API answers. */
  denyRoutes?: string[];
  /**
   * Routes refused on some zones only: a token's policies name the zones of each permission group
   * (vendor docs: API token permissions, "Zone Resources"). Read on each request, like `denyRoutes`.
   */
  denyZoneRoutes?: Array<{ zoneId: string; route: string }>;
  /** A list page whose per_page is above this never answers. */
  timeoutPerPage?: number | null;
  /** Every list serves page 1 for every page; or only the named routes do. */
  repeatPage?: boolean | string[];
  /** Full list pages lose their last item (pages shorter than per_page that are not the last). */
  shortPages?: boolean;
  /** List answers carry no total_count or total_pages (a client must then read to an empty page). */
  noTotals?: boolean;
  /** How wrong credentials are refused: 403 9109 (default), 401 10000, or 403 10000. */
  badCredentials?: BadCredentialsAnswer;
  /** `account`: the token belongs to one account (`tokenAccount`, or the user's first) and sees only it. */
  tokenKind?: 'user' | 'account';
  tokenAccount?: string;
  /** Extra account-owned tokens, each with the accounts it reads and a request budget of its own. */
  accountTokens?: AccountToken[];
  /** Which API the emulator plays (http/context.ts); default `classic`. */
  apiEra?: ApiEra;
  /** `denied`: no "Account Settings Read", and the audit log answers 403 code 10000 (`denyRoutes` gives 403 9109). */
  auditLog?: 'allowed' | 'denied';
  /** Called once per answered request with a one-line summary (never headers or bodies). */
  onRequest?: (line: string) => void;
}

export interface RunningEmulator {
  /** Base URL of the API, ending in /client/v4. */
  url: string;
  origin: string;
  port: number;
  org: Organisation;
  stats(): EmulatorStats;
  resetStats(): void;
  /** Advances the clock a day and changes a share of the zones (night.ts); also `POST /__emulator/night`. */
  night(options?: NightOptions): NightReport;
  close(): Promise<void>;
}

export const DEFAULT_CREDENTIALS: Credentials = { token: 'emulator-token', email: 'admin@example.com', key: 'emulator-key' };

/** An account-owned token sees one account: the others are hidden as if the user were no member. */
function ownTokenAccount(org: Organisation, id: string | undefined): void {
  const accounts = org.state.accounts;
  const owner = id === undefined ? accounts.find((a) => a.member) : accounts.find((a) => a.id === id);
  if (!owner) throw new DatasetError(id === undefined ? 'an account-owned token needs an account the user is a member of' : `--token-account ${id}: no such account in the dataset`);
  for (const a of accounts) a.member = a === owner;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = createClock(options.now, options.frozenClock === true);
  const org = new Organisation(
    buildOrganisation(options.dataset ?? 'demo', clock.start, { ...DEFAULT_GENERATED, ...options.generated }),
    clock,
    createIdFactory('emulator'),
  );
  org.migrationDelayMs = (options.migrationDelaySeconds ?? 0) * 1000;
  // The names its zones hold answer in the process's loopback DNS world while it runs (dns/world.ts).
  const leaveWorld = addToWorld(org);
  const credentials: Credentials = {
    token: options.token ?? DEFAULT_CREDENTIALS.token,
    email: options.email ?? DEFAULT_CREDENTIALS.email,
    key: options.key ?? DEFAULT_CREDENTIALS.key,
  };
  const tokenKind = options.tokenKind ?? 'user';
  if (tokenKind === 'account') ownTokenAccount(org, options.tokenAccount);
  const tokenOwner = tokenKind === 'account' ? org.visibleAccounts()[0]!.id : null;
  // Who may call, each counted in a budget of its own: the user (token and key pair share one, as
  // the vendor counts per user whatever the means), or the account-owned token's own.
  const own: Principal[] = [
    { label: tokenOwner ? `account-token:${tokenOwner}` : USER_LABEL, token: credentials.token, accountOwned: tokenOwner !== null, owner: tokenOwner, org },
    { label: USER_LABEL, email: credentials.email, key: credentials.key, accountOwned: false, owner: null, org },
  ];
  const principals = [...own, ...accountTokenPrincipals(org, options.accountTokens ?? [], own)];
  const stranger: Principal = { label: UNAUTHENTICATED_LABEL, accountOwned: false, owner: null, org };
  const router = new Router().add([
    ...accountAndZoneRoutes,
    ...auditLogRoutes,
    ...dnsRoutes,
    ...certificatePackRoutes,
    ...firewallRuleRoutes,
    ...customRuleRoutes,
    ...filterRoutes,
    ...userRoutes,
    ...migrationRoutes,
    ...rulesetsListRoutes,
    ...zoneSecurityRoutes,
    ...legacyWafRoutes,
    ...securityInsightRoutes,
  ]);
  const stats = new StatsCounter();
  const budgets = new CredentialBudgets(options.rateLimit ?? 1200, (options.rateWindowSeconds ?? 300) * 1000);
  const perIp = new CredentialBudgets(options.ipRateLimit ?? 200, 1000);
  const headerStyle = options.rateLimitHeaders ?? 'modern';
  const faults = new Faults({ faultRate: options.faultRate ?? 0, kinds: options.faultKinds ?? [], failRoutes: options.failRoutes ?? [], seed: options.faultSeed ?? 1 });
  const latency = options.latencyMs ?? 0;

  /** Who the audit log names for a write: the owning account for an account-owned token, else the user; never the token itself. */
  function actorOf(scheme: 'token' | 'key', req: IncomingMessage, principal: Principal): AuditActor {
    const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const token = scheme === 'token' ? { token_id: stableId('token', principal.token ?? credentials.token), token_name: 'zonewarden emulator token' } : { token_id: '', token_name: '' };
    const context = scheme === 'token' ? 'api_token' : 'api_key';
    if (principal.owner !== null && scheme === 'token') return { id: principal.owner, context, email: '', ip_address: address, ...token, type: 'account' };
    return { id: org.state.user.id, context, email: org.state.user.email, ip_address: address, ...token, type: 'user' };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith('/__emulator/')) return admin(url.pathname, method, req, res);

    const path = url.pathname.startsWith(`${API_PREFIX}/`) ? url.pathname.slice(API_PREFIX.length) : null;
    const match: RouteMatch = path === null ? { kind: 'none', key: `${method} (no route)` } : router.match(method, path);
    const principal = claimantOf(req.headers, principals) ?? stranger;
    stats.count(match.key, principal.label);
    const rawBody = hasBody(req) ? await readBody(req) : EMPTY;
    if (latency > 0) await sleep(latency);

    const send = (status: number, body: string, contentType: string, extra: Record<string, string> = {}) => {
      // The Date header tells the emulator's time, which the night control moves on, as a server tells its own.
      res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), date: clock.now().toUTCString(), ...extra });
      res.end(body);
      options.onRequest?.(`${method} ${url.pathname} ${status} ${Math.round(performance.now() - started)}ms`);
    };
    const sendJson = (status: number, body: Envelope, extra: Record<string, string> = {}) =>
      send(status, envelopeText(body), 'application/json; charset=utf-8', extra);

    if (perIp.limit > 0 && !perIp.for(req.socket.remoteAddress ?? 'unknown').take().allowed) {
      stats.limited(principal.label);
      return sendJson(429, failureBody([{ code: CODES.rateLimited, message: 'Too many requests from this address; slow down' }]), { 'retry-after': '1' });
    }
    const budget = budgets.for(principal.label);
    const decision = budget.take();
    const limitHeaders = rateLimitHeaders(budget, decision, headerStyle);
    if (!decision.allowed) {
      stats.limited(principal.label);
      const retryAfter = String(Math.max(1, secondsUntil(decision.resetMs)));
      const message = `Rate limited: more than ${budget.limit} requests per ${budget.windowMs / 1000} seconds; every call is blocked until the window passes`;
      return sendJson(429, failureBody([{ code: CODES.rateLimited, message }]), { ...limitHeaders, 'retry-after': retryAfter });
    }
    const fault = faults.pick(match.key);
    if (fault) {
      stats.faultsInjected++;
      return send(fault.status, fault.body, fault.contentType, limitHeaders);
    }

    const changes: Change[] = [];
    let scheme: 'token' | 'key' = 'token';
    /** Logs what the request changed, with the status it was answered with. */
    const logChanges = (status: number) => {
      const at = org.clock.now();
      const how = { actor: actorOf(scheme, req, principal), method, uri: req.url ?? url.pathname, userAgent: String(req.headers['user-agent'] ?? ''), statusCode: status };
      for (const change of changes) org.audit.append(org, change, how, at);
    };
    try {
      scheme = authenticate(req.headers, { ...credentials, token: principal.token ?? credentials.token }, options.badCredentials ?? '9109');
      const refusal = scheme === 'token' && principal.accountOwned ? accountTokenRefusal(match.key) : null;
      if (refusal) throw refusal;
      const zoneDenied = match.kind === 'found' && options.denyZoneRoutes?.some((d) => d.route === match.key && d.zoneId === match.params['zone_id']);
      if (zoneDenied || options.denyRoutes?.includes(match.key) || principal.denyRoutes?.includes(match.key)) throw fail(403, CODES.invalidToken, 'Unauthorized to access requested resource');
      if (options.auditLog === 'denied' && match.key === AUDIT_LOG_ROUTE) throw fail(403, CODES.authentication, 'Authentication error');
      if (match.kind === 'none') throw noRoute(400, url.pathname.slice(0, 200));
      if (match.kind === 'method-not-allowed') {
        throw new ApiFailure(405, [{ code: CODES.methodNotAllowed, message: `${method} is not allowed on ${match.template}; allowed: ${match.allowed.join(', ')}` }]);
      }
      const repeat = options.repeatPage;
      const ctx: RequestContext = {
        method,
        routeKey: match.key,
        params: match.params,
        query: url.searchParams,
        org: principal.org,
        body: () => parseJsonBody(req, rawBody),
        apiEra: options.apiEra ?? 'classic',
        record: (change) => changes.push(change),
        list: {
          repeatPage: repeat === true || (Array.isArray(repeat) && repeat.includes(match.key)),
          timeoutPerPage: options.timeoutPerPage ?? null,
          shortPages: options.shortPages ?? false,
          noTotals: options.noTotals ?? false,
        },
      };
      const answer: Answer = await match.route.handler(ctx);
      logChanges(answer.status);
      if (options.lostAnswerRoutes?.includes(match.key)) {
        stats.faultsInjected++;
        return send(502, BAD_GATEWAY_PAGE, 'text/html', limitHeaders);
      }
      sendJson(answer.status, answer.body, limitHeaders);
    } catch (err) {
      if (err instanceof Hang) {
        stats.hung++;
        return;
      }
      if (err instanceof ApiFailure) {
        logChanges(err.status);
        return sendJson(err.status, failureBody(err.errors), limitHeaders);
      }
      logChanges(500);
      // A bug in the emulator: answer like the real service's 500 and say where on stderr.
      process.stderr.write(`emulator: ${method} ${match.key} failed: ${(err as Error).stack ?? String(err)}\n`);
      sendJson(500, failureBody([{ code: CODES.internal, message: 'Internal server error' }]), limitHeaders);
    }
  }

  async function admin(pathname: string, method: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let status = 200;
    let body: unknown;
    if (pathname === '/__emulator/stats' && (method === 'GET' || method === 'DELETE')) {
      if (method === 'DELETE') stats.reset();
      body = stats.snapshot();
    } else if (pathname === '/__emulator/night' && method === 'POST') {
      // The body is optional: `{"share": 0.02, "seed": 1}` (both default as shown).
      const raw = hasBody(req) ? (await readBody(req)).toString('utf8').trim() : '';
      try {
        const parsed: unknown = raw === '' ? {} : JSON.parse(raw);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new NightOptionError('the body must be a JSON object such as {"share": 0.02, "seed": 1}');
        body = advanceNight(org, parsed as NightOptions);
      } catch (err) {
        if (!(err instanceof NightOptionError || err instanceof SyntaxError)) throw err;
        status = 400;
        body = { error: `POST /__emulator/night: ${err.message}` };
      }
    } else {
      status = 404;
      body = { error: `no emulator admin route ${method} ${pathname}; try GET or DELETE /__emulator/stats, or POST /__emulator/night` };
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        const tooLarge = err instanceof BodyTooLarge;
        res.writeHead(tooLarge ? 413 : 500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(failureBody([{ code: tooLarge ? CODES.validation : CODES.internal, message: tooLarge ? 'request body too large' : 'Internal server error' }])));
      }
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    port: address.port,
    org,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    night: (nightOptions) => advanceNight(org, nightOptions),
    close: () =>
      new Promise<void>((resolve) => {
        leaveWorld();
        server.close(() => resolve());
        // Hung requests (--timeout-per-page) and idle keep-alive sockets would hold close open.
        server.closeAllConnections();
      }),
  };
}

class BodyTooLarge extends Error {}

const EMPTY = Buffer.alloc(0);

/** GETs carry no body; skipping the stream read keeps list requests cheap. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function parseJsonBody(req: IncomingMessage, raw: Buffer): unknown {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiFailure(400, [{ code: CODES.malformedJson, message: 'Content-Type must be application/json' }]);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiFailure(400, [{ code: CODES.malformedJson, message: 'Malformed JSON in request body' }]);
  }
}
