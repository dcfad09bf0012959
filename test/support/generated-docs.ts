import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

/**
 * A generated region of a docs page, between two marker comments, equals what its generator makes
 * now. Under `npm run docs` (UPDATE_DOCS=1) an out-of-date region is rewritten instead, the rest of
 * the page left as written.
 */
export function expectGeneratedRegion(url: URL, markers: readonly [begin: string, end: string], generated: string, page: string): void {
  const [BEGIN, END] = markers;
  const text = readFileSync(url, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  expect(start, `${page} lacks ${BEGIN}`).toBeGreaterThan(-1);
  expect(end, `${page} lacks ${END}`).toBeGreaterThan(start);
  const current = text.slice(start + BEGIN.length, end).trim();
  if (process.env['UPDATE_DOCS'] === '1' && current !== generated) {
    writeFileSync(url, `${text.slice(0, start + BEGIN.length)}\n${generated}\n${text.slice(end)}`);
    return;
  }
  expect(current, `${page} is out of date: run npm run docs`).toBe(generated);
}
