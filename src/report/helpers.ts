import Handlebars from 'handlebars';

/** Every helper the templates may use: they stay logic-light (compare, format, count); anything more belongs in the view model. */

type Helper = (...args: unknown[]) => unknown;

/** Handlebars passes its options object last; helpers take the arguments before it. */
const args = (list: unknown[]): unknown[] => list.slice(0, -1);

const pad = (n: number) => String(n).padStart(2, '0');

/** Escaped for HTML, with a line-break opportunity after each dot, hyphen and slash, and before each escape (`\u202e`) of an invisible character. */
const breakable = (text: string) =>
  Handlebars.escapeExpression(text)
    .replace(/([./-])(?=.)/g, '$1<wbr>')
    .replace(/(?<=.)\\u/g, '<wbr>\\u');

/** Characters of a text shown before "show all" in a report's tables. */
export const CLIP = 300;

export const HELPERS: Record<string, { help: string; fn: Helper }> = {
  eq: { help: '(eq a b): a and b are the same value', fn: (...a) => args(a)[0] === args(a)[1] },
  gt: { help: '(gt a b): the number a is greater than b', fn: (...a) => Number(args(a)[0]) > Number(args(a)[1]) },
  and: { help: '(and a b ...): every argument is truthy', fn: (...a) => args(a).every(Boolean) },
  or: { help: '(or a b ...): some argument is truthy', fn: (...a) => args(a).some(Boolean) },
  not: { help: '(not a): a is falsy', fn: (...a) => !args(a)[0] },
  number: {
    help: '{{number n}}: a count with thousands separators (12,409)',
    fn: (...a) => (typeof args(a)[0] === 'number' ? (args(a)[0] as number).toLocaleString('en-US') : ''),
  },
  plural: {
    help: '{{plural n "finding"}}: "1 finding", "2 findings"; a third argument gives an irregular plural',
    fn: (...a) => {
      const [n, one, many] = args(a) as [number, string, string | undefined];
      return `${n.toLocaleString('en-US')} ${n === 1 ? one : (many ?? `${one}s`)}`;
    },
  },
  percent: {
    help: '{{percent part total}}: a whole percentage, 0 when the total is 0',
    fn: (...a) => {
      const [part, total] = args(a) as [number, number];
      return total > 0 ? Math.round((part / total) * 100) : 0;
    },
  },
  date: {
    help: '{{date iso}}: an ISO time as "2026-11-22 02:00 UTC"; empty for none',
    fn: (...a) => {
      const value = args(a)[0];
      if (typeof value !== 'string' || value === '') return '';
      const d = new Date(value);
      if (Number.isNaN(d.getTime())) return value;
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
    },
  },
  clip: {
    help: '{{clip text}}: a text of up to 300 characters as it is, a longer one as its first 300 with the whole text one click away; either may break after a dot, hyphen or slash (never inside a name\'s label)',
    fn: (...a) => {
      const text = String(args(a)[0] ?? '');
      const chars = [...text];
      if (chars.length <= CLIP) return new Handlebars.SafeString(breakable(text));
      return new Handlebars.SafeString(
        `<details class="clip"><summary>${breakable(chars.slice(0, CLIP).join(''))}… <span class="more">show all ${chars.length.toLocaleString('en-US')} characters</span></summary>${breakable(text)}</details>`,
      );
    },
  },
  json: {
    help: '{{json value}}: JSON safe inside <script type="application/json">: <, >, & and line separators escaped, so no data can close the element',
    fn: (...a) =>
      new Handlebars.SafeString(
        JSON.stringify(args(a)[0] ?? null)
          .replace(/</g, '\\u003c')
          .replace(/>/g, '\\u003e')
          .replace(/&/g, '\\u0026')
          .replace(/\u2028/g, '\\u2028')
          .replace(/\u2029/g, '\\u2029'),
      ),
  },
};
