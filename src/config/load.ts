import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { didYouMean } from '../common/did-you-mean.js';
import { COMMON_OPTIONS, CREDENTIAL_ENV, DEFAULT_CONFIG_FILE, FILE_SECTIONS, type CommonKey, type OptionDef } from './options.js';
import { CREDENTIALS_SECTION, isObject, parseCredentialMap, type CredentialMap } from './credential-map.js';
import { ConfigError } from './config-error.js';

// Callers have always found the error here, beside the loader that throws most of them.
export { ConfigError };

type ValueOf<D extends OptionDef> = D['type'] extends 'boolean'
  ? boolean
  : D['type'] extends 'list'
    ? readonly string[]
    : D['type'] extends 'integer' | 'number'
      ? number
      : D extends { default: string }
        ? string
        : string | undefined;

export type Config = Readonly<{ [K in CommonKey]: ValueOf<(typeof COMMON_OPTIONS)[K]> }> & {
  /** The config file that was read, if any. */
  readonly configFile: string | null;
  /** The file's `rules` section: settings by rule id, checked by the policy module. */
  readonly rules: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The file's `drift` section, checked by the drift module; undefined when absent. */
  readonly drift: Readonly<Record<string, unknown>> | undefined;
  /** The file's `notifications` section, checked by the notifications module; undefined when absent. */
  readonly notifications: Readonly<Record<string, unknown>> | undefined;
  /** The file's `credentials` section: accounts mapped to the variables holding their credential; empty when absent. */
  readonly credentials: CredentialMap;
};

export interface LoadInput {
  /** Values from the command line; undefined (or an empty list) where a flag was not given. */
  flags: Partial<Record<CommonKey, unknown>>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Keys that look like credentials: refused in config files, so no secret is ever written to one. */
const CREDENTIAL_KEYS = /^(api[-_]?)?(token|key|email|secret|password)$/i;

/** Defaults < config file < environment < flags; validated, then frozen. */
export function loadConfig(input: LoadInput): Config {
  const values: Record<string, unknown> = {};
  for (const def of Object.values(COMMON_OPTIONS) as OptionDef[]) {
    if (def.default !== undefined) values[def.key] = def.default;
    else if (def.type === 'list') values[def.key] = [];
  }

  values['rules'] = Object.freeze({});
  values[CREDENTIALS_SECTION] = Object.freeze([]);
  const configFile = findConfigFile(input);
  if (configFile) {
    for (const [key, raw] of Object.entries(readConfigFile(configFile))) {
      if (Object.hasOwn(FILE_SECTIONS, key)) {
        const source = `config file ${configFile}: ${key}`;
        values[key] = key === CREDENTIALS_SECTION ? parseCredentialMap(raw, source) : section(raw, source, key === 'rules');
        continue;
      }
      const def = optionDef(key);
      if (CREDENTIAL_KEYS.test(key)) {
        throw new ConfigError(
          `config file ${configFile}: "${key}" looks like a credential; credentials come from the environment only (${CREDENTIAL_ENV.token}, or ${CREDENTIAL_ENV.email} with ${CREDENTIAL_ENV.key}): remove it`,
        );
      }
      if (!def || def.flagOnly) {
        const known = [...(Object.values(COMMON_OPTIONS) as OptionDef[]).filter((d) => !d.flagOnly).map((d) => d.key), ...Object.keys(FILE_SECTIONS)];
        throw new ConfigError(`config file ${configFile}: unknown key "${key}"; known keys: ${known.join(', ')}${didYouMean(key, known)}`);
      }
      values[key] = coerce(def, raw, `config file ${configFile}: ${key}`);
    }
  }

  for (const def of Object.values(COMMON_OPTIONS) as OptionDef[]) {
    const raw = def.env ? input.env[def.env] : undefined;
    if (raw !== undefined && raw !== '') values[def.key] = coerce(def, raw, `environment ${def.env}`);
  }

  for (const [key, raw] of Object.entries(input.flags)) {
    const def = optionDef(key);
    if (!def || raw === undefined || (Array.isArray(raw) && raw.length === 0)) continue;
    values[key] = coerce(def, raw, `--${def.flag}`);
  }

  values['configFile'] = configFile;
  return Object.freeze(values) as Config;
}

/** A section is an object (the rules section an object of objects, one per rule); deeper checks belong to its owner. */
function section(raw: unknown, source: string, ofObjects: boolean): Readonly<Record<string, unknown>> {
  if (!isObject(raw)) throw new ConfigError(`${source}: expected an object`);
  for (const [name, entry] of Object.entries(raw)) {
    if (ofObjects && !isObject(entry)) throw new ConfigError(`${source}.${name}: expected an object`);
  }
  return Object.freeze(structuredClone(raw));
}

/** Own keys only: a config file key such as "toString" must be unknown, not Object.prototype's. */
function optionDef(key: string): OptionDef | undefined {
  return Object.hasOwn(COMMON_OPTIONS, key) ? (COMMON_OPTIONS as Record<string, OptionDef>)[key] : undefined;
}

function findConfigFile(input: LoadInput): string | null {
  const given = input.flags.config;
  if (typeof given === 'string' && given !== '') {
    const path = resolve(input.cwd, given);
    if (!existsSync(path)) throw new ConfigError(`--config ${given}: no such file`);
    return path;
  }
  const fallback = resolve(input.cwd, DEFAULT_CONFIG_FILE);
  return existsSync(fallback) ? fallback : null;
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`config file ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${path}: not valid JSON (${(err as Error).message})`);
  }
  if (!isObject(parsed)) throw new ConfigError(`config file ${path}: expected a JSON object of options`);
  return parsed;
}

