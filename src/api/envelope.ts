import {
  ApiAuthError,
  ApiError,
  ApiGoneError,
  ApiMalformedError,
  ApiRateLimitError,
  ApiRequestError,
  ApiServerError,
  RETIRED_MESSAGE,
  type ApiErrorItem,
} from './errors.js';
import { CREDENTIAL_ENV, VENDOR_CREDENTIAL_ENV } from '../config/options.js';

/** The body, never the status alone, decides success: a 200 can carry `success: false`. */

export interface ResultInfo {
  page?: number;
  per_page?: number;
  count?: number;
  total_count?: number;
  total_pages?: number;
  /** Cursor-paged lists (rulesets, the audit log): where the next page starts; absent or empty on the last. */
  cursor?: string;
}

export interface ApiAnswer<T = unknown> {
  status: number;
  result: T;
  resultInfo: ResultInfo | null;
  messages: unknown[];
}

export interface AnswerContext {
  route: string;
  status: number;
  body: string;
  /** Retry-After in ms, for 429s. */
  retryAfterMs: number;
  redact: (text: string) => string;
  /** Whether repeating the request is safe (reads). */
  idempotent: boolean;
  /** A credential that is not the default one, by its variables: a refusal names them. */
  credential?: string;
}

/** Control characters shown escaped and long text cut, so an excerpt is one readable line. */
export function excerpt(text: string, max = 120): string {
  const oneLine = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

function describeErrors(items: ApiErrorItem[]): string {
  return items.map((e) => (e.code === undefined ? excerpt(e.message, 200) : `${e.code} ${excerpt(e.message, 200)}`)).join('; ');
}

/** The API's error items, their text redacted: they are kept on errors that may be logged. */
function readErrorItems(value: unknown, redact: (text: string) => string): ApiErrorItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((e): ApiErrorItem[] => {
    if (e === null || typeof e !== 'object') return [];
    const item = e as Record<string, unknown>;
    const out: ApiErrorItem = { message: redact(typeof item['message'] === 'string' ? item['message'] : JSON.stringify(e)) };
    if (typeof item['code'] === 'number') out.code = item['code'];
    if (item['meta'] && typeof item['meta'] === 'object') out.meta = JSON.parse(redact(JSON.stringify(item['meta']))) as Record<string, unknown>;
    const source = item['source'];
    const pointer = source && typeof source === 'object' ? (source as Record<string, unknown>)['pointer'] : undefined;
    if (typeof pointer === 'string') out.pointer = pointer;
    return [out];
  });
}

function readResultInfo(value: unknown): ResultInfo | null {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const info: ResultInfo = {};
  for (const key of ['page', 'per_page', 'count', 'total_count', 'total_pages'] as const) {
    if (typeof v[key] === 'number' && Number.isFinite(v[key])) info[key] = v[key] as number;
  }
  if (typeof v['cursor'] === 'string' && v['cursor'] !== '') info.cursor = v['cursor'];
  else {
    // The vendor's SDKs also read the next page's cursor from `cursors.after`: taken when `cursor` is absent.
    const cursors = v['cursors'];
    const after = cursors && typeof cursors === 'object' ? (cursors as Record<string, unknown>)['after'] : undefined;
    if (typeof after === 'string' && after !== '') info.cursor = after;
  }
  return info;
}

