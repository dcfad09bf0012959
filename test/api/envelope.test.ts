import { describe, expect, it } from 'vitest';
import { excerpt, readAnswer, type AnswerContext } from '../../src/api/envelope.js';
import {
  ApiAuthError,
  ApiError,
  ApiGoneError,
  ApiMalformedError,
  ApiRateLimitError,
  ApiRequestError,
  ApiServerError,
} from '../../src/api/errors.js';

const ROUTE = 'GET /zones/{id}/dns_records';
const SECRET = 'fake-secret-token-0123456789';
const redactSecret = (text: string) => text.split(SECRET).join('[redacted]');

function ctx(status: number, body: unknown, extra: Partial<AnswerContext> = {}): AnswerContext {
  return {
    route: ROUTE,
    status,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    retryAfterMs: 0,
    redact: (t) => t,
    idempotent: true,
    ...extra,
  };
}

/** The error readAnswer throws; fails the test when it returns. */
function failure(context: AnswerContext): ApiError {
  try {
    readAnswer(context);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error(`readAnswer accepted HTTP ${context.status} ${context.body}`);
}

/** Any of the error classes, for tables that expect one. */
type ErrorClass = new (...args: never[]) => ApiError;

const envelope = (over: Record<string, unknown>) => ({ success: true, errors: [], messages: [], result: null, ...over });

describe('readAnswer success', () => {
  it('returns the result, result_info and messages', () => {
    const answer = readAnswer<Array<{ id: string }>>(
      ctx(
        200,
        envelope({
          result: [{ id: 'a' }, { id: 'b' }],
          result_info: { page: 2, per_page: 50, count: 2, total_count: 52, total_pages: 2 },
          messages: [{ code: 1, message: 'note' }],
        }),
      ),
    );
    expect(answer).toEqual({
      status: 200,
      result: [{ id: 'a' }, { id: 'b' }],
      resultInfo: { page: 2, per_page: 50, count: 2, total_count: 52, total_pages: 2 },
      messages: [{ code: 1, message: 'note' }],
    });
  });

  it('drops result_info fields that are not finite numbers, and unknown fields', () => {
    const answer = readAnswer(
      ctx(200, envelope({ result: [], result_info: { page: '2', per_page: 50, count: null, total_count: true, total_pages: 3, cursor: 7, next: 'abc' } })),
    );
    expect(answer.resultInfo).toEqual({ per_page: 50, total_pages: 3 });
  });

  it('keeps a cursor that names the next page, and none when it is empty', () => {
    // vendor's API reference: cursor-paged lists (rulesets, audit log v2) carry result_info.cursor while more pages follow.
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: { count: 1, cursor: 'abc' } }))).resultInfo).toEqual({ count: 1, cursor: 'abc' });
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: { count: 1, cursor: '' } }))).resultInfo).toEqual({ count: 1 });
  });

  it("takes the next page's cursor from cursors.after when result_info has no cursor", () => {
    // vendor's TypeScript SDK (cloudflare 4+): the audit log's cursor pagination reads result_info.cursors.after.
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: { cursors: { after: 'xyz' } } }))).resultInfo).toEqual({ cursor: 'xyz' });
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: { cursor: 'abc', cursors: { after: 'xyz' } } }))).resultInfo).toEqual({ cursor: 'abc' });
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: { cursors: { after: '' } } }))).resultInfo).toEqual({});
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: { cursors: 'after' } }))).resultInfo).toEqual({});
  });

  it('names the mapped credential\'s variable in a refusal, not the default ones', () => {
    const err = failure(ctx(403, envelope({ success: false, errors: [{ code: 9109, message: 'Invalid access token' }] }), { credential: 'ZW_TOKEN_ACME' }));
    expect(err).toBeInstanceOf(ApiAuthError);
    expect(err.message).toContain('(check ZW_TOKEN_ACME)');
    expect(err.message).not.toContain('ZONEWARDEN_API_TOKEN');
    expect((err as ApiAuthError).credential).toBe('ZW_TOKEN_ACME');
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['an array', [1, 2]],
    ['a number', 5],
  ])('gives resultInfo null when result_info is %s', (_what, info) => {
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: info }))).resultInfo).toBeNull();
  });

  it('gives an empty resultInfo for an empty result_info object', () => {
    expect(readAnswer(ctx(200, envelope({ result: [], result_info: {} }))).resultInfo).toEqual({});
  });

  it('accepts a null result and missing messages', () => {
    const answer = readAnswer(ctx(200, { success: true, result: null }));
    expect(answer).toEqual({ status: 200, result: null, resultInfo: null, messages: [] });
  });

  it('accepts other 2xx statuses', () => {
    expect(readAnswer(ctx(201, envelope({ result: { id: 'new' } }))).result).toEqual({ id: 'new' });
  });
});

