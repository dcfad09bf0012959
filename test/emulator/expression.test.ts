import { describe, it, expect } from 'vitest';
import { checkExpression, MAX_EXPRESSION_CHARACTERS } from '../../src/emulator/expression.js';

function messageOf(expression: string): string {
  const result = checkExpression(expression);
  if (result.ok) throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
  return result.message;
}

// Reporting the message on failure makes a wrongly rejected case self-explanatory.
function verdict(expression: string): string {
  const result = checkExpression(expression);
  return result.ok ? 'ok' : result.message;
}

const manyCountries = Array.from({ length: 200 }, (_, i) => `"C${i}"`).join(' ');
const manyPorts = Array.from({ length: 300 }, (_, i) => String(1000 + i)).join(' ');

describe('checkExpression accepts', () => {
  it.each([
    'http.host eq "example.com"',
    'http.host == "example.com"',
    'ssl',
    'not ssl',
    '!ssl',
    'cf.client.bot',
    'ip.geoip.is_in_european_union and cf.tls_client_auth.cert_verified',
    'ssl eq true',
    'cf.bot_management.verified_bot ne false',
    'http.request.uri.path contains "/ünïcødé/日本"',
    'http.user_agent contains "😀 bot"',
    'http.request.uri.path matches "^/api/v[0-9]+/"',
    'http.request.uri.path ~ "\\\\.php$"',
    'http.request.uri.query contains "a=\\"b\\""',
    'http.host wildcard "*.example.com"',
    'http.host strict wildcard "*.Example.com"',
    'cf.threat_score gt 10',
    'cf.threat_score >= 10 && cf.threat_score <= 50',
    'cf.bot_management.score lt 30 or cf.edge.server_port ne 443',
    'http.request.timestamp.sec ge -1',
    'ip.src eq 203.0.113.7',
    'ip.src == 2001:db8::1',
    'ip.src in {10.0.0.0/8 192.168.0.0/16 203.0.113.7}',
    'ip.src in { 2001:db8::/32 ::1 fe80::/10 }',
    'ip.src.asnum in {13335 15169}',
    'cf.edge.server_port in {80 443 8000..8999}',
    `ip.geoip.country in {${manyCountries}}`,
    `cf.edge.server_port in {${manyPorts}}`,
    'http.request.method in {"GET" "HEAD"}',
    '((ssl and (http.host eq "a" or http.host eq "b")) xor (not cf.client.bot))',
    'ssl ^^ cf.client.bot || http.host eq "x"',
    '(((((((((((ssl)))))))))))',
    'lower(http.host) eq "example.com"',
    'upper(http.request.method) == "POST"',
    'len(http.request.uri.query) gt 1024',
    'url_decode(http.request.uri.query) contains "<script"',
    'lower(url_decode(http.request.uri.path)) contains "/admin"',
    'starts_with(http.request.uri.path, "/api")',
    'not ends_with(lower(http.host), ".example.com")',
    'http.request.headers["x-api-key"][0] eq "secret"',
    'len(http.request.headers["x-api-key"]) eq 0',
    'http.request.cookies["session"][0] contains "x"',
    'any(http.request.headers.names[*] == "x-forwarded-host")',
    'all(lower(http.request.headers["accept"][*]) contains "json")',
    'http.request.uri.args["id"][0] eq "1"',
    'raw.http.request.uri.path eq "/a%2Fb"',
    'http.host eq "a"\n  and\tip.src.country ne "T1"',
    'http.request.uri.path eq "line\nbreak"',
  ])('%s', (expression) => {
    expect(verdict(expression)).toBe('ok');
  });
});

