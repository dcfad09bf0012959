import type { ApiClient, ApiClientOptions } from '../api/client.js';
import { ApiAuthError, type ApiError } from '../api/errors.js';
import { ZonewardenError } from '../common/errors.js';
import { CREDENTIAL_ENV, VENDOR_CREDENTIAL_ENV } from '../config/options.js';

/**
 * The first calls found the credentials refused or the API unreachable: the scan ends (exit 2, one
 * line saying what to check), since every other call would answer the same.
 */
export class ScanCannotStart extends ZonewardenError {
  constructor(
    code: 'ZW_CREDENTIALS_REJECTED' | 'ZW_API_UNREACHABLE',
    message: string,
    readonly error: ApiError,
  ) {
    super(code, message, { cause: error });
  }
}

/** 9109 with this message: the token is limited to client addresses this one is not among. */
const WRONG_LOCATION = /from location/i;

/** `alsoRefused`: the variables of the scan's other credentials refused before (null: the default's), each named. */
export function startingFailure(err: ApiError, client: Pick<ApiClientOptions, 'credentials' | 'baseUrl'>, alsoRefused: ReadonlyArray<string | null> = []): ScanCannotStart {
  const said = err.apiErrors.map((e) => (e.code === undefined ? e.message : `${e.code} ${e.message}`)).join('; ') || 'no error details';
  if (err instanceof ApiAuthError) {
    // A mapped credential's own variables; for the default, either spelling may hold it (credentials.ts
    // reads the vendor's names when ours are unset) and the client does not know which.
    const named = (credential: string | null) =>
      credential
        ? credential
        : client.credentials.kind === 'token'
          ? `${CREDENTIAL_ENV.token} (or ${VENDOR_CREDENTIAL_ENV.token})`
          : `${CREDENTIAL_ENV.email} and ${CREDENTIAL_ENV.key} (or ${VENDOR_CREDENTIAL_ENV.email} and ${VENDOR_CREDENTIAL_ENV.key})`;
    const refused = [...new Set([err.credential, ...alsoRefused].map(named))];
    const variables = refused.join(', ');
    const hint = err.apiErrors.some((e) => WRONG_LOCATION.test(e.message))
      ? `the token is restricted to other client IP addresses: allow this host's address in the token's settings, or use another token in ${variables}`
      : `check ${variables} (${refused.length > 1 ? 'each ' : ''}a valid, unexpired token or key with read access)`;
    return new ScanCannotStart('ZW_CREDENTIALS_REJECTED', `the API refused the credentials (${err.route}: HTTP ${err.status ?? '?'}, ${said}): ${hint}`, err);
  }
  // The client's message already names the route and the cause (ENOTFOUND, ECONNREFUSED, a certificate).
  return new ScanCannotStart('ZW_API_UNREACHABLE', `the API at ${client.baseUrl} cannot be reached: ${err.message}; check --base-url or ZONEWARDEN_BASE_URL and the network`, err);
}

/** The credential a client reads with, by its variables' names (never its value). */
export function credentialOf(client: ApiClient): string {
  const variables = client.options.credentialVariables;
  return variables ? `the credential in ${variables}` : 'the default credential';
}