describe('readAnswer failures in the envelope', () => {
  it('refuses a 200 with success:false as a request error naming route, status and codes', () => {
    const err = failure(ctx(200, envelope({ success: false, errors: [{ code: 1003, message: 'Invalid or missing zone id.' }, { code: 7003, message: 'Could not route' }] })));
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err.code).toBe('ZW_API_REQUEST');
    expect(err.retryable).toBe(false);
    expect(err.status).toBe(200);
    expect(err.route).toBe(ROUTE);
    expect(err.message).toBe(`${ROUTE}: HTTP 200, API error 1003 Invalid or missing zone id.; 7003 Could not route`);
    expect(err.apiErrors).toEqual([
      { code: 1003, message: 'Invalid or missing zone id.' },
      { code: 7003, message: 'Could not route' },
    ]);
  });

  // The service answers some of its own failures as HTTP 200 with success:false: server failures.
  it.each<[string, boolean]>([
    ['Internal error: please retry', true],
    ['Internal error: please retry', false],
    ['Service temporarily unavailable, try again later', true],
  ])('refuses a 200 with success:false and "%s" as a server error, retryable only when idempotent (%s)', (message, idempotent) => {
    const err = failure(ctx(200, envelope({ success: false, errors: [{ code: 10500, message }] }), { idempotent }));
    expect(err).toBeInstanceOf(ApiServerError);
    expect(err.retryable).toBe(idempotent);
    expect(err.message).toBe(`${ROUTE}: HTTP 200, API error 10500 ${message}`);
  });

  it('says so when a failure has no error details', () => {
    const err = failure(ctx(404, envelope({ success: false })));
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err.message).toBe(`${ROUTE}: HTTP 404, API error no error details`);
  });

  it('treats a 4xx as a failure even when the body claims success', () => {
    const err = failure(ctx(400, envelope({ success: true, result: [] })));
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err.status).toBe(400);
  });

  it('keeps error items without a code or message, and meta objects', () => {
    const err = failure(ctx(400, envelope({ success: false, errors: [{ message: 'no code' }, { code: 9 }, 'junk', null, { code: 10, message: 'm', meta: { field: 'x' } }] })));
    expect(err.apiErrors).toEqual([{ message: 'no code' }, { code: 9, message: '{"code":9}' }, { code: 10, message: 'm', meta: { field: 'x' } }]);
    expect(err.message).toBe(`${ROUTE}: HTTP 400, API error no code; 9 {"code":9}; 10 m`);
  });

  it.each<[number, number]>([
    [403, 10000],
    [400, 6003],
    // 6003 means malformed credentials whatever the status.
    // The hint names both spellings of the default credential: ours, and those the vendor's tools read
    // (vendor docs: Wrangler's system environment variables, CLOUDFLARE_API_TOKEN or CLOUDFLARE_EMAIL with CLOUDFLARE_API_KEY).
    [200, 6003],
  ])('refuses HTTP %i with code %i as an authentication error', (status, code) => {
    const err = failure(ctx(status, envelope({ success: false, errors: [{ code, message: 'Authentication error' }] })));
    expect(err).toBeInstanceOf(ApiAuthError);
    expect(err.code).toBe('ZW_API_AUTH');
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      `${ROUTE}: HTTP ${status}, API error ${code} Authentication error (check ZONEWARDEN_API_TOKEN (or CLOUDFLARE_API_TOKEN), or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY))`,
    );
    expect(err.hasCode(code)).toBe(true);
  });

  // docs/api-surface.md, answers beyond the spec: 403 9109 for a bad, revoked or IP-restricted token
  // and for a missing permission; 401 code 10000 on some endpoints.
  it.each<[number, number, string]>([
    [403, 9109, 'Invalid access token'],
    [403, 9109, 'Cannot use the access token from location: 192.0.2.7'],
    [403, 9109, 'Unauthorized to access requested resource'],
    [401, 10000, 'Authentication error'],
  ])('refuses HTTP %i with code %i (%s) as an authentication error, never retried', (status, code, message) => {
    const err = failure(ctx(status, envelope({ success: false, errors: [{ code, message }] })));
    expect(err).toBeInstanceOf(ApiAuthError);
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(`${ROUTE}: HTTP ${status}, API error ${code} ${message} (check ZONEWARDEN_API_TOKEN (or CLOUDFLARE_API_TOKEN), or ZONEWARDEN_API_EMAIL and ZONEWARDEN_API_KEY (or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY))`);
  });

  it('keeps 400 code 1001 (an account-owned token on the account list) a request error carrying its code', () => {
    // docs/api-surface.md, answers beyond the spec: "List accounts endpoint does not support account owned tokens."
    const err = failure(ctx(400, envelope({ success: false, errors: [{ code: 1001, message: 'List accounts endpoint does not support account owned tokens.' }] })));
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err.hasCode(1001)).toBe(true);
  });

  it.each<[string, number, unknown]>([
    // vendor SDK (cloudflare 7.x, firewall/waf/overrides): an error item with a message and no code.
    ['410 with an envelope', 410, envelope({ success: false, errors: [{ message: 'This endpoint has been deprecated and returns 410 Gone.' }] })],
    ['410 with a page that is not JSON', 410, '<html>Gone</html>'],
    ['404 saying the endpoint is no longer available', 404, envelope({ success: false, errors: [{ code: 10001, message: 'This API is no longer available; use the rulesets API' }] })],
  ])('refuses a retired endpoint (%s) as gone, never retried', (_what, status, body) => {
    const err = failure(ctx(status, body));
    expect(err).toBeInstanceOf(ApiGoneError);
    expect(err.code).toBe('ZW_API_GONE');
    expect(err.retryable).toBe(false);
  });

  it('keeps a 404 for an object that does not exist a request error, not a retired endpoint', () => {
    const err = failure(ctx(404, envelope({ success: false, errors: [{ code: 7003, message: 'Could not route to /zones/x, perhaps your object identifier is invalid?' }, { code: 7000, message: 'No route for that URI' }] })));
    expect(err).toBeInstanceOf(ApiRequestError);
  });

  it('does not treat code 10000 on a status other than 403 as an authentication error', () => {
    const err = failure(ctx(400, envelope({ success: false, errors: [{ code: 10000, message: 'Authentication error' }] })));
    expect(err).toBeInstanceOf(ApiRequestError);
  });

  it('refuses a 429 envelope as rate limited, carrying retryAfterMs and the error details', () => {
    const err = failure(ctx(429, envelope({ success: false, errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }] }), { retryAfterMs: 300_000 }));
    expect(err).toBeInstanceOf(ApiRateLimitError);
    expect(err.code).toBe('ZW_API_RATE_LIMITED');
    expect(err.retryable).toBe(true);
    expect(err.status).toBe(429);
    expect((err as ApiRateLimitError).retryAfterMs).toBe(300_000);
    expect(err.message).toBe(`${ROUTE}: HTTP 429, rate limited: 971 Please wait and consider throttling your request speed`);
  });

  it.each([[971], [10100]])('treats code %i on another status as rate limited', (code) => {
    const err = failure(ctx(400, envelope({ success: false, errors: [{ code, message: 'slow down' }] }), { retryAfterMs: 1234 }));
    expect(err).toBeInstanceOf(ApiRateLimitError);
    expect((err as ApiRateLimitError).retryAfterMs).toBe(1234);
    // The error reports 429 whatever the status, so callers see one kind of rate limit.
    expect(err.status).toBe(429);
  });

  it.each([
    ['HTML', '<html><body>Too Many Requests</body></html>', `${ROUTE}: HTTP 429, rate limited`],
    ['empty', '', `${ROUTE}: HTTP 429, rate limited`],
    ['non-envelope JSON', '{"message":"Too Many Requests"}', `${ROUTE}: HTTP 429, rate limited`],
  ])('refuses a 429 with a %s body as rate limited', (_what, body, message) => {
    const err = failure(ctx(429, body, { retryAfterMs: 60_000, idempotent: false }));
    expect(err).toBeInstanceOf(ApiRateLimitError);
    expect(err.message).toBe(message);
    expect(err.retryable).toBe(true);
    expect((err as ApiRateLimitError).retryAfterMs).toBe(60_000);
  });

  it.each<[boolean]>([[true], [false]])('refuses a 5xx envelope as a server error, retryable only when idempotent (%s)', (idempotent) => {
    const err = failure(ctx(503, envelope({ success: false, errors: [{ code: 10013, message: 'Service unavailable' }] }), { idempotent }));
    expect(err).toBeInstanceOf(ApiServerError);
    expect(err.code).toBe('ZW_API_SERVER');
    expect(err.retryable).toBe(idempotent);
    expect(err.message).toBe(`${ROUTE}: HTTP 503, API error 10013 Service unavailable`);
  });
});

