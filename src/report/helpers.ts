import Handlebars from 'handlebars';

/** Every helper the templates may use: they stay logic-light (compare, format, count); anything more belongs in the view model. */

/** Called with the template's arguments only: templates.ts drops the options object Handlebars passes last. */
type Helper = (...args: unknown[]) => unknown;

const pad = (n: number) => String(n).padStart(2, '0');

/** Escaped for HTML, with a line-break opportunity after each dot, hyphen and slash, and before each escape (`\u202e`) of an invisible character. */
const breakable = (text: string) =>
  Handlebars.escapeExpression(text)
    .replace(/([./-])(?=.)/g, '$1<wbr>')
    .replace(/(?<=.)\\u/g, '<wbr>\\u');

/** Characters of a text shown before "show all" in a report's tables. */
export const CLIP = 300;

export const HELPERS: Record<string, { help: string; fn: Helper }> = {
  eq: { help: '(eq a b): a and b are the same value', fn: (a, b) => a === b },
  gt: { help: '(gt a b): the number a is greater than b', fn: (a, b) => Number(a) > Number(b) },
  and: { help: '(and a b ...): every argument is truthy', fn: (...a) => a.every(Boolean) },
  or: { help: '(or a b ...): some argument is truthy', fn: (...a) => a.some(Boolean) },
  not: { help: '(not a): a is falsy', fn: (a) => !a },
  number: { help: '{{number n}}: a count with thousands separators (12,409)', fn: (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '') },
  plural: {
    help: '{{plural n "finding"}}: "1 finding", "2 findings"; a third argument gives an irregular plural',
    fn: (n, one, many) => `${(n as number).toLocaleString('en-US')} ${n === 1 ? one : (many ?? `${one as string}s`)}`,
  },
  percent: {
    help: '{{percent part total}}: a whole percentage, 0 when the total is 0',
    fn: (part, total) => (Number(total) > 0 ? Math.round((Number(part) / Number(total)) * 100) : 0),
  },
  date: {
    help: '{{date iso}}: an ISO time as "2026-11-22 02:00 UTC"; empty for none',
    fn: (value) => {
      if (typeof value !== 'string' || value === '') return '';
      const d = new Date(value);
      if (Number.isNaN(d.getTime())) return value;
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
    },
  },
  clip: {
    help: '{{clip text}}: a text of up to 300 characters as it is, a longer one as its first 300 with the whole text one click away; either may break after a dot, hyphen or slash (never inside a name\'s label)',
    fn: (value) => {
      const text = String(value ?? '');
      const chars = [...text];
      if (chars.length <= CLIP) return new Handlebars.SafeString(breakable(text));
      return new Handlebars.SafeString(
        `<details class="clip"><summary>${breakable(chars.slice(0, CLIP).join(''))}… <span class="more">show all ${chars.length.toLocaleString('en-US')} characters</span></summary>${breakable(text)}</details>`,
      );
    },
  },
  json: {
    help: '{{json value}}: JSON safe inside <script type="application/json">: <, >, & and line separators escaped, so no data can close the element',
    fn: (value) =>
      new Handlebars.SafeString(
        JSON.stringify(value ?? null)
          .replace(/</g, '\\u003c')
          .replace(/>/g, '\\u003e')
          .replace(/&/g, '\\u0026')
          .replace(/\u2028/g, '\\u2028')
          .replace(/\u2029/g, '\\u2029'),
      ),
  },
};
