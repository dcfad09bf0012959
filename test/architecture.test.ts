import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The architecture as docs/development.md draws it ("Rooms and the direction of imports"): every
 * static import of src/ and rules/ goes the way the rooms' table allows, and no files import each
 * other in a circle. What cannot be fixed today is listed below with its reason; an entry that no
 * longer holds fails the test, so the lists only shrink.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Who may import whom, besides itself: a room (a folder of src/, or `rules`) or one file of a
 * room, as the doc's table writes it. A file key adds to its room's row. Kept equal to the doc's
 * table by the test "the doc's table is this table".
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  common: [],
  cloudflare: [],
  config: ['common'],
  api: ['common', 'cloudflare', 'config'],
  snapshot: ['common', 'cloudflare', 'api/endpoints.ts'],
  crawler: ['common', 'cloudflare', 'config', 'api', 'snapshot'],
  policy: ['common', 'cloudflare', 'config', 'api/endpoints.ts', 'snapshot'],
  audit: ['common', 'cloudflare', 'snapshot', 'policy'],
  rules: ['common', 'cloudflare', 'policy'],
  'rules-api': ['common', 'cloudflare', 'policy', 'snapshot'],
  drift: ['common', 'cloudflare', 'snapshot', 'policy', 'audit'],
  report: ['common', 'cloudflare', 'snapshot', 'policy', 'audit', 'drift', 'crawler/reads/index.ts'],
  schedule: ['common', 'cloudflare', 'config', 'snapshot', 'policy', 'audit', 'drift', 'api/pacer.ts', 'api/base-url.ts'],
  metrics: ['common', 'cloudflare', 'snapshot', 'policy', 'audit', 'schedule', 'crawler/summary.ts'],
  actions: ['common', 'cloudflare', 'api', 'policy', 'snapshot'],
  jobs: ['common', 'cloudflare', 'config', 'api', 'snapshot', 'crawler', 'policy', 'audit', 'drift', 'report', 'schedule', 'metrics', 'actions'],
  cli: ['common', 'cloudflare', 'config', 'api', 'snapshot', 'crawler', 'policy', 'audit', 'drift', 'report', 'schedule', 'metrics', 'actions', 'jobs'],
  'cli/commands/emulator.ts': ['emulator'],
  'cli/commands/demo.ts': ['emulator'],
  emulator: ['common'],
};

/** Imports against the direction, allowed for now: `from -> to` (paths from the repository root) and why. */
const EDGES_ALLOWED_FOR_NOW: Readonly<Record<string, string>> = {
  'src/policy/catalogue.ts -> rules/index.ts':
    'the catalogue of built-in rules is a process-wide registry the reports read too; the jobs and CLI are to hand it the rules instead',
};

/** Import circles allowed for now: the files of each (sorted, comma-separated) and why. */
const CIRCLES_ALLOWED_FOR_NOW: Readonly<Record<string, string>> = {};

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `import ... from '...'`, `export ... from '...'` and `import '...'`, outside comments; dynamic import() is not one. */
const IMPORT = /(?:^|\n)[ \t]*(?:(?:import|export)\s[^'"`;]*?from\s*|import\s*)['"]([^'"]+)['"]/g;

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^[ \t]*\/\/.*$/gm, '');
}

/** Relative specifiers of a file's static imports. */
function importsOf(source: string): string[] {
  return [...withoutComments(source).matchAll(IMPORT)].map((m) => m[1]!).filter((s) => s.startsWith('.'));
}

/** Every file of src/ and rules/ and the files each imports, as paths from the repository root. */
function importGraph(): Map<string, Set<string>> {
  const files = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'rules'))];
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      let target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      if (!known.has(target) && known.has(join(target, 'index.ts'))) target = join(target, 'index.ts');
      if (!target.endsWith('.ts')) target += '.ts';
      // An import of something that is not a file of src/ or rules/ (a template, package.json) has no direction.
      if (known.has(target)) targets.add(relative(ROOT, target));
    }
    graph.set(relative(ROOT, file), targets);
  }
  return graph;
}

/** A file's place: its room and its path in the room's terms (`api/endpoints.ts`, `rules/index.ts`). */
function placeOf(file: string): { room: string; path: string } {
  const path = file.startsWith('src/') ? file.slice('src/'.length) : file;
  return { room: path.split('/')[0]!.replace(/\.ts$/, ''), path };
}

/** Why an import is against the table, or null when it goes the allowed way. */
function againstDirection(from: string, to: string, allowed: Readonly<Record<string, readonly string[]>>): string | null {
  const a = placeOf(from);
  const b = placeOf(to);
  if (a.room === b.room) return null;
  const may = [...(allowed[a.room] ?? []), ...(allowed[a.path] ?? [])];
  if (!(a.room in allowed)) return `${a.room} is no room of the table in docs/development.md`;
  if (may.includes(b.room) || may.includes(b.path)) return null;
  return `${a.room} may not import ${b.room}`;
}