describe('checkExpression rejects', () => {
  it.each<[expression: string, position: string, reason: string]>([
    ['http.foo eq "x"', '1:1', 'unknown field "http.foo"'],
    ['ssl and http.foo eq "x"', '1:9', 'unknown field "http.foo"'],
    ['http.host equals "x"', '1:11', 'unknown operator "equals"'],
    ['http.host = "x"', '1:11', 'expected an operator'],
    ['ssl andd ssl', '1:5', 'unknown operator "andd"'],
    ['frobnicate(http.host) eq "x"', '1:1', 'unknown function "frobnicate"'],
    ['http.host eq "abc', '1:14', 'unterminated string'],
    ['http.host eq "abc\\"', '1:14', 'unterminated string'],
    ['http.host eq "a\\qb"', '1:16', 'invalid escape "\\\\q"'],
    ['(ssl and cf.client.bot', '1:1', 'unbalanced parentheses'],
    ['ssl and cf.client.bot)', '1:22', 'unbalanced parentheses'],
    ['((ssl)', '1:1', 'unbalanced parentheses'],
    ['ip.src in {10.0.0.0/8', '1:11', 'unbalanced braces'],
    ['ssl }', '1:5', 'unbalanced braces'],
    ['http.request.headers["x"][0 eq "y"', '1:29', 'expected "]", found "eq"'],
    ['http.host eq', '1:11', 'missing value after "eq"'],
    ['http.host eq and ssl', '1:11', 'missing value after "eq"'],
    ['cf.threat_score gt )', '1:17', 'missing value after "gt"'],
    ['ssl and', '1:5', 'missing expression after "and"'],
    ['not', '1:1', 'missing expression after "not"'],
    ['http.host eq "a" "b"', '1:18', 'after the end of the expression'],
    ['ssl ssl', '1:5', 'unknown operator "ssl"'],
    ['ip.src in 10.0.0.0/8', '1:11', 'needs a set'],
    ['ip.src in', '1:8', 'missing set after "in"'],
    ['ip.src in $office', '1:11', 'named lists'],
    ['http.host', '1:1', 'not a boolean'],
    ['http.host and ssl', '1:1', 'not a boolean'],
    ['not len(http.host)', '1:5', 'not a boolean'],
    ['http.request.headers', '1:1', 'is a map'],
    ['http.request.headers.names contains "x"', '1:1', 'is an array'],
    ['ip.src in {}', '1:11', 'empty set'],
    ['http.method in { }', '1:1', 'unknown field'],
    ['http.request.method in {"GET", "POST"}', '1:30', 'not commas'],
    ['cf.threat_score gt "10"', '1:20', 'expected an integer'],
    ['http.host eq example.com', '1:14', 'expected a string'],
    ['ip.src eq 10.0.0.0/8', '1:11', 'expected an IP address'],
    ['ip.src eq 300.1.1.1', '1:11', 'expected an IP address'],
    ['ip.src in {10.0.0.0/33}', '1:12', 'expected IP addresses or CIDRs'],
    ['cf.edge.server_port in {443..80}', '1:25', 'ends before it starts'],
    ['http.host in {"a" 1}', '1:19', 'expected strings'],
    ['cf.threat_score contains "1"', '1:17', 'operator "contains" cannot be used with an integer'],
    ['ip.src matches "10\\\\..*"', '1:8', 'cannot be used with an IP address'],
    ['http.host eq "a" & ssl', '1:18', 'after the end of the expression'],
    ['http.host eq "a" # comment', '1:18', 'unexpected character "#"'],
    ['"x" eq http.host', '1:1', 'expected a field or function, found string "x"'],
    ['and ssl', '1:1', 'expected a field or function, found "and"'],
    ['http.request.headers.names[*] eq "x"', '1:28', '[*] can only be used inside any() or all()'],
    ['http.request.headers[0][0] eq "x"', '1:22', 'expected a string key'],
    ['http.host[0] eq "x"', '1:10', 'cannot be indexed'],
    ['starts_with(http.host)', '1:22', 'expected ","'],
    ['starts_with(http.host, http.host)', '1:24', 'needs a string as its second argument'],
    ['lower(cf.threat_score) eq "1"', '1:7', 'does not accept an integer'],
    ['lower(http.host eq "x")', '1:17', 'expected ")"'],
    ['http.host strict eq "x"', '1:18', 'expected "wildcard" after "strict"'],
  ])('%s', (expression, position, reason) => {
    const message = messageOf(expression);
    const prefix = `Filter parsing error (${position}): `;
    expect(message.slice(0, prefix.length), message).toBe(prefix);
    expect(message).toContain(reason);
    expect(message).not.toContain('\n');
  });

  it.each(['', '   ', '\n\t \r\n'])('an empty expression %j', (expression) => {
    expect(messageOf(expression)).toBe('Filter parsing error (1:1): expression is empty');
  });

  it('reports lines and code-point columns', () => {
    expect(messageOf('ssl and\n  http.foo eq "x"')).toMatch(/^Filter parsing error \(2:3\): unknown field/);
    // "😀" is two UTF-16 units; a UTF-16 column would say 25.
    expect(messageOf('http.host eq "😀😀" and http.foo eq "x"')).toMatch(/^Filter parsing error \(1:23\): /);
    expect(messageOf('http.host eq "a\nb" and http.foo eq "x"')).toMatch(/^Filter parsing error \(2:8\): /);
  });

  it('keeps messages on one line even when the offending token spans lines', () => {
    const message = messageOf('http.host eq "a" "multi\nline"');
    expect(message).toContain('string "multi\\nline"');
    expect(message).not.toContain('\n');
  });

  it('fails cleanly instead of overflowing the stack on deep nesting', () => {
    const deep = `${'('.repeat(2000)}ssl${')'.repeat(2000)}`;
    expect(messageOf(deep)).toMatch(/^Filter parsing error \(1:\d+\): expression is nested more than \d+ levels deep$/);
    expect(messageOf(`${'not '.repeat(1000)}ssl`)).toContain('nested more than');
  });
});

