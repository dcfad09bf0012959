import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PACKAGE } from '../common/package-info.js';

/**
 * How --rules-dir files resolve `zonewarden/rules`: a rules directory need not have zonewarden
 * installed, so a resolve hook (module.register, Node 20.6+) answers with this package's modules,
 * as ESLint does for plugins, and marks a failed resolution so the error can name the fix.
 */

/** The subpaths of package.json "exports" a rule may import by name. */
const RULE_API_SUBPATHS = ['./rules', './rules/testing'] as const;

/** The hook module, given as source (a data: URL) so it is the same under vitest and once built. */
const HOOKS = `
let targets = {};
let param = '';
export function initialize(data) { targets = data.targets; param = data.param; }
export async function resolve(specifier, context, nextResolve) {
  if (Object.hasOwn(targets, specifier)) return { url: targets[specifier], shortCircuit: true };
  let resolved;
  try {
    resolved = await nextResolve(specifier, context);
  } catch (err) {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
      err.zonewardenSpecifier = specifier;
      err.zonewardenParent = context.parentURL;
    }
    throw err;
  }
  // What a rule file imports takes its rules directory's fingerprint, packages too (an upgrade
  // changes it): changed, they load again. CommonJS is cached by file name whatever the URL.
  const parent = context.parentURL && context.parentURL.startsWith('file:') ? new URL(context.parentURL) : null;
  const source = parent ? parent.searchParams.get(param) : null;
  if (source && resolved.url.startsWith('file:')) {
    const url = new URL(resolved.url);
    url.searchParams.set(param, source);
    return { ...resolved, url: url.href };
  }
  return resolved;
}
`;

/** The query parameter that carries a rules directory's fingerprint (rule-source.ts) on the URLs of its files. */
export const SOURCE_PARAM = 'zw-source';

/** `zonewarden/rules` and `zonewarden/rules/testing` -> the file URLs package.json "exports" names for them. */
export function ruleApiTargets(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(PACKAGE.root, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
  const targets: Record<string, string> = {};
  for (const subpath of RULE_API_SUBPATHS) {
    targets[`${PACKAGE.name}${subpath.slice(1)}`] = pathToFileURL(join(PACKAGE.root, pkg.exports[subpath]!.default)).href;
  }
  return targets;
}

let registered = false;

/** Installs the resolve hook, once per process, before the first rule file is imported. */
export function resolveRuleImports(): void {
  if (registered) return;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { targets: ruleApiTargets(), param: SOURCE_PARAM } });
  registered = true;
}

/** What the hook adds to a failed resolution. */
interface UnresolvedImport {
  code: 'ERR_MODULE_NOT_FOUND';
  zonewardenSpecifier: string;
  zonewardenParent?: string;
}

function isUnresolvedImport(err: unknown): err is UnresolvedImport {
  const e = err as Partial<UnresolvedImport> | null;
  return typeof e === 'object' && e !== null && e.code === 'ERR_MODULE_NOT_FOUND' && typeof e.zonewardenSpecifier === 'string';
}

/** `lodash` for `lodash/fp`, `@scope/name` for `@scope/name/sub`; null for a path or a URL. */
export function packageOf(specifier: string): string | null {
  if (/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** A path as the shell takes it: quoted when it holds anything but plain path characters. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Why rule file `file` could not be loaded because of an import, and what to run; null for other errors. */
export function unresolvedImportProblem(err: unknown, file: string): string | null {
  if (!isUnresolvedImport(err)) return null;
  const specifier = err.zonewardenSpecifier;
  const parent = err.zonewardenParent?.startsWith('file:') ? fileURLToPath(err.zonewardenParent) : null;
  const from = parent && parent !== file ? ` (in ${parent})` : '';
  const pkg = packageOf(specifier);
  if (pkg === null) return `${file}: cannot be loaded: ${specifier}${from} does not exist`;
  if (pkg === PACKAGE.name) {
    return `${file}: cannot be loaded: it imports ${specifier}${from}; zonewarden gives its rules ${Object.keys(ruleApiTargets()).join(' and ')}, import from those`;
  }
  const dir = dirname(file);
  return `${file}: cannot be loaded: it imports the package ${pkg}${from}, which is not installed there; run: npm install --prefix ${shellWord(dir)} ${pkg}`;
}
