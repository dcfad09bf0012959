/**
 * Text from the API shown to a person: control characters (ANSI escapes, carriage returns),
 * bidirectional controls and invisible characters could rewrite or hide what the reader sees (an
 * override makes a domain read as another), so they are shown as visible escapes.
 */

/** Bidirectional controls, zero-width and other characters that render as nothing. */
const INVISIBLE = '\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}';
// eslint-disable-next-line no-control-regex
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'gu');
/** For formats that keep line breaks and tabs as data (CSV quotes them): everything else above. */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_FIELDS = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'gu');

function escape(c: string): string {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function printable(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** As printable, but tabs and line breaks stay: for a CSV field, which quotes them. */
export function printableField(text: string): string {
  return text.replace(UNSAFE_IN_FIELDS, escape);
}

/** Shortened to `max` characters (code points), with an ellipsis. */
export function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
