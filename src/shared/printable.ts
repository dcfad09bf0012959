/**
 * Text from the API shown on a terminal: control characters (ANSI escapes, bells, carriage
 * returns) and bidirectional overrides could rewrite what the user sees, so they are shown as
 * visible escapes instead of being interpreted.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Shortened to `max` characters (code points), with an ellipsis. */
export function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
