import { isIP } from 'node:net';
import { BaseUrlError } from './errors.js';

const EXAMPLE = 'e.g. https://api.example.com/client/v4';

/** localhost, 127.0.0.0/8 and ::1: where plain http cannot leave the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * Checks a base URL: it must end in /client/v4, use https (http only on loopback, for the
 * emulator), and carry no credentials, query or fragment. Returns it without a trailing slash.
 */
export function validateBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BaseUrlError(`--base-url is not a URL; ${EXAMPLE}`);
  }
  if (url.username || url.password) throw new BaseUrlError('--base-url must not contain credentials; they come from the environment only');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BaseUrlError(`--base-url must be https; ${EXAMPLE}`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new BaseUrlError(`--base-url must use https (plain http is allowed only on loopback, for the emulator); ${EXAMPLE}`);
  }
  if (url.search || url.hash) throw new BaseUrlError('--base-url must not have a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/client/v4')) throw new BaseUrlError(`--base-url must end in /client/v4, got path "${url.pathname}"; ${EXAMPLE}`);
  return `${url.origin}${path}`;
}
