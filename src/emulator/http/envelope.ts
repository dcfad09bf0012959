/** The API's JSON envelope: handlers return `ok(...)` or throw `ApiFailure`, and the server wraps both. */

export interface ErrorItem {
  code?: number;
  message: string;
  documentation_url?: string;
  source?: { pointer: string };
  error_chain?: Array<{ code: number; message: string }>;
  meta?: Record<string, unknown>;
}

export interface ResultInfo {
  page: number;
  per_page: number;
  count: number;
  /** Absent only under --no-totals. */
  total_count?: number;
  total_pages?: number;
}

/** The audit log's result_info: `count` as a string, `cursor` empty once there is no more. */
export interface CursorResultInfo {
  count: string;
  cursor: string;
}

export interface Envelope {
  success: boolean;
  errors: ErrorItem[];
  messages: unknown[];
  result: unknown;
  result_info?: ResultInfo | CursorResultInfo;
}

export interface Answer {
  status: number;
  body: Envelope;
}

/** An item already serialised: zones keep their JSON, as stringifying a 50-zone page dominates serving it. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The envelope as JSON text, splicing RawJson items in as they are. */
export function envelopeText(body: Envelope): string {
  const { result } = body;
  if (!Array.isArray(result) || !result.some((item) => item instanceof RawJson)) return JSON.stringify(body);
  const items = result.map((item) => (item instanceof RawJson ? item.text : JSON.stringify(item)));
  const info = body.result_info ? `,"result_info":${JSON.stringify(body.result_info)}` : '';
  return `{"success":${body.success},"errors":${JSON.stringify(body.errors)},"messages":${JSON.stringify(body.messages)},"result":[${items.join(',')}]${info}}`;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
  ) {
    super(errors.map((e) => e.message).join('; '));
  }
}

export function ok(result: unknown, result_info?: ResultInfo | CursorResultInfo): Answer {
  const body: Envelope = { success: true, errors: [], messages: [], result, ...(result_info && { result_info }) };
  return { status: 200, body };
}

/** The API's answer for a path it cannot route: codes 7003 and 7000. */
export function noRoute(status: number, path: string): ApiFailure {
  return new ApiFailure(status, [
    { code: CODES.noRoute, message: `Could not route to ${path}, perhaps your object identifier is invalid?` },
    { code: CODES.noRouteChain, message: 'No route for that URI' },
  ]);
}

export function failureBody(errors: ErrorItem[]): Envelope {
  return { success: false, errors, messages: [], result: null };
}

export function fail(status: number, code: number | undefined, message: string, extra: Partial<ErrorItem> = {}): ApiFailure {
  return new ApiFailure(status, [{ ...(code === undefined ? {} : { code }), message, ...extra }]);
}

/** Error codes: "wild", the real API's (docs/api-surface.md); "emulator", its stable choice where none is published. */
export const CODES = {
  /** wild: invalid or missing zone id */
  invalidZone: 1003,
  /** emulator: page or per_page not a positive whole number */
  invalidPagination: 1004,
  /** emulator: an object id in the path does not exist */
  notFound: 1005,
  /** wild: malformed authentication headers */
  badAuthHeaders: 6003,
  /** emulator: body is not JSON or lacks the JSON content type */
  malformedJson: 6007,
  /** wild: route not found (with 7000) */
  noRoute: 7003,
  noRouteChain: 7000,
  /** emulator: method not allowed on a known route */
  methodNotAllowed: 7001,
  /** wild: authentication error (403, and 401 on some endpoints) */
  authentication: 10000,
  /** wild: invalid, revoked or IP-restricted token, or a permission the token lacks (403) */
  invalidToken: 9109,
  /** wild: an account-owned token on the list of accounts (400) */
  accountOwnedToken: 1001,
  /** emulator: request body fails validation */
  validation: 10014,
  /** emulator: firewall rule quota of the plan reached */
  quotaExceeded: 10019,
  /** emulator: the zone's plan lacks a feature the request asks for */
  notEntitled: 10020,
  /** wild: the entry point ruleset does not exist yet */
  rulesetNotFound: 10003,
  /** wild: a rulesets API write refused by validation (`'<value>' is not a valid value for <field> because ...`, with source.pointer) */
  rulesetValidation: 20217,
  /** wild: duplicate filter expression (meta.id names the existing filter) */
  duplicateFilter: 10102,
  /** emulator: migration request refused (state, plan or compatibility) */
  migrationRefused: 10600,
  /** emulator: the previous managed rules no longer exist for a migrated zone */
  legacyWafGone: 10601,
  /** emulator: URI-based overrides need an Enterprise zone */
  overridesNotEntitled: 10602,
  /** emulator: invite cannot change */
  inviteState: 10700,
  /** wild: rate limited */
  rateLimited: 971,
  /** emulator: injected server failure */
  internal: 10500,
} as const;
