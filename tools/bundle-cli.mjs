// Bundles the CLI that tsc built (dist/src/cli/main.js and everything it imports) into
// dist/cli/: main.js, one file per command loaded when run, and the code they share.
//
// Why: Node's ES module loader costs about half a millisecond per file. `zonewarden audit`
// imports 136 of our files (53 of them rules): 135-145 ms before its first line ran, 66-89 ms
// bundled, measured on the CI machines' kind; a nightly audit of 10,000 zones is 1.5 s in all.
// The bundle is made from tsc's output, so tsc stays the only compiler of our code; packages in
// node_modules stay imports (better-sqlite3 loads a native binary; undici and yaml are loaded
// only by the commands that use them, as before).
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli');
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/cli/main.js'],
  outdir,
  bundle: true,
  // Each command stays a file of its own, loaded by `import()` when it runs.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // No keepNames: it wraps every function made at run time in a call that sets its name, 4% of a
  // cold audit's CPU (closures made per zone and rule). Names still show in stack traces; esbuild
  // renames only where two modules' top-level names collide, checked below for classes, whose
  // names are error names (ZonewardenError sets name from the class).
  keepNames: false,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

// A class renamed by the bundle (Foo to Foo2) would change an error's name: refuse the build.
// Bundled, a class is `var Foo = class extends ...` (named Foo by the assignment), `var Foo =
// class _Foo` (named _Foo: it refers to itself), or `class Foo`.
const namesIn = (dir, pattern, nameOf) =>
  readdirSync(join(root, dir), { recursive: true })
    .filter((f) => String(f).endsWith('.js'))
    .flatMap((f) => [...readFileSync(join(root, dir, String(f)), 'utf8').matchAll(pattern)].map(nameOf));
const declaredClass = /\bclass (?!extends\b)(\w+)/g;
const written = new Set([...namesIn('dist/src', declaredClass, (m) => m[1]), ...namesIn('dist/rules', declaredClass, (m) => m[1])]);
// A class that extends another (an error) must keep its name exactly; the others only in spelling.
const bundled = /(?:\b(?:var|let|const) (\w+) = )?\bclass(?: (?!extends\b)(\w+))?( extends\b)?/g;
const named = new Set(namesIn('dist/cli', bundled, (m) => (m[3] ? (m[2] ?? m[1]) : (m[2] ?? m[1])?.replace(/^_/, ''))).filter(Boolean));
const renamed = [...named].filter((name) => !written.has(name));
if (renamed.length > 0) throw new Error(`bundle-cli: the bundle renamed class(es) ${renamed.join(', ')} (two modules declare the same name?): rename one in the source`);