describe('readAnswer bodies that are not the envelope', () => {
  it.each<[boolean]>([[true], [false]])('refuses a 502 HTML page as a server error with an excerpt (idempotent %s)', (idempotent) => {
    const html = '<html>\n<head><title>502 Bad Gateway</title></head>\n<body>' + 'x'.repeat(300) + '</body></html>';
    const err = failure(ctx(502, html, { idempotent }));
    expect(err).toBeInstanceOf(ApiServerError);
    expect(err.retryable).toBe(idempotent);
    expect(err.status).toBe(502);
    expect(err.message).toBe(`${ROUTE}: HTTP 502 with a body that is not JSON: "${excerpt(html)}"`);
    expect(err.message).toContain('<html>\\u000a<head><title>502 Bad Gateway</title>');
    expect(err.message).toMatch(/x…"$/);
  });

  it('refuses a 5xx with an empty body, saying it was empty', () => {
    expect(failure(ctx(500, '')).message).toBe(`${ROUTE}: HTTP 500 with an empty body`);
  });

  it('refuses a 4xx HTML page as a request error', () => {
    const err = failure(ctx(403, '<html>Forbidden</html>'));
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err.message).toBe(`${ROUTE}: HTTP 403 with a body that is not JSON: "<html>Forbidden</html>"`);
  });

  it.each<[string, string, string]>([
    ['not JSON', 'OK', `${ROUTE}: HTTP 200 with a body that is not JSON: "OK"`],
    ['truncated JSON', '{"success":true,"result":[{"id":"a"},{"id"', `${ROUTE}: HTTP 200 with a body that is not JSON: "{"success":true,"result":[{"id":"a"},{"id""`],
    ['empty', '', `${ROUTE}: HTTP 200 with an empty body`],
  ])('refuses a 200 that is %s as malformed, naming status, route and excerpt', (_what, body, message) => {
    const err = failure(ctx(200, body));
    expect(err).toBeInstanceOf(ApiMalformedError);
    expect(err.code).toBe('ZW_API_MALFORMED');
    expect(err.status).toBe(200);
    expect(err.route).toBe(ROUTE);
    expect(err.message).toBe(message);
  });

  it.each<[boolean]>([[true], [false]])('makes a malformed 200 retryable only when idempotent (%s)', (idempotent) => {
    expect(failure(ctx(200, '{"succ', { idempotent })).retryable).toBe(idempotent);
  });

  it('cuts a long malformed body to a short excerpt', () => {
    const body = 'y'.repeat(5000);
    const err = failure(ctx(200, body));
    expect(err.message).toBe(`${ROUTE}: HTTP 200 with a body that is not JSON: "${'y'.repeat(120)}…"`);
  });

  it.each([
    ['an array', [1, 2]],
    ['null', null],
    ['a number', 42],
    ['a string', 'ok'],
    ['an object without success', { result: [] }],
    ['a string success', { success: 'true', result: [] }],
    ['a numeric success', { success: 1, result: [] }],
  ])('refuses JSON that is %s as malformed', (_what, json) => {
    const body = JSON.stringify(json);
    const err = failure(ctx(200, body));
    expect(err).toBeInstanceOf(ApiMalformedError);
    expect(err.message).toBe(`${ROUTE}: HTTP 200 with JSON that is not the API envelope (no boolean "success"): "${body}"`);
  });

  it.each<[number, ErrorClass]>([
    [404, ApiRequestError],
    [500, ApiServerError],
  ])('classifies non-envelope JSON on HTTP %i by status', (status, kind) => {
    expect(failure(ctx(status, '{"error":"nope"}'))).toBeInstanceOf(kind);
  });

  it('refuses an envelope without result as malformed', () => {
    const err = failure(ctx(200, { success: true, errors: [], messages: [] }));
    expect(err).toBeInstanceOf(ApiMalformedError);
    expect(err.message).toBe(`${ROUTE}: HTTP 200 with an envelope that has no "result"`);
  });
});

