import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RuleDefinitionError, ruleProblems } from './registry.js';
import { resolveRuleImports, SOURCE_PARAM, unresolvedImportProblem } from './rule-imports.js';
import { noteRuleSource, rulesDirFingerprint } from './rule-source.js';
import type { AnyRule, RuleMeta } from './rule.js';

/** Rules of your own (--rules-dir): each `.js`/`.mjs` file default-exports one rule named by its id; tests are skipped. */

const RULE_FILE = /\.(m?js)$/;
const NOT_A_RULE = /\.(test|spec)\.m?js$|\.d\.m?ts$/;

/** Every key of RuleMeta: others (such as the pre-issue-51 `dependsOnTime`) are ignored with a warning. */
const META_KEYS: Readonly<Record<keyof RuleMeta, true>> = {
  id: true, title: true, description: true, severity: true, category: true, scope: true, resource: true, messages: true,
  remediation: true, references: true, controls: true, optionHelp: true, optionsFrom: true, optionChoices: true, reads: true,
};

/** Rule files already warned about in this process, by file and keys (the scheduler loads the rules again for every run). */
const warned = new Set<string>();

/** One line for a rule whose meta has keys zonewarden does not know, once per process; null when it has none. */
function unknownMetaWarning(rule: AnyRule, file: string): string | null {
  const unknown = Object.keys(rule.meta).filter((k) => !Object.hasOwn(META_KEYS, k));
  if (unknown.length === 0) return null;
  const key = `${file}\u0000${unknown.join(',')}`;
  if (warned.has(key)) return null;
  warned.add(key);
  const reuse = unknown.some((k) => k === 'dependsOnTime' || k === 'declaresHorizon');
  return `warning: ${file}: rule ${rule.meta.id} has meta ${unknown.map((k) => `"${k}"`).join(', ')}, which zonewarden ignores${reuse ? ' (every audit now judges every zone, so verdicts need no time they hold until)' : ''}; remove ${unknown.length === 1 ? 'it' : 'them'} from the rule`;
}

export interface CustomRule {
  rule: AnyRule;
  file: string;
}

/** The rule files of one directory, sorted by name; a directory without any is an error. */
function ruleFiles(dir: string, shown: string): string[] {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new RuleDefinitionError(`--rules-dir ${shown}: not a directory`);
    entries = readdirSync(dir).sort();
  } catch (err) {
    if (err instanceof RuleDefinitionError) throw err;
    throw new RuleDefinitionError(`--rules-dir ${shown}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'}); give a directory of rule files`);
  }
  const typescript = entries.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(test|spec)\.ts$/.test(f));
  if (typescript.length) {
    throw new RuleDefinitionError(`--rules-dir ${shown}: ${typescript[0]} is TypeScript, which Node does not load; compile the rules to .js (tsc) and point --rules-dir at the output`);
  }
  const files = entries.filter((f) => RULE_FILE.test(f) && !NOT_A_RULE.test(f) && !f.startsWith('.'));
  if (files.length === 0) throw new RuleDefinitionError(`--rules-dir ${shown}: no rule files (.js or .mjs) in it`);
  return files.map((f) => join(dir, f));
}

async function importRule(file: string, source: string): Promise<unknown> {
  // The directory's fingerprint in the URL, passed on to every file of it the rule imports
  // (rule-imports.ts): an edited rule or helper is loaded again by the next run of the scheduler,
  // as the waivers file is, instead of the copy Node cached at the first.
  const url = `${pathToFileURL(file).href}?${SOURCE_PARAM}=${source}`;
  resolveRuleImports();
  try {
    return ((await import(url)) as { default?: unknown }).default;
  } catch (err) {
    const problem = unresolvedImportProblem(err, file);
    if (problem !== null) throw new RuleDefinitionError(problem);
    const message = (err as Error | undefined)?.message ?? String(err);
    throw new RuleDefinitionError(`${file}: cannot be loaded: ${message.split('\n')[0]}`);
  }
}

/** Loads and validates the rules of `dirs`; a bad file is refused with one line naming it and the fix. */
export async function loadCustomRules(dirs: readonly string[], cwd: string, builtIn: ReadonlySet<string>, warn: (line: string) => void = () => {}): Promise<CustomRule[]> {
  const loaded: CustomRule[] = [];
  const seen = new Map<string, string>();
  for (const dir of dirs) {
    const path = resolve(cwd, dir);
    const files = ruleFiles(path, dir);
    const source = rulesDirFingerprint(path);
    for (const file of files) {
      const rule = (await importRule(file, source)) as AnyRule | undefined;
      if (rule === undefined || rule === null || typeof rule !== 'object' || typeof rule.meta !== 'object' || rule.meta === null) {
        throw new RuleDefinitionError(`${file}: no rule as its default export; end it with export default defineRule({ meta, defaultOptions, check })`);
      }
      const problems = ruleProblems(rule);
      if (problems.length) throw new RuleDefinitionError(`${file}: rule ${String(rule.meta.id)} is malformed: ${problems.join('; ')}`);
      const id = rule.meta.id;
      const stem = basename(file, extname(file));
      if (stem !== id) throw new RuleDefinitionError(`${file}: the rule's id is "${id}"; name the file ${id}${extname(file)}, as rules are named by their id`);
      if (builtIn.has(id)) throw new RuleDefinitionError(`${file}: "${id}" is the id of a built-in rule; choose another (prefix your rules with your organisation, e.g. acme-${id})`);
      const other = seen.get(id);
      if (other) throw new RuleDefinitionError(`${file}: rule id "${id}" is also defined in ${other}; ids must be unique`);
      seen.set(id, file);
      const warning = unknownMetaWarning(rule, file);
      if (warning !== null) warn(warning);
      noteRuleSource(rule, source);
      loaded.push({ rule, file });
    }
  }
  return loaded;
}
