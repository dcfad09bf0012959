import { isIP } from 'node:net';

const RESOLVER_EXPECTED = 'an IP address with an optional port, such as 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:5353';

/** `--resolver ADDR` in a form node:dns `setServers` takes, or what was expected and why not. */
export function parseResolverAddress(text: string): { ok: true; server: string } | { ok: false; reason: string } {
  const value = text.trim();
  const bad = (why: string) => ({ ok: false as const, reason: `${RESOLVER_EXPECTED} (${why})` });
  let host = value;
  let port: string | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ?? null;
    if (isIP(host) !== 6) return bad('only an IPv6 address goes in brackets');
  } else if (isIP(value) === 0) {
    const withPort = /^([^:]+):(\d+)$/.exec(value);
    if (!withPort) return bad('not an IP address (a host name would need a resolver of its own)');
    host = withPort[1]!;
    port = withPort[2]!;
    if (isIP(host) !== 4) return bad('not an IPv4 address');
  }
  if (port !== null) {
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65_535) return bad('the port must be from 1 to 65535');
  }
  const v6 = isIP(host) === 6;
  return { ok: true, server: port === null ? host : v6 ? `[${host}]:${port}` : `${host}:${port}` };
}
