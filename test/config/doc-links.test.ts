import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the README and the user guide (docs/, its examples included) points at a
 * file or directory that exists, and a link with a #fragment into a Markdown page at one of its
 * headings: moving a section must not leave a reader at a dead end.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** [text](target) and ![alt](target), without a title; autolinks and references are not used in these pages. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  // An HTML anchor in the text, such as each row of the rule table carries (<a id="rule-id"></a>).
  for (const m of prose(markdown).matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe('links of the README and the user guide', () => {
  it('finds the pages and their links', () => {
    // The README links into the guide, and the guide has an index: an empty scan would pass anything.
    expect(PAGES).toContain(join(ROOT, 'docs', 'README.md'));
    expect(linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toContain('docs/README.md');
  });

  it.each(PAGES.map((p) => [relative(ROOT, p), p]))('%s: every relative link resolves', (_name, page) => {
    const text = readFileSync(page, 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      if (isExternal(link)) continue;
      const [pathPart, fragment] = link.split('#', 2) as [string, string | undefined];
      const target = pathPart === '' ? page : join(dirname(page), decodeURIComponent(pathPart));
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (fragment === undefined) continue;
      if (statSync(target).isDirectory() || !target.endsWith('.md')) {
        broken.push(`${link}: a fragment into something that is not a Markdown page`);
        continue;
      }
      if (!anchorsOf(readFileSync(target, 'utf8')).has(fragment)) broken.push(`${link}: no heading #${fragment} in ${relative(ROOT, target)}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('the link checker itself', () => {
  it('makes GitHub anchors of headings, with code, punctuation and repeats', () => {
    const anchors = anchorsOf('# The rules\n## 1. A token: the `run` command\n## The vendor\'s names\n## Notes\n## Notes\n```sh\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['the-rules', '1-a-token-the-run-command', 'the-vendors-names', 'notes', 'notes-1']);
  });

  it('takes HTML anchors outside code as anchors too', () => {
    const anchors = anchorsOf('| <a id="hsts-weak"></a>`hsts-weak` |\n`<a id="in-code"></a>`\n<a name="old-style"></a>\n');
    expect([...anchors]).toEqual(['hsts-weak', 'old-style']);
  });

  it('reads links and images outside code only', () => {
    const links = linksOf('See [a](a.md#x) and ![b](img/b.png "B").\n`[c](c.md)`\n```md\n[d](d.md)\n```\n[e](https://example.com)');
    expect(links).toEqual(['a.md#x', 'img/b.png', 'https://example.com']);
  });
});
