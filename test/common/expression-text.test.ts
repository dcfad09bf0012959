import { describe, expect, it } from 'vitest';
import { normaliseExpression, segments, usesRegex } from '../../src/common/expression-text.js';

// vendor docs: rules language. String literals are "..." with backslash escapes or raw r"..." / r#"..."#;
// regular expressions are the `matches` operator or its C-like form `~`.

describe('expression text', () => {
  it('splits code from strings, escapes and raw strings included', () => {
    expect(segments('a eq "x\\"y" or b matches r#"a"b"#')).toEqual([
      { text: 'a eq ', quoted: false },
      { text: '"x\\"y"', quoted: true },
      { text: ' or b matches ', quoted: false },
      { text: 'r#"a"b"#', quoted: true },
    ]);
  });

  it('an identifier ending in r is not a raw string', () => {
    expect(segments('http.referer eq "x"').map((s) => s.quoted)).toEqual([false, true]);
  });

  it('collapses whitespace between tokens only', () => {
    expect(normaliseExpression('  a   eq\n"x  y"\tand b ')).toBe('a eq "x  y" and b');
  });

  it.each([
    ['http.request.uri.path matches "^/wp-"', true],
    ['http.request.uri.path ~ "^/wp-"', true],
    ['http.request.uri.path eq "/matches"', false],
    ['http.request.uri.path contains "~user"', false],
    ['http.request.uri.path eq "/a" or http.host matches r"^x"', true],
    ['ip.src in {192.0.2.0/24}', false],
  ])('usesRegex(%s) is %s', (expression, expected) => {
    expect(usesRegex(expression)).toBe(expected);
  });
});
