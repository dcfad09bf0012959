import { ZonewardenError } from '../common/errors.js';

/** One class per kind of failure with a stable `code`: callers branch on classes, codes and `retryable`, never on text. */
export interface ApiErrorItem {
  code?: number;
  message: string;
  meta?: Record<string, unknown>;
  /** The rulesets API's `source.pointer`: the request field refused (e.g. `/kind`). */
  pointer?: string;
}

export interface ApiErrorFields {
  /** `GET /zones/{id}/dns_records` style: method and path, never the query's secrets (there are none). */
  route: string;
  status: number | null;
  apiErrors?: ApiErrorItem[];
  retryable: boolean;
  attempts?: number;
  cause?: unknown;
  /** For a refusal: the variable(s) holding the credential refused, by name (never the value). */
  credential?: string;
}

export class ApiError extends ZonewardenError {
  readonly route: string;
  readonly status: number | null;
  readonly apiErrors: readonly ApiErrorItem[];
  readonly retryable: boolean;
  attempts: number;

  constructor(code: string, message: string, fields: ApiErrorFields) {
    super(code, message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.route = fields.route;
    this.status = fields.status;
    this.apiErrors = fields.apiErrors ?? [];
    this.retryable = fields.retryable;
    this.attempts = fields.attempts ?? 1;
  }

  /** Whether the API answered with this error code (e.g. 10102, duplicate filter). */
  hasCode(code: number): boolean {
    return this.apiErrors.some((e) => e.code === code);
  }

  /** The first error code the API answered with, as a partition's coverage records it; null when none. */
  get firstCode(): number | null {
    return this.apiErrors.find((e) => e.code !== undefined)?.code ?? null;
  }
}

/** A 4xx, or `success: false` on any status: the request itself is wrong. Not retried. */
export class ApiRequestError extends ApiError {
  constructor(message: string, fields: Omit<ApiErrorFields, 'retryable'>) {
    super('ZW_API_REQUEST', message, { ...fields, retryable: false });
  }
}

/**
 * The credentials were refused: any 401, any 403 (code 9109 "Invalid access token", 10000
 * "Authentication error", or a missing permission), or 400 code 6003 (malformed auth headers).
 */
export class ApiAuthError extends ApiError {
  /** The variable(s) holding the refused credential, when it is not the default one. */
  readonly credential: string | null;

  constructor(message: string, fields: Omit<ApiErrorFields, 'retryable'>) {
    super('ZW_API_AUTH', message, { ...fields, retryable: false });
    this.credential = fields.credential ?? null;
  }
}

/** 410 Gone, or a 404 saying the endpoint was retired (the previous managed-rules endpoints). Never retried. */
export class ApiGoneError extends ApiError {
  constructor(message: string, fields: Omit<ApiErrorFields, 'retryable'>) {
    super('ZW_API_GONE', message, { ...fields, retryable: false });
  }
}

/**
 * A 404 saying "this endpoint was retired", not "this object does not exist": the API has no code
 * for it (the vendor's SDK documents "This endpoint has been deprecated and returns 410 Gone").
 */
export const RETIRED_MESSAGE = /\b(no longer (available|supported)|has been (deprecated|retired|removed)|endpoint (is|was) (deprecated|retired))\b/i;

/** 429: over the rate limit. Retried after Retry-After. */
export class ApiRateLimitError extends ApiError {
  constructor(message: string, fields: Omit<ApiErrorFields, 'retryable'>, readonly retryAfterMs: number) {
    super('ZW_API_RATE_LIMITED', message, { ...fields, retryable: true });
  }
}

/** 5xx: the service failed. Retried with backoff (reads only: a write may have happened). */
export class ApiServerError extends ApiError {
  constructor(message: string, fields: ApiErrorFields) {
    super('ZW_API_SERVER', message, fields);
  }
}

/** A body that is not the API's JSON envelope: not JSON, truncated, or of the wrong shape. */
export class ApiMalformedError extends ApiError {
  constructor(message: string, fields: ApiErrorFields) {
    super('ZW_API_MALFORMED', message, fields);
  }
}

/** An attempt that took longer than the time limit. */
export class ApiTimeoutError extends ApiError {
  constructor(message: string, fields: ApiErrorFields) {
    super('ZW_API_TIMEOUT', message, fields);
  }
}

/** The connection failed or was reset. `unreachable`: no connection could be made at all. */
export class ApiNetworkError extends ApiError {
  readonly unreachable: boolean;
  constructor(message: string, fields: ApiErrorFields & { unreachable?: boolean }) {
    super('ZW_API_NETWORK', message, fields);
    this.unreachable = fields.unreachable ?? false;
  }
}

/** The caller cancelled the request (AbortSignal). Never retried. */
export class ApiAbortedError extends ApiError {
  constructor(route: string) {
    super('ZW_API_ABORTED', `${route}: cancelled`, { route, status: null, retryable: false });
  }
}

/** Bad --base-url: one line saying what is wrong and what a good one looks like. */
export class BaseUrlError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_BASE_URL', message);
  }
}
