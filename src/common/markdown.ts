import { printable } from './printable.js';

/**
 * Text from the API inside Markdown (a pull-request comment, a chat message, a report): it must
 * read as the text it is, never as markup. HTML is neutralised as entities, inline Markdown syntax
 * (emphasis, code, links, images, strike-through, table pipes) is backslash-escaped, `@` cannot
 * mention anyone, line breaks cannot end a table row or start a block, and control characters
 * are shown as escapes. GitHub-flavoured Markdown also links bare `scheme://` and `www.` text on
 * its own, so their `:` and `.` become entities, which read the same but no longer match.
 * Callers put the text after their own markup, never at a line's start.
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
