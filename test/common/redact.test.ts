import { describe, expect, it } from 'vitest';
import { createLogger, silentLogger, type LogLevel } from '../../src/common/logger.js';
import { REDACTED, createRedactor } from '../../src/common/redact.js';

const TOKEN = 'tok_AbC123xyz';

describe('createRedactor', () => {
  it('replaces every occurrence of a secret', () => {
    const redact = createRedactor([TOKEN]);
    expect(redact(`a ${TOKEN} b ${TOKEN}${TOKEN} c`)).toBe('a [redacted] b [redacted][redacted] c');
    expect(REDACTED).toBe('[redacted]');
  });

  it('replaces each of several secrets', () => {
    const redact = createRedactor(['first-secret', 'second-secret']);
    expect(redact('x first-secret y second-secret z')).toBe('x [redacted] y [redacted] z');
  });

  it.each<[string, string, string, string]>([
    // Characters that URL encoding changes.
    ['URL-encoded', 'p@ss/w rd+1', 'q=p%40ss%2Fw%20rd%2B1&x=1', 'q=[redacted]&x=1'],
    ['JSON-escaped quote and backslash', 'a"b\\c-secret', '{"key":"a\\"b\\\\c-secret"}', '{"key":"[redacted]"}'],
    ['JSON-escaped control character', 'tab\there-secret', '{"key":"tab\\there-secret"}', '{"key":"[redacted]"}'],
  ])('replaces the %s form', (_what, secret, text, expected) => {
    expect(createRedactor([secret])(text)).toBe(expected);
  });

  it('replaces the raw and encoded forms in the same text', () => {
    const redact = createRedactor(['a b/c:secret']);
    expect(redact('raw a b/c:secret enc a%20b%2Fc%3Asecret')).toBe('raw [redacted] enc [redacted]');
  });

  it('replaces the longer secret whole when one secret contains another, whatever the order given', () => {
    const short = 'abcd1234';
    const long = 'abcd1234-and-more';
    const text = `one ${long} two ${short}`;
    expect(createRedactor([short, long])(text)).toBe('one [redacted] two [redacted]');
    expect(createRedactor([long, short])(text)).toBe('one [redacted] two [redacted]');
  });

  it('ignores secrets shorter than 4 characters and keeps those of exactly 4', () => {
    const redact = createRedactor(['abc', 'x', '', 'wxyz']);
    expect(redact('abc x wxyz')).toBe('abc x [redacted]');
  });

  it('leaves text alone when there are no secrets (or only short ones)', () => {
    const text = 'nothing to hide: abc';
    expect(createRedactor([])(text)).toBe(text);
    expect(createRedactor(['abc', ''])(text)).toBe(text);
  });

  it('accepts duplicate secrets', () => {
    expect(createRedactor([TOKEN, TOKEN])(`${TOKEN}!`)).toBe('[redacted]!');
  });

  it('leaves text without the secret unchanged, including partial matches', () => {
    const redact = createRedactor([TOKEN]);
    expect(redact('tok_AbC123xy and TOK_ABC123XYZ')).toBe('tok_AbC123xy and TOK_ABC123XYZ');
  });
});

describe('createLogger', () => {
  function capture(level: LogLevel, secrets: string[] = []) {
    const lines: string[] = [];
    const logger = createLogger(level, (line) => lines.push(line), createRedactor(secrets));
    return { logger, lines };
  }

  it.each<[LogLevel, string[]]>([
    ['quiet', ['warning: w\n']],
    ['normal', ['i\n', 'warning: w\n']],
    ['verbose', ['i\n', 'warning: w\n', 'd\n']],
  ])('at %s writes %j', (level, expected) => {
    const { logger, lines } = capture(level);
    logger.info('i');
    logger.warn('w');
    logger.debug('d');
    expect(lines).toEqual(expected);
    expect(logger.level).toBe(level);
  });

  it('folds line breaks so each message is one line', () => {
    const { logger, lines } = capture('normal');
    logger.info('first\nsecond\r\nthird\n\n\nfourth');
    logger.warn('a\rb');
    expect(lines).toEqual(['first second third fourth\n', 'warning: a b\n']);
  });

  it('redacts every level', () => {
    const { logger, lines } = capture('verbose', [TOKEN]);
    logger.info(`info ${TOKEN}`);
    logger.warn(`warn ${TOKEN}`);
    logger.debug(`GET /zones?t=${encodeURIComponent(TOKEN)} ${TOKEN}`);
    expect(lines).toEqual(['info [redacted]\n', 'warning: warn [redacted]\n', 'GET /zones?t=[redacted] [redacted]\n']);
    expect(lines.join('')).not.toContain(TOKEN);
  });

  it('redacts a secret even when a line break was inside the message around it', () => {
    const { logger, lines } = capture('normal', [TOKEN]);
    logger.info(`token:\n${TOKEN}\n`);
    expect(lines).toEqual(['token: [redacted] \n']);
  });

  it('silentLogger drops everything and says it is quiet', () => {
    expect(silentLogger.level).toBe('quiet');
    expect(() => {
      silentLogger.info('x');
      silentLogger.warn('x');
      silentLogger.debug('x');
    }).not.toThrow();
  });
});
