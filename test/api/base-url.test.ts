import { describe, expect, it } from 'vitest';
import { validateBaseUrl } from '../../src/api/base-url.js';
import { BaseUrlError } from '../../src/api/errors.js';
import { COMMON_OPTIONS, VENDOR_BASE_URL } from '../../src/config/options.js';

/** The BaseUrlError thrown for `raw`; fails the test when the URL is accepted. */
function refusal(raw: string): BaseUrlError {
  try {
    const accepted = validateBaseUrl(raw);
    throw new Error(`accepted ${raw} as ${accepted}`);
  } catch (err) {
    if (!(err instanceof BaseUrlError)) throw err;
    return err;
  }
}

describe('validateBaseUrl accepts', () => {
  it.each([
    ['https://api.example.com/client/v4', 'https://api.example.com/client/v4'],
    ['https://api.example.com/client/v4/', 'https://api.example.com/client/v4'],
    ['https://api.example.com/client/v4///', 'https://api.example.com/client/v4'],
    ['https://api.example.com:8443/client/v4', 'https://api.example.com:8443/client/v4'],
    // The default port is dropped by URL, and the host is lowercased.
    ['https://API.Example.COM:443/client/v4', 'https://api.example.com/client/v4'],
    ['https://proxy.example.com/cf/client/v4', 'https://proxy.example.com/cf/client/v4'],
    // An empty query or fragment marker is nothing: URL drops it.
    ['https://api.example.com/client/v4?', 'https://api.example.com/client/v4'],
    ['https://api.example.com/client/v4#', 'https://api.example.com/client/v4'],
    ['https://10.0.0.1/client/v4', 'https://10.0.0.1/client/v4'],
    ['http://127.0.0.1:8787/client/v4', 'http://127.0.0.1:8787/client/v4'],
    ['http://127.0.0.1:8787/client/v4/', 'http://127.0.0.1:8787/client/v4'],
    ['http://127.45.6.7/client/v4', 'http://127.45.6.7/client/v4'],
    ['http://127.255.255.254:1/client/v4', 'http://127.255.255.254:1/client/v4'],
    ['http://localhost:8787/client/v4', 'http://localhost:8787/client/v4'],
    ['http://LOCALHOST/client/v4', 'http://localhost/client/v4'],
    ['http://emu.localhost:8787/client/v4', 'http://emu.localhost:8787/client/v4'],
    ['http://[::1]:8787/client/v4', 'http://[::1]:8787/client/v4'],
    ['http://[::1]/client/v4/', 'http://[::1]/client/v4'],
  ])('%s as %s', (raw, expected) => {
    expect(validateBaseUrl(raw)).toBe(expected);
  });

  it("the default, the vendor's API, as it is", () => {
    // vendor docs: API calls are written https://api.cloudflare.com/client/v4/... (the WAF's "Deploy a WAF managed ruleset via API").
    expect(VENDOR_BASE_URL).toBe('https://api.cloudflare.com/client/v4');
    expect(COMMON_OPTIONS.baseUrl.default).toBe(VENDOR_BASE_URL);
    expect(validateBaseUrl(VENDOR_BASE_URL)).toBe(VENDOR_BASE_URL);
  });
});

describe('validateBaseUrl refuses', () => {
  const mustUseHttps = '--base-url must use https (plain http is allowed only on loopback, for the emulator); e.g. https://api.example.com/client/v4';

  it.each([
    ['http://api.example.com/client/v4'],
    ['http://10.0.0.1/client/v4'],
    ['http://192.168.1.10:8787/client/v4'],
    ['http://0.0.0.0:8787/client/v4'],
    // Lookalikes of loopback names that are not loopback.
    ['http://127.0.0.1.example.com/client/v4'],
    ['http://localhost.example.com/client/v4'],
    ['http://mylocalhost/client/v4'],
    ['http://[::2]/client/v4'],
    // IPv4-mapped loopback is refused too: only the plain loopback forms are allowed.
    ['http://[::ffff:127.0.0.1]/client/v4'],
  ])('plain http on %s', (raw) => {
    expect(refusal(raw).message).toBe(mustUseHttps);
  });

  it.each([['ftp://api.example.com/client/v4'], ['ws://127.0.0.1/client/v4'], ['file:///client/v4'], ['javascript:alert(1)//client/v4']])(
    'the protocol of %s',
    (raw) => {
      expect(refusal(raw).message).toBe('--base-url must be https; e.g. https://api.example.com/client/v4');
    },
  );

  it.each([
    ['https://api.example.com', '/'],
    ['https://api.example.com/', '/'],
    ['https://api.example.com/client', '/client'],
    ['https://api.example.com/client/v4/zones', '/client/v4/zones'],
    ['https://api.example.com/client/v40', '/client/v40'],
    ['https://api.example.com/myclient/v4x', '/myclient/v4x'],
    ['https://api.example.com/Client/V4', '/Client/V4'],
    ['http://127.0.0.1:8787/', '/'],
  ])('%s, which does not end in /client/v4', (raw, path) => {
    expect(refusal(raw).message).toBe(`--base-url must end in /client/v4, got path "${path}"; e.g. https://api.example.com/client/v4`);
  });

  it.each([
    ['https://user:hunter2pass@api.example.com/client/v4', ['user', 'hunter2pass']],
    ['https://tok_abcdef123456@api.example.com/client/v4', ['tok_abcdef123456']],
    ['https://:p4ssw0rd-only@api.example.com/client/v4', ['p4ssw0rd-only']],
    ['http://admin:s3cr3t-value@127.0.0.1/client/v4', ['admin', 's3cr3t-value']],
  ])('credentials in %s without echoing them', (raw, secrets) => {
    const message = refusal(raw).message;
    expect(message).toBe('--base-url must not contain credentials; they come from the environment only');
    for (const s of secrets) expect(message).not.toContain(s);
  });

  it.each([
    ['https://api.example.com/client/v4?token=abc'],
    ['https://api.example.com/client/v4?x'],
    ['https://api.example.com/client/v4#zones'],
    ['http://127.0.0.1/client/v4?debug=1'],
  ])('a query or fragment in %s', (raw) => {
    expect(refusal(raw).message).toBe('--base-url must not have a query or fragment');
  });

  it.each([[''], ['api.example.com/client/v4'], ['/client/v4'], ['https://'], ['not a url'], ['http://[::1/client/v4']])(
    'the non-URL %j',
    (raw) => {
      expect(refusal(raw).message).toBe('--base-url is not a URL; e.g. https://api.example.com/client/v4');
    },
  );

  it('with the base URL error code and the usage exit', () => {
    const err = refusal('nope');
    expect(err.code).toBe('ZW_BASE_URL');
    expect(err.exitCode).toBe(2);
  });
});
