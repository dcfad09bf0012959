/**
 * Rows turned into JSON inside SQLite, so that one value crosses into JavaScript per zone (or per
 * slice of a zone) instead of one per row. better-sqlite3 costs about 0.5 µs for every row it
 * hands over, however few its columns: the DNS records of the 10,000-zone test organisation
 * (1,000,000 rows, read run by run as the audit does) took 2.1 s row by row, and 1.5 s as one
 * json_group_array of json_object per zone plus JSON.parse. The objects JSON.parse builds must be
 * the ones the row-by-row code built: the same keys in the same order, and the same values
 * (SQLite's JSON quoting gives back every string it stores, control characters, quotes,
 * backslashes, non-ASCII and invalid UTF-8 included, and it writes a real with the 17 digits that
 * give back the same double). test/snapshot/reader.test.ts holds it to that.
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
 * Whether the rows are in the BINARY order of their key. SQLite does not document the order in
 * which an aggregate without ORDER BY sees its rows (https://sqlite.org/lang_aggfunc.html: it is
 * the order the index is walked in, in practice). `ORDER BY` inside json_group_array guarantees it, but cost the DNS records of a
 * 10,000-zone audit 0.35 s of 1.55 s; checking costs a few milliseconds, and a caller reads the
 * rows again with `ORDER BY` when they are not. (Text that is not valid UTF-8 reads back with
 * replacement characters, whose order may differ from the stored bytes': then too they are read
 * again, and SQLite orders them.)
 */
export function inBinaryOrder<T>(rows: readonly T[], key: (row: T) => string): boolean {
  for (let i = 1; i < rows.length; i++) if (compareBinary(key(rows[i - 1]!), key(rows[i]!)) > 0) return false;
  return true;
}