export function readAnswer<T>(ctx: AnswerContext): ApiAnswer<T> {
  const { route, status, redact } = ctx;
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.body);
  } catch {
    const what = ctx.body.length === 0 ? 'an empty body' : `a body that is not JSON: "${excerpt(redact(ctx.body))}"`;
    throw notEnvelope(ctx, `${route}: HTTP ${status} with ${what}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || typeof (parsed as { success?: unknown }).success !== 'boolean') {
    const what = `JSON that is not the API envelope (no boolean "success"): "${excerpt(redact(ctx.body))}"`;
    throw notEnvelope(ctx, `${route}: HTTP ${status} with ${what}`);
  }
  const envelope = parsed as Record<string, unknown>;
  const errors = readErrorItems(envelope['errors'], redact);
  if (envelope['success'] === false || status >= 400) {
    throw failure(ctx, errors);
  }
  if (!('result' in envelope)) {
    const message = `${route}: HTTP ${status} with an envelope that has no "result"`;
    throw new ApiMalformedError(message, { route, status, retryable: ctx.idempotent });
  }
  return {
    status,
    result: envelope['result'] as T,
    resultInfo: readResultInfo(envelope['result_info']),
    messages: Array.isArray(envelope['messages']) ? envelope['messages'] : [],
  };
}

function rateLimited(ctx: AnswerContext, errors: ApiErrorItem[]): ApiRateLimitError {
  const detail = errors.length ? `: ${ctx.redact(describeErrors(errors))}` : '';
  return new ApiRateLimitError(`${ctx.route}: HTTP 429, rate limited${detail}`, { route: ctx.route, status: 429, apiErrors: errors }, ctx.retryAfterMs);
}

/** Both spellings of the default credential's variables: ours, and the vendor's tools' (read when ours are unset). */
export const CREDENTIALS_HINT =
  `check ${CREDENTIAL_ENV.token} (or ${VENDOR_CREDENTIAL_ENV.token}), ` +
  `or ${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key} (or ${VENDOR_CREDENTIAL_ENV.email} and ${VENDOR_CREDENTIAL_ENV.key})`;

/**
 * A body that is not the envelope fails as its status says. A 4xx may be a proxy's page, which is
 * no word on the credentials; 410 Gone is permanent whoever says it.
 */
function notEnvelope(ctx: AnswerContext, message: string): ApiError {
  const fields = { route: ctx.route, status: ctx.status };
  if (ctx.status === 429) return rateLimited(ctx, []);
  if (ctx.status >= 500) return new ApiServerError(message, { ...fields, retryable: ctx.idempotent });
  if (ctx.status === 410) return new ApiGoneError(message, fields);
  if (ctx.status >= 400) return new ApiRequestError(message, fields);
  return new ApiMalformedError(message, { ...fields, retryable: ctx.idempotent });
}

function failure(ctx: AnswerContext, errors: ApiErrorItem[]): ApiError {
  const { route, status } = ctx;
  const detail = errors.length ? ctx.redact(describeErrors(errors)) : 'no error details';
  const message = `${route}: HTTP ${status}, API error ${detail}`;
  const fields = { route, status, apiErrors: errors };
  if (status === 429 || errors.some((e) => e.code === 971 || e.code === 10100)) return rateLimited(ctx, errors);
  // 9109 and 10000 come with 401 or 403 (and 9109 is read on any status, should a proxy change it).
  if (status === 401 || status === 403 || errors.some((e) => e.code === 6003 || e.code === 9109)) {
    const hint = ctx.credential ? `check ${ctx.credential}` : CREDENTIALS_HINT;
    return new ApiAuthError(`${message} (${hint})`, ctx.credential ? { ...fields, credential: ctx.credential } : fields);
  }
  if (status === 410 || (status === 404 && errors.some((e) => RETIRED_MESSAGE.test(e.message)))) return new ApiGoneError(message, fields);
  const serverFailed = status >= 500 || (status < 400 && errors.some((e) => SERVER_FAILURE_TEXT.test(e.message)));
  if (serverFailed) return new ApiServerError(message, { ...fields, retryable: ctx.idempotent });
  return new ApiRequestError(message, fields);
}

/**
 * A 2xx with `success: false` is usually the request's fault, but the service also answers its own
 * failures that way ("Internal error: please retry"): server failures, retried for reads only.
 */
const SERVER_FAILURE_TEXT = /\binternal (server )?error\b|\bplease retry\b|\btry again\b|\btemporarily unavailable\b|\bservice unavailable\b/i;
