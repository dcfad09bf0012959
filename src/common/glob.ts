/**
 * Glob patterns (waivers, scopes, name lists): `*` matches any run of characters (dots included, so `*.example.com`
 * matches every subdomain at any depth), `?` one character; case-insensitive, as host names are.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'iu');
}

export function isGlob(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?');
}
