/**
 * Rows turned into JSON inside SQLite, so that one value crosses into JavaScript per zone (or slice)
 * instead of one per row: better-sqlite3 costs about 0.5 µs a row, and the 10,000-zone test
 * organisation's 1,000,000 DNS records took 2.1 s row by row, 1.5 s as JSON. JSON.parse must build
 * what the row-by-row code built (same keys, order and values: SQLite's JSON gives back every string
 * and writes reals with 17 digits); test/snapshot/reader.test.ts holds it to that.
 */

/** SQL: an INTEGER flag as JSON true (1), false (any other value) or null, as `flag` in reader.ts reads it. */
export const jsonFlag = (column: string): string => `CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} = 1 THEN json('true') ELSE json('false') END`;

/** SQL: JSON true when the column is 1, else false (null included), as `=== 1` reads it. */
export const jsonIsOne = (column: string): string => `CASE WHEN ${column} = 1 THEN json('true') ELSE json('false') END`;

/**
 * Compares strings as SQLite's default BINARY collation does: memcmp of their UTF-8, which is
 * code point order. JavaScript's `<` compares UTF-16 units instead, which puts characters above
 * U+FFFF (surrogate pairs, units D800-DFFF) before U+E000-U+FFFF.
 */
export function compareBinary(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit's place in code point order: surrogates (characters above U+FFFF) after every other unit. */
const codePointRank = (unit: number): number => (unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);

/**
 * Whether the rows are in the BINARY order of their key. SQLite does not document the order an
 * aggregate without ORDER BY sees its rows in (https://sqlite.org/lang_aggfunc.html); ORDER BY inside
 * json_group_array cost a 10,000-zone audit 0.35 s of 1.55 s, checking a few milliseconds, and a
 * caller reads rows out of order (invalid UTF-8 included) again with ORDER BY.
 */
export function inBinaryOrder<T>(rows: readonly T[], key: (row: T) => string): boolean {
  for (let i = 1; i < rows.length; i++) if (compareBinary(key(rows[i - 1]!), key(rows[i]!)) > 0) return false;
  return true;
}
