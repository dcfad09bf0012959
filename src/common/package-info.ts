import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's package.json, found walking up: this runs from src/ under vitest and from dist/src/ once built. */
function findPackageJson(): { name: string; version: string; root: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'zonewarden' && pkg.version) return { name: pkg.name, version: pkg.version, root: dir };
    } catch {}
    const parent = dirname(dir);
    if (parent === dir) return { name: 'zonewarden', version: '0.0.0', root: process.cwd() };
    dir = parent;
  }
}

export const PACKAGE = findPackageJson();