describe('readAnswer redaction', () => {
  const redacting = { redact: redactSecret };

  it.each<[string, number, string, ErrorClass]>([
    ['a non-JSON 200', 200, `<p>token ${SECRET} rejected</p>`, ApiMalformedError],
    ['a non-JSON 502', 502, `<p>upstream saw ${SECRET}</p>`, ApiServerError],
    ['a non-JSON 400', 400, `bad header ${SECRET}`, ApiRequestError],
    ['non-envelope JSON', 200, JSON.stringify({ echo: SECRET }), ApiMalformedError],
    ['an error message', 400, JSON.stringify(envelope({ success: false, errors: [{ code: 6111, message: `Invalid format for Authorization header: Bearer ${SECRET}` }] })), ApiRequestError],
    ['an auth error message', 403, JSON.stringify(envelope({ success: false, errors: [{ code: 10000, message: `bad token ${SECRET}` }] })), ApiAuthError],
    ['a 5xx error message', 500, JSON.stringify(envelope({ success: false, errors: [{ code: 1, message: `boom ${SECRET}` }] })), ApiServerError],
    ['a rate-limit message', 429, JSON.stringify(envelope({ success: false, errors: [{ code: 971, message: `slow ${SECRET}` }] })), ApiRateLimitError],
  ])('removes the secret from %s', (_what, status, body, kind) => {
    const err = failure(ctx(status, body, redacting));
    expect(err).toBeInstanceOf(kind);
    expect(err.message).not.toContain(SECRET);
    expect(err.message).toContain('[redacted]');
  });

  it('redacts before cutting, so a secret straddling the cut is not half shown', () => {
    const body = 'z'.repeat(110) + SECRET;
    const err = failure(ctx(200, body, redacting));
    expect(err.message).toBe(`${ROUTE}: HTTP 200 with a body that is not JSON: "${'z'.repeat(110)}[redacted]"`);
    expect(err.message).not.toContain(SECRET.slice(0, 8));
  });
});

