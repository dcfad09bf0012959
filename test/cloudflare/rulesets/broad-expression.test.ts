import { describe, expect, it } from 'vitest';
import { broadReach, parseExpression, parsedExpressionsKept } from '../../../src/cloudflare/rulesets/broad-expression.js';

const ALL = 'every request';
const HOST = 'every request to the host';
const HOSTS = 'every request to the hosts it names';
const BY_HOST = 'requests decided by the host name alone';

describe('broadReach', () => {
  it.each<[string, string | null, string]>([
    // vendor docs: rules language, values: `true` is a boolean; parentheses group (operators: grouping symbols).
    ['true', ALL, 'the literal true'],
    ['(true)', ALL, 'grouped'],
    [' ( (  true ) ) ', ALL, 'nested groups and whitespace'],
    // vendor docs: operators: logical NOT, `not` or `!`.
    ['not false', ALL, 'negated false'],
    ['!false', ALL, 'C-like negation'],
    ['true and true', ALL, 'a conjunction of always-true parts'],
    // vendor docs: operators: OR is true when either side is.
    ['true or http.request.uri.path eq "/a"', ALL, 'true or anything'],
    // vendor docs: values: inline lists take CIDR ranges; every request comes from an IPv4 or an IPv6 address.
    ['ip.src in {0.0.0.0/0 ::/0}', ALL, 'every IPv4 and IPv6 address'],
    ['ip.src in { ::/0  0.0.0.0/0 }', ALL, 'both families, other order'],
    ['ip.src in {0.0.0.0/0} or ip.src in {::/0}', ALL, 'both families across an or'],
    ['ip.src in {0.0.0.0..255.255.255.255 ::/0}', ALL, 'the whole IPv4 range written as a range'],
    ['ip.src in {0.0.0.0/0}', null, 'IPv4 only: IPv6 clients are not matched'],
    ['ip.src in {::/0}', null, 'IPv6 only'],
    ['not ip.src in {0.0.0.0/0 ::/0}', null, 'no request'],
    // RFC 9110 4.1, RFC 9112 3.2.1: a request path is an absolute-path, "/" and segments.
    ['starts_with(http.request.uri.path, "/")', ALL, 'every path starts with /'],
    ['http.request.uri.path matches "^/"', ALL, 'regex anchored at the leading /'],
    ['http.request.uri.path ~ "^/"', ALL, 'C-like regex operator'],
    ['http.request.uri.path contains "/"', ALL, 'every path contains /'],
    ['starts_with(http.request.uri.path, "/api")', null, 'one path prefix'],
    ['starts_with(http.user_agent, "/")', null, 'a / prefix of another field'],
    // vendor docs: operators: `matches` uses Rust regular expressions, which find `.*` in any string.
    ['http.request.uri.path matches ".*"', ALL, 'a regex matching any string'],
    ['http.user_agent matches r"^"', ALL, 'an empty anchor, raw string'],
    ['http.user_agent matches "^.*$"', null, 'not taken: `.` does not match a newline'],
    ['http.request.uri.path matches "^/api"', null, 'a real regex'],
    // Decision (docs silent): every string contains the empty string, as substring search defines it.
    ['http.request.uri.path contains ""', ALL, 'the empty substring'],
    ['ends_with(http.user_agent, "")', ALL, 'the empty suffix'],
    ['lower(http.user_agent) contains ""', ALL, 'of a lowercased field'],
    // vendor docs: operators: wildcard matches the entire value; `*` is zero or more characters.
    ['http.request.full_uri wildcard "*"', ALL, 'a wildcard of * alone'],
    ['http.request.full_uri wildcard "*.example.com/*"', null, 'a real wildcard'],
    // vendor docs: operators: wildcard: `*` is zero or more characters; RFC 9110 4.1: every path starts with "/".
    ['http.request.uri.path wildcard "/*"', ALL, 'every path as a wildcard'],
    ['http.request.uri.path strict wildcard "/*"', ALL, 'every path as a strict wildcard'],
    ['http.user_agent wildcard "/*"', null, '/* of a field that is not a path'],
    ['http.request.uri.path wildcard "/api/*"', null, 'a path prefix as a wildcard'],
    // vendor docs: operators: eq/== and ne/!= on the same value are each other's negation.
    ['http.request.uri.path eq "/a" or http.request.uri.path ne "/a"', ALL, 'X eq a or X ne a'],
    ['http.request.uri.path == "/a" || http.request.uri.path != "/a"', ALL, 'C-like notation'],
    ['http.request.uri.path eq "/a" or http.request.uri.path ne r"/a"', ALL, 'the same value as raw string'],
    ['ssl or not ssl', ALL, 'A or not A, boolean field'],
    ['(ip.src.country eq "FR" and ssl) or not (ip.src.country eq "FR" and ssl)', ALL, 'A or not A, compound A'],
    ['http.request.uri.path eq "/a" or http.request.uri.path ne "/b"', null, 'different values'],
    ['http.request.uri.path eq "/a" and http.request.uri.path ne "/a"', null, 'a contradiction, not a tautology'],
    // vendor docs: operators: eq compares the whole value; one host name cannot equal two different strings.
    ['http.host eq "a.example" and http.host eq "b.example"', null, 'two different hosts at once: no request'],
    ['http.host in {"a.example" "b.example"} and http.host eq "c.example"', null, 'a host outside the list: no request'],
    ['http.host in {"a.example" "b.example"} and http.host eq "a.example"', BY_HOST, 'two host conditions joined by and: decided by the host, not named outright'],
    ['http.host in {}', null, 'an empty list holds no host'],
    // vendor docs: values, missing values: any comparison of a missing value (absent map key) is false,
    // so `eq` and `ne` of a header can both be false; `not` of a false comparison is true.
    ['http.request.headers["x-a"][0] eq "1" or http.request.headers["x-a"][0] ne "1"', null, 'both false when the header is missing'],
    ['http.request.headers["x-a"][0] eq "1" or not http.request.headers["x-a"][0] eq "1"', ALL, 'not covers the missing value'],
    ['http.request.headers["x-a"][0] contains ""', null, 'a missing header contains nothing'],
    // The host name only: every path, method and client of one site. Several hosts, or a host
    // condition that names none outright, are said so, not "the host".
    ['http.host eq "shop.example"', HOST, 'one host'],
    ['(http.host in {"a.example" "b.example"})', HOSTS, 'a set of hosts'],
    ['http.host eq "a.example" or http.host eq "b.example"', HOSTS, 'hosts joined by or'],
    ['http.host eq "a.example" or http.host in {"a.example"}', HOST, 'one host named twice'],
    ['ends_with(http.host, ".example")', BY_HOST, 'a function of the host'],
    ['not http.host eq "admin.example"', BY_HOST, 'every host but one'],
    ['http.host ne "admin.example"', BY_HOST, 'every host but one, with ne'],
    ['http.host eq "a.example" and not http.host eq "b.example"', BY_HOST, 'two host conditions joined by and'],
    // vendor docs: fields: cf.zone.name is the zone a request is for, which its host name decides.
    ['cf.zone.name eq "shop.example"', HOST, 'a zone name, no zone given'],
    ['cf.zone.name in {"a.example" "b.example"}', HOSTS, 'two zone names, no zone given'],
    ['http.host eq "ip.src"', HOST, 'a string naming a field is not a field'],
    ['http.host eq "shop.example" and true', HOST, 'an always-true part and a host'],
    ['http.host eq "shop.example" and http.request.uri.path matches ".*"', HOST, 'a tautology and a host'],
    ['http.host eq "shop.example" and starts_with(http.request.uri.path, "/webhook")', null, 'a path of the host'],
    ['http.host eq "shop.example" or ip.src eq 192.0.2.1', null, 'a host or a client: not the host alone'],
    ['http.host eq "a.example" or http.host ne "a.example"', ALL, 'a host tautology is every request'],
    // Never a false failure: what the parser cannot read is not broad.
    ['', null, 'empty'],
    ['true AND true', null, 'English operators are lowercase only (vendor docs: operators)'],
    ['(true', null, 'unbalanced'],
    ['http.request.uri.path eq "/a', null, 'unterminated string'],
    ['ip.src eq 192.0.2.1', null, 'one address'],
    ['ip.src in $office_network', null, 'a named list'],
    ['any(http.request.headers.names[*] == "X-A")', null, 'an array function'],
    ['cf.threat_score gt 10 xor true', null, 'xor with a non-constant'],
    ['true xor false', ALL, 'xor of two different constants'],
  ])('%s', (expression, expected) => {
    expect(broadReach(expression)).toBe(expected);
  });

  it('reads a rule without an expression as matching every request, the widest reading', () => {
    expect(broadReach(null)).toBe(ALL);
  });

  // vendor docs: fields: cf.zone.name is the name of the zone the request is for: for one zone the
  // condition is true of every request of it or of none.
  it.each<[string, string | null]>([
    ['cf.zone.name eq "shop.example"', ALL],
    ['cf.zone.name == "shop.example"', ALL],
    ['cf.zone.name eq r#"shop.example"#', ALL],
    ['cf.zone.name in {"a.example" "shop.example"}', ALL],
    ['cf.zone.name eq "other.example"', null],
    ['cf.zone.name ne "other.example"', ALL],
    ['not cf.zone.name eq "shop.example"', null],
    ['cf.zone.name eq "shop.example" and http.host eq "www.shop.example"', HOST],
    ['cf.zone.name eq "shop.example" and http.request.uri.path eq "/login"', null],
    ['cf.zone.name in $zones', null],
    ['ends_with(cf.zone.name, ".example")', null],
  ])('for the zone shop.example, %s', (expression, expected) => {
    expect(broadReach(expression, 'shop.example')).toBe(expected);
  });
});

describe('parseExpression', () => {
  // Decision: an account's entry point is read again for each of its zones; its expressions are parsed once.
  it('parses an expression once and gives the same tree again', () => {
    const tree = parseExpression('http.host eq "cached.example" and ssl');
    expect(tree).not.toBeNull();
    expect(parseExpression('http.host eq "cached.example" and ssl')).toBe(tree);
    expect(parseExpression('(true')).toBeNull();
  });

  it('keeps at most 10,000 parsed expressions', () => {
    for (let i = 0; i < 10_050; i++) parseExpression(`http.request.uri.path eq "/p${i}"`);
    expect(parsedExpressionsKept()).toBeGreaterThan(0);
    expect(parsedExpressionsKept()).toBeLessThanOrEqual(10_000);
  });

  it('reads a deeply nested expression without failing', () => {
    const nested = `${'('.repeat(300)}http.host eq "a.example"${')'.repeat(300)}`;
    expect(broadReach(nested)).toBe(HOST);
  });
});
