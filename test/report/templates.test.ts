import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELPERS } from '../../src/report/helpers.js';
import { loadTemplates, TemplateError } from '../../src/report/templates.js';
import { thrownBy } from '../support/errors.js';

/** A --templates directory holding the given files. */
function overrides(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'zw-templates-'));
  for (const [name, text] of Object.entries(files)) {
    if (name.includes('/')) mkdirSync(join(dir, name.slice(0, name.lastIndexOf('/'))), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const render = (name: 'report.html' | 'report.md', text: string, view: object) => loadTemplates({ overrideDir: overrides({ [`${name}.hbs`]: text }) }).render(name, view);

describe('the report templates environment', () => {
  it('escapes HTML in HTML templates', () => {
    expect(render('report.html', '<p>{{name}}</p>', { name: '<script>alert(1)</script> & "x"' })).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</p>');
  });

  it('leaves Markdown templates unescaped: their view model carries Markdown-escaped text', () => {
    expect(render('report.md', '| {{cell}} |', { cell: '&lt;b&gt; \\| x' })).toBe('| &lt;b&gt; \\| x |');
  });

  it('refuses a field the view model lacks, in one line naming the template', () => {
    const err = thrownBy(() => render('report.html', '<p>{{zone.name}}</p>', { zone: {} }), TemplateError);
    expect(err.message).toMatch(/report\.html\.hbs: "name" not defined in/);
    expect(err.message).not.toContain('\n');
  });

  it('reports a template that does not parse in one line', () => {
    const err = thrownBy(() => render('report.html', '<p>{{#if x}}</p>', { x: true }), TemplateError);
    expect(err.message).toMatch(/report\.html\.hbs: Parse error/);
    expect(err.message).not.toContain('\n');
  });

  it('refuses files in --templates that are not templates it renders, and a missing directory', () => {
    expect(thrownBy(() => loadTemplates({ overrideDir: overrides({ 'reprot.html.hbs': '' }) }), TemplateError).message).toMatch(
      /reprot\.html\.hbs is not a template zonewarden renders; the templates are report\.html\.hbs, report\.md\.hbs, index\.html\.hbs/,
    );
    expect(thrownBy(() => loadTemplates({ overrideDir: overrides({ 'partials/nope.hbs': '' }) }), TemplateError).message).toMatch(/partials\/nope\.hbs is not a partial/);
    expect(thrownBy(() => loadTemplates({ overrideDir: '/nonexistent/templates' }), TemplateError).message).toBe('--templates /nonexistent/templates: no such directory');
  });

  it('formats counts, plurals, percentages and times', () => {
    const text = '{{number n}}|{{plural 1 "finding"}}|{{plural n "finding"}}|{{plural 2 "policy" "policies"}}|{{percent 1 3}}|{{percent 1 0}}|{{date at}}|{{date ""}}';
    expect(render('report.html', text, { n: 12409, at: '2026-11-22T02:05:09.123Z' })).toBe('12,409|1 finding|12,409 findings|2 policies|33|0|2026-11-22 02:05 UTC|');
  });

  it('compares in templates with eq, gt, and, or, not', () => {
    const text = '{{#if (eq a "x")}}eq {{/if}}{{#if (gt n 2)}}gt {{/if}}{{#if (and a n)}}and {{/if}}{{#if (or z a)}}or {{/if}}{{#if (not z)}}not{{/if}}';
    expect(render('report.html', text, { a: 'x', n: 3, z: 0 })).toBe('eq gt and or not');
    expect(render('report.html', text, { a: 'y', n: 1, z: 1 })).toBe('and or ');
  });

  it('embeds JSON that cannot close its script element or break a line', () => {
    const out = render('report.html', '<script type="application/json">{{json data}}</script>', { data: { name: '</script><script>alert(1)</script>&\u2028' } });
    expect(out.match(/<\/script>/g)).toHaveLength(1);
    const inner = out.slice(out.indexOf('>') + 1, out.lastIndexOf('</script>'));
    expect(JSON.parse(inner)).toEqual({ name: '</script><script>alert(1)</script>&\u2028' });
  });

  it('cuts a long text with all of it one click away, and lets names break at their dots only', () => {
    expect(render('report.html', '{{clip t}}', { t: 'shop.northwind-blog.example' })).toBe('shop.<wbr>northwind-<wbr>blog.<wbr>example');
    // An escape of an invisible character may start a line; HTML in the text stays escaped.
    expect(render('report.html', '{{clip t}}', { t: 'a\\u202eb <i>' })).toBe('a<wbr>\\u202eb &lt;i&gt;');
    const long = `${'<b>'.repeat(150)}${'x'.repeat(99_550)}`;
    const out = render('report.html', '{{clip t}}', { t: long });
    expect(out).toMatch(/^<details class="clip"><summary>(&lt;b&gt;){100}… <span class="more">show all 100,000 characters<\/span><\/summary>/);
    expect(out.endsWith(`${'x'.repeat(99_550)}</details>`)).toBe(true);
    expect(out).not.toContain('<b>');
  });

  it('documents every helper', () => {
    for (const [name, helper] of Object.entries(HELPERS)) expect(helper.help, name).toMatch(new RegExp(name));
  });
});
