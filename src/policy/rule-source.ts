import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyRule } from './rule.js';

/**
 * A custom rule's code beyond its `check`: every file of its rules directory (what `check` may call).
 * The judgement takes it into the rule's identity, and the loader re-imports a changed directory.
 */

const sources = new WeakMap<object, string>();

/** Deeper than any rules project nests its own files. */
const MAX_DEPTH = 16;

/** A rules directory's fingerprint: each file's path and content (not dot-files or node_modules), and its packages' versions. */
export function rulesDirFingerprint(dir: string): string {
  const hash = createHash('sha256');
  // Directories by their real path: a symbolic link back up the tree is walked once, not without end.
  const walked = new Set<string>();
  const walk = (at: string, relative: string, depth: number): void => {
    const real = attempt(() => realpathSync(at));
    if (depth > MAX_DEPTH || real === null || walked.has(real)) return;
    walked.add(real);
    for (const name of attempt(() => readdirSync(at).sort()) ?? []) {
      if (name.startsWith('.')) continue;
      const path = join(at, name);
      const rel = relative === '' ? name : `${relative}/${name}`;
      const stat = attempt(() => statSync(path, { throwIfNoEntry: false }));
      if (!stat) continue;
      if (stat.isDirectory()) {
        if (name === 'node_modules') packages(path, rel, hash);
        else walk(path, rel, depth + 1);
      } else if (stat.isFile()) {
        // A file that cannot be read (a key kept beside the rules, one deleted meanwhile) is named, not a failure:
        // a rule that needs it fails to load on its own, with its own message.
        const content = attempt(() => readFileSync(path));
        hash.update(`${rel}\u0000${content === null ? 'unreadable' : content.length}\u0000`);
        if (content !== null) hash.update(content);
      }
    }
  };
  walk(dir, '', 0);
  return hash.digest('hex');
}

/** The value, or null when reading the file system failed. */
function attempt<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The packages of a node_modules directory (scoped ones included), by name and version. */
function packages(dir: string, rel: string, hash: ReturnType<typeof createHash>): void {
  const versionOf = (path: string): string => String(attempt(() => (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { version?: unknown }).version) ?? '');
  for (const name of attempt(() => readdirSync(dir).sort()) ?? []) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (name.startsWith('@')) {
      for (const inner of attempt(() => readdirSync(path).sort()) ?? []) hash.update(`${rel}/${name}/${inner}@${versionOf(join(path, inner))}\u0000`);
    } else hash.update(`${rel}/${name}@${versionOf(path)}\u0000`);
  }
}

export function noteRuleSource(rule: AnyRule, fingerprint: string): void {
  sources.set(rule, fingerprint);
}

/** The fingerprint of the directory a custom rule was loaded from; undefined for a built-in rule. */
export function ruleSourceOf(rule: AnyRule): string | undefined {
  return sources.get(rule);
}
