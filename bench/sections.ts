/**
 * BENCHMARKS.md holds one generated section per scale between markers, and whatever people wrote
 * around them (how a figure was improved, what a miss means). A run replaces only the sections
 * of the scales it measured, so measuring `small` never drops the `large` figures of an earlier day.
 */
const begin = (name: string) => `<!-- bench:${name} begin: written by npm run bench -->`;
const end = (name: string) => `<!-- bench:${name} end -->`;

export function replaceSection(doc: string, name: string, section: string): string {
  const block = `${begin(name)}\n${section.trimEnd()}\n${end(name)}`;
  const from = doc.indexOf(begin(name));
  const to = doc.indexOf(end(name));
  if (from >= 0 && to > from) return `${doc.slice(0, from)}${block}${doc.slice(to + end(name).length)}`;
  // A new scale goes after the title and before everything written by hand.
  const title = doc.indexOf('\n') + 1;
  return `${doc.slice(0, title)}\n${block}\n${doc.slice(title)}`;
}