describe('expression length limit', () => {
  const prefix = 'http.request.uri.path contains "';
  const suffix = '"';
  const filled = (codePoints: number, filler: string): string =>
    prefix + filler.repeat(codePoints - [...prefix].length - [...suffix].length) + suffix;

  it('is 4096', () => {
    expect(MAX_EXPRESSION_CHARACTERS).toBe(4096);
  });

  it('accepts exactly 4096 code points even when UTF-16 and UTF-8 lengths are larger', () => {
    const expression = filled(4096, '😀');
    expect([...expression].length).toBe(4096);
    expect(expression.length).toBeGreaterThan(4096);
    expect(Buffer.byteLength(expression, 'utf8')).toBeGreaterThan(4096);
    expect(verdict(expression)).toBe('ok');
  });

  it('accepts exactly 4096 code points of three-byte characters', () => {
    const expression = filled(4096, '日');
    expect(Buffer.byteLength(expression, 'utf8')).toBeGreaterThan(4096);
    expect(verdict(expression)).toBe('ok');
  });

  it.each(['😀', '日', 'a'])('rejects 4097 code points (filler %s)', (filler) => {
    const expression = filled(4097, filler);
    expect([...expression].length).toBe(4097);
    expect(messageOf(expression)).toBe('Filter parsing error (1:1): expression is longer than 4096 characters');
  });

  it('counts whitespace towards the limit', () => {
    expect(verdict(`ssl${' '.repeat(4093)}`)).toBe('ok');
    expect(messageOf(`ssl${' '.repeat(4094)}`)).toContain('longer than 4096 characters');
  });
});

describe('fields and usesRegex', () => {
  it.each<[expression: string, fields: string[], usesRegex: boolean]>([
    ['ssl', ['ssl'], false],
    [
      'http.request.uri.path contains "/a" and ip.src in {10.0.0.0/8} and http.request.uri.path ne "/b"',
      ['http.request.uri.path', 'ip.src'],
      false,
    ],
    ['ip.src eq 1.2.3.4 or http.host matches "^a"', ['ip.src', 'http.host'], true],
    ['http.user_agent ~ "curl"', ['http.user_agent'], true],
    ['http.user_agent contains "matches ~"', ['http.user_agent'], false],
    ['lower(http.host) eq "x" and http.request.headers["x"][0] eq "y"', ['http.host', 'http.request.headers'], false],
    ['any(http.request.headers.names[*] ~ "^x-") and cf.client.bot', ['http.request.headers.names', 'cf.client.bot'], true],
    ['starts_with(raw.http.request.uri.path, "/api")', ['raw.http.request.uri.path'], false],
  ])('%s', (expression, fields, usesRegex) => {
    expect(checkExpression(expression)).toEqual({ ok: true, fields, usesRegex });
  });
});