/** Converts and checks one value; strings from the environment are parsed by the option's type. */
export function coerce(def: OptionDef, raw: unknown, source: string): unknown {
  const fail = (expected: string): never => {
    throw new ConfigError(`${source}: expected ${expected}, got ${describe(raw)}`);
  };
  switch (def.type) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      return fail('true or false');
    case 'integer':
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      const kind = def.type === 'integer' ? 'a whole number' : 'a number';
      const range = def.min !== undefined || def.max !== undefined ? ` from ${def.min ?? '-∞'} to ${def.max ?? '∞'}` : '';
      if (!Number.isFinite(n) || (def.type === 'integer' && !Number.isInteger(n))) return fail(`${kind}${range}`);
      if ((def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) return fail(`${kind}${range}`);
      return n;
    }
    case 'list': {
      // "a,b" is two items wherever it comes from (flag, repeated flag, environment or file): no id or zone name holds a comma.
      const split = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);
      // An empty value would otherwise turn a filter into no filter at all ("--zone ," is everything).
      const empty = () => {
        throw new ConfigError(`${source}: a value is empty; give one or more, separated by commas or the option repeated (e.g. "a.example,b.example")`);
      };
      if (Array.isArray(raw) && raw.some((s) => typeof s !== 'string')) return fail('a list of strings');
      if (Array.isArray(raw) && raw.some((s) => (s as string).trim() === '')) return empty();
      const list = typeof raw === 'string' ? split(raw) : Array.isArray(raw) ? (raw as string[]).flatMap(split) : raw;
      if (!Array.isArray(list)) return fail('a list of strings');
      if (list.length === 0 && Array.isArray(raw) && raw.length > 0) return empty();
      return Object.freeze([...(list as string[])]);
    }
    case 'string': {
      if (typeof raw !== 'string' || raw === '') return fail('a non-empty string');
      const problem = def.choices && !def.choices.includes(raw) ? `one of ${def.choices.join(', ')}` : def.check?.(raw);
      return problem ? fail(problem) : raw;
    }
  }
}

function describe(raw: unknown): string {
  if (typeof raw === 'string') return JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);
  if (raw === null || typeof raw !== 'object') return String(raw);
  return Array.isArray(raw) ? 'an array' : 'an object';
}
