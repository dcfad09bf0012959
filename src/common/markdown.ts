import { printable } from './printable.js';

/**
 * Text from the API inside Markdown, read as text, never markup: HTML as entities, inline syntax
 * backslash-escaped, no `@` mention, no line break to end a table row, control characters escaped.
 * GitHub-flavoured Markdown links bare `scheme://` and `www.` text, so their `:` and `.` become
 * entities. Callers put the text after their own markup, never at a line's start.
 */
export function markdownText(text: string): string {
  return printable(text.replace(/\r\n?|\n/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '&#64;')
    .replace(/([\\`*_[\]|~])/g, '\\$1')
    .replace(/:(?=\/\/)/g, '&#58;')
    .replace(/\b(www)\./gi, '$1&#46;');
}