/** The circles of the graph: strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circlesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/** The doc's table of rooms: each row's rooms or files (first column) and what they may import (last column). */
function docTable(): Record<string, string[]> {
  const doc = readFileSync(join(ROOT, 'docs/development.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Rooms and the direction of imports'));
  if (!section) throw new Error('docs/development.md has no section "Rooms and the direction of imports"');
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  const table: Record<string, string[]> = {};
  for (const row of rows) {
    const cells = row.split('|').slice(1, -1);
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    for (const source of ticked(cells[0]!)) table[source] = ticked(cells[cells.length - 1]!);
  }
  return table;
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, targets]) => [...targets].map((to) => ({ from, to })));

describe('architecture', () => {
  it('reads the imports it judges (static, re-exports, multi-line, not in comments)', () => {
    const source = "// import { a } from './commented.js';\n/* import b from './block.js'; */\nimport {\n  c,\n  d,\n} from './multi.js';\nexport { e } from '../up.js';\nimport type { F } from './types.js';\nimport './side.js';\nimport { g } from 'node:fs';\nconst h = await import('./dynamic.js');\n";
    expect(importsOf(source)).toEqual(['./multi.js', '../up.js', './types.js', './side.js']);
    // The graph holds what the code imports: a rule imports the contract, the CLI the jobs.
    expect(graph.get('rules/index.ts')?.size).toBeGreaterThan(10);
    expect(graph.get('src/cli/commands/run.ts')).toContain('src/jobs/nightly.ts');
  });

  it('judges a direction by the table: rooms, single files and file rows', () => {
    expect(againstDirection('src/crawler/crawl.ts', 'src/api/client.ts', ALLOWED)).toBeNull();
    expect(againstDirection('src/api/client.ts', 'src/crawler/crawl.ts', ALLOWED)).toBe('api may not import crawler');
    expect(againstDirection('src/policy/rule.ts', 'src/api/endpoints.ts', ALLOWED)).toBeNull();
    expect(againstDirection('src/policy/rule.ts', 'src/api/client.ts', ALLOWED)).toBe('policy may not import api');
    expect(againstDirection('src/cli/commands/demo.ts', 'src/emulator/server.ts', ALLOWED)).toBeNull();
    expect(againstDirection('src/cli/commands/scan.ts', 'src/emulator/server.ts', ALLOWED)).toBe('cli may not import emulator');
    expect(againstDirection('rules/tls-min.ts', 'src/snapshot/reader.ts', ALLOWED)).toBe('rules may not import snapshot');
  });

  it('finds circles, naming their files', () => {
    const g = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts', 'd.ts'])],
    ]);
    expect(circlesOf(g)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });

  it("the doc's table is this table", () => {
    const doc = docTable();
    const sorted = (t: Readonly<Record<string, readonly string[]>>) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, [...v].sort()] as const));
    expect(sorted(doc)).toEqual(sorted(ALLOWED));
  });

  it('every room of src/ has a row of the table', () => {
    const rooms = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(rooms.filter((room) => !(room in ALLOWED))).toEqual([]);
  });

  it('imports go the way docs/development.md allows, but for the listed exceptions', () => {
    const against = edges
      .map(({ from, to }) => ({ edge: `${from} -> ${to}`, why: againstDirection(from, to, ALLOWED) }))
      .filter((e) => e.why !== null && !(e.edge in EDGES_ALLOWED_FOR_NOW))
      .map((e) => `${e.edge} (${e.why})`);
    expect(against, 'imports against the direction of docs/development.md').toEqual([]);
  });

  it('each import allowed for now still exists and is still against the direction (else delete it from the list)', () => {
    const present = new Set(edges.map(({ from, to }) => `${from} -> ${to}`));
    const stale = Object.keys(EDGES_ALLOWED_FOR_NOW).filter((edge) => {
      const [from, to] = edge.split(' -> ') as [string, string];
      return !present.has(edge) || againstDirection(from, to, ALLOWED) === null;
    });
    expect(stale, 'exceptions that no longer hold: delete them from EDGES_ALLOWED_FOR_NOW').toEqual([]);
  });

  it('no import circles, but for the listed ones', () => {
    const circles = circlesOf(graph).map((c) => c.join(', '));
    expect(circles.filter((c) => !(c in CIRCLES_ALLOWED_FOR_NOW)), 'import circles').toEqual([]);
  });

  it('each circle allowed for now still exists (else delete it from the list)', () => {
    const circles = new Set(circlesOf(graph).map((c) => c.join(', ')));
    const stale = Object.keys(CIRCLES_ALLOWED_FOR_NOW).filter((c) => !circles.has(c));
    expect(stale, 'circles that no longer exist: delete them from CIRCLES_ALLOWED_FOR_NOW').toEqual([]);
  });
});
