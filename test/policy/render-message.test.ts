import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../src/policy/findings.js';

// renderMessage fills a rule's message template (meta.messages) with a finding's data. Templates
// are split once and reused, so the cases render many templates in one process, one of them again
// with other data, to catch a part held over from an earlier call.
describe('renderMessage', () => {
  const cases: Array<[template: string, data: Record<string, unknown>, expected: string]> = [
    ['no placeholder at all', {}, 'no placeholder at all'],
    ['{{name}}', { name: 'www.example.com' }, 'www.example.com'],
    ['{{name}} is DNS-only', { name: 'a.example' }, 'a.example is DNS-only'],
    ['points at {{content}}', { content: '192.0.2.1' }, 'points at 192.0.2.1'],
    ['{{name}} ({{type}} {{content}}) publishes {{content}}', { name: 'b.example', type: 'A', content: '192.0.2.2' }, 'b.example (A 192.0.2.2) publishes 192.0.2.2'],
    ['{{ spaced }} and {{tight}}', { spaced: 'one', tight: 'two' }, 'one and two'],
    ['{{a}}{{b}}', { a: 'x', b: 'y' }, 'xy'],
    ['expires in {{days}} days', { days: 12345 }, 'expires in 12,345 days'],
    // Integers are grouped as en-US writes them (Number.prototype.toLocaleString('en-US')), also
    // where they are grouped without Intl: at the thousands, negative, and past the safe integers.
    ['count {{n}}', { n: 999 }, 'count 999'],
    ['count {{n}}', { n: 1000 }, 'count 1,000'],
    ['count {{n}}', { n: -1234567 }, 'count -1,234,567'],
    ['count {{n}}', { n: -0 }, 'count -0'],
    ['count {{n}}', { n: 2 ** 53 + 2 }, 'count 9,007,199,254,740,994'],
    ['count {{n}}', { n: 1e21 }, 'count 1,000,000,000,000,000,000,000'],
    ['ratio {{r}}', { r: 0.5 }, 'ratio 0.5'],
    ['hosts: {{hosts}}', { hosts: ['a.example', 'b.example'] }, 'hosts: a.example, b.example'],
    ['flag {{f}}', { f: false }, 'flag false'],
    ['object {{o}}', { o: { k: 1 } }, 'object {"k":1}'],
    ['null {{n}}', { n: null }, 'null null'],
    // Replacement patterns of String.replace mean nothing here: the data is the text.
    ['dollar {{d}}', { d: "$& $1 $$ $'" }, "dollar $& $1 $$ $'"],
    ['braces {{x}} }} {{ and {x}', { x: 'X' }, 'braces X }} {{ and {x}'],
    ['{{name}} is DNS-only', { name: 'second.example' }, 'second.example is DNS-only'],
  ];
  it.each(cases)('%s with %j', (template, data, expected) => {
    expect(renderMessage(template, data)).toBe(expected);
  });

  it('throws on a placeholder without data, or whose value is undefined, naming it', () => {
    expect(() => renderMessage('{{name}} at {{where}}', { name: 'a' })).toThrow('message placeholder {{where}} has no data');
    expect(() => renderMessage('{{name}} at {{where}}', { name: 'a', where: undefined })).toThrow('message placeholder {{where}} has no data');
    // An inherited property is not data.
    expect(() => renderMessage('{{toString}}', {})).toThrow('message placeholder {{toString}} has no data');
    // The same template with its data complete renders after a throw.
    expect(renderMessage('{{name}} at {{where}}', { name: 'a', where: 'b' })).toBe('a at b');
  });
});
