import { describe, expect, it } from 'vitest';
import { markdownText } from '../../src/common/markdown.js';

/** Whether the character at `i` is escaped: preceded by an odd number of backslashes. */
function escapedAt(text: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

/** Occurrences of characters in `chars` that Markdown would read as syntax (not backslash-escaped). */
function unescaped(text: string, chars: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (chars.includes(text[i]!) && !escapedAt(text, i)) n++;
  return n;
}

describe('markdownText', () => {
  it('leaves plain names as they are', () => {
    for (const text of ['shop.example.com', 'api-1', 'Example Org (prod) 2026-11-01', 'a+b=c, 100% done!']) expect(markdownText(text)).toBe(text);
  });

  it('neutralises HTML as entities', () => {
    const out = markdownText('<script>alert(1)</script>');
    expect(out).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).not.toMatch(/[<>]/);
    expect(markdownText('<img src=x onerror=alert(1)>')).not.toMatch(/[<>]/);
  });

  it('shows an entity literally, by escaping its ampersand', () => {
    expect(markdownText('&amp;')).toBe('&amp;amp;');
    expect(markdownText('a & b')).toBe('a &amp; b');
    expect(markdownText('&#64;team')).toBe('&amp;#64;team');
  });

  it('escapes the brackets of a link, so there is none', () => {
    const out = markdownText('[click](javascript:alert(1))');
    expect(out).toBe('\\[click\\](javascript:alert(1))');
    expect(unescaped(out, '[]')).toBe(0);
  });

  it('escapes the brackets of an image', () => {
    const out = markdownText('![img](x)');
    expect(out).toBe('!\\[img\\](x)');
    expect(unescaped(out, '[]')).toBe(0);
  });

  it.each([
    ['**bold**', '\\*\\*bold\\*\\*'],
    ['_em_', '\\_em\\_'],
    ['`code`', '\\`code\\`'],
    ['~~strike~~', '\\~\\~strike\\~\\~'],
  ])('escapes the emphasis and code syntax of %s', (text, expected) => {
    const out = markdownText(text);
    expect(out).toBe(expected);
    expect(unescaped(out, '*_`~')).toBe(0);
  });

  it('escapes a backslash, so input cannot unescape the next character', () => {
    const out = markdownText('a\\|b \\*c\\*');
    expect(out).toBe('a\\\\\\|b \\\\\\*c\\\\\\*');
    expect(unescaped(out, '|*')).toBe(0);
  });

  it('keeps a pipe from splitting a table cell', () => {
    const out = markdownText('a|b||c |');
    expect(out.split('|')).toHaveLength(5);
    expect(unescaped(out, '|')).toBe(0);
    const row = `| ${markdownText('left | right')} | ${markdownText('x|y')} |`;
    expect(unescaped(row, '|')).toBe(3);
  });

  it.each([
    ['\\n', 'one\ntwo'],
    ['\\r\\n', 'one\r\ntwo'],
    ['\\r', 'one\rtwo'],
  ])('turns a %s line break into a space', (_what, text) => {
    expect(markdownText(text)).toBe('one two');
  });

  it('turns every line break into one space each', () => {
    const out = markdownText('a\n\nb\r\n\r\nc\r\rd\n');
    expect(out).toBe('a  b  c  d ');
    expect(out).not.toMatch(/[\r\n]/);
  });

  it('keeps @ from mentioning anyone', () => {
    const out = markdownText('ping @team and @org/admins');
    expect(out).not.toContain('@');
    expect(out).toBe('ping &#64;team and &#64;org/admins');
  });

  it('shows an ANSI escape as a visible escape', () => {
    const out = markdownText('\u001b[31mred');
    expect(out).not.toContain('\u001b');
    // \u001b itself, with its backslash and bracket escaped for Markdown: it reads \u001b[31mred.
    expect(out).toBe('\\\\u001b\\[31mred');
  });

  it('shows a bidirectional override as a visible escape', () => {
    const out = markdownText('invoice\u202egpj.exe');
    expect(out).not.toContain('\u202e');
    expect(out).toBe('invoice\\\\u202egpj.exe');
  });

  it('shows other control characters as visible escapes', () => {
    const out = markdownText('a\u0000b\u0007c\tb\u007fd\u0085e\u2066f');
    expect(out).toBe('a\\\\u0000b\\\\u0007c\\\\u0009b\\\\u007fd\\\\u0085e\\\\u2066f');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2066-\u2069]/);
  });

  it('shows zero-width and other invisible characters as visible escapes', () => {
    expect(markdownText('pay\u200bpal.example\ufeff\u00ad\u{e0041}')).toBe('pay\\\\u200bpal.example\\\\ufeff\\\\u00ad\\\\u{e0041}');
  });

  // GitHub-flavoured Markdown links bare scheme:// and www. text by itself (issue 24: API data in
  // the drift digest became links). The entities read the same but no longer match.
  it('keeps bare URLs from becoming autolinks', () => {
    expect(markdownText('see https://evil.example/x and www.evil.example')).toBe('see https&#58;//evil.example/x and www&#46;evil.example');
    expect(markdownText('ftp://a.example')).not.toMatch(/:\/\/|www\./);
  });

  it('neutralises everything at once in a hostile string', () => {
    const out = markdownText('**[x](javascript:alert(1))** <b>|</b>\n@admin `\u001b[2J`');
    expect(out).not.toMatch(/[<>@\n\u001b]/);
    expect(unescaped(out, '*[]|`_~')).toBe(0);
  });
});