describe('excerpt', () => {
  it.each<[string, string]>([
    ['plain text', 'plain text'],
    ['line1\nline2', 'line1\\u000aline2'],
    ['a\r\nb', 'a\\u000d\\u000ab'],
    ['tab\there', 'tab\\u0009here'],
    ['\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
    ['abc\u202edcba', 'abc\\u202edcba'],
    ['\u2028\u2029\u2066\u0085\u007f\u0000', '\\u2028\\u2029\\u2066\\u0085\\u007f\\u0000'],
    ['unicode é ✓ stays', 'unicode é ✓ stays'],
    ['', ''],
  ])('escapes %j as %j', (input, expected) => {
    expect(excerpt(input)).toBe(expected);
  });

  it('keeps text of exactly the limit and cuts longer text with an ellipsis', () => {
    expect(excerpt('a'.repeat(120))).toBe('a'.repeat(120));
    expect(excerpt('a'.repeat(121))).toBe(`${'a'.repeat(120)}…`);
    expect(excerpt('abcdef', 3)).toBe('abc…');
  });

  it('counts the escapes against the limit, so the excerpt stays one short line', () => {
    expect(excerpt('\n'.repeat(100), 12)).toBe('\\u000a\\u000a…');
  });
});

describe('ApiError.hasCode', () => {
  it('is true only for codes the API returned', () => {
    const err = failure(ctx(400, envelope({ success: false, errors: [{ code: 10102, message: 'duplicate' }, { message: 'no code' }] })));
    expect(err.hasCode(10102)).toBe(true);
    expect(err.hasCode(10101)).toBe(false);
    expect(err.hasCode(400)).toBe(false);
  });

  it('is false when there were no error items', () => {
    expect(failure(ctx(200, 'not json')).hasCode(0)).toBe(false);
  });
});
