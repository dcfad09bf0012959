import { parseArgs } from 'node:util';
import { UsageError } from '../common/errors.js';
import { didYouMean } from '../common/did-you-mean.js';
import type { CredentialMapSource } from '../config/credentials.js';
import type { JobIO } from '../jobs/job-io.js';

/** Commands declare their options as data: parsing, validation and --help come from that one table, so they cannot disagree. */

interface OptionBase {
  help: string;
  /** Placeholder in the help, e.g. `N`, `FILE`. */
  value?: string;
  short?: string;
  /** Environment variable that also sets it, shown in --help. */
  env?: string;
  /** Default shown in --help when the default is applied elsewhere (the config loader). */
  defaultText?: string;
}

export type OptionSpec =
  | (OptionBase & { type: 'boolean' })
  | (OptionBase & { type: 'string'; default?: string; choices?: readonly string[] })
  | (OptionBase & { type: 'list' })
  | (OptionBase & { type: 'integer' | 'number'; default?: number; min?: number; max?: number });

export type OptionTable = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S extends { type: 'boolean' }
  ? boolean
  : S extends { type: 'list' }
    ? string[]
    : S extends { type: 'integer' | 'number'; default: number }
      ? number
      : S extends { type: 'integer' | 'number' }
        ? number | undefined
        : S extends { type: 'string'; default: string }
          ? string
          : string | undefined;

export type ParsedOptions<T extends OptionTable> = { [K in keyof T]: ValueOf<T[K]> };

/** What a command is given: a job's (JobIO), and what it needs to print no secret. */
export interface CommandIO extends JobIO {
  /** Called with the loaded config: the values of the variables its "credentials" names are secrets too from then on. */
  redactCredentialsOf?: (config: CredentialMapSource) => void;
}

export interface Command<T extends OptionTable = OptionTable> {
  name: string;
  summary: string;
  /** Paragraphs after the usage line of `--help`. */
  description: string;
  options: T;
  /** Positional arguments, all required. */
  args?: Array<{ name: string; help: string }>;
  examples?: string[];
  run(options: ParsedOptions<T>, io: CommandIO, args: string[]): Promise<number>;
}

export function defineCommand<T extends OptionTable>(command: Command<T>): Command<T> {
  return command;
}

export function parseOptions<T extends OptionTable>(command: Command<T>, argv: string[]): ParsedOptions<T> & { help: boolean; _: string[] } {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, spec] of Object.entries(command.options)) {
    config[name] = { type: spec.type === 'boolean' ? 'boolean' : 'string', ...(spec.type === 'list' ? { multiple: true } : {}), ...(spec.short ? { short: spec.short } : {}) };
  }
  let values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  let positionals: string[];
  const expected = command.args ?? [];
  try {
    ({ values, positionals } = parseArgs({ args: negativeValuesJoined(argv, command.options), options: config, strict: true, allowPositionals: expected.length > 0 }));
  } catch (err) {
    const parseError = err as Error & { code?: string };
    throw new UsageError(`${command.name}: ${describeParseError(parseError)}; see 'zonewarden ${command.name} --help'${optionSuggestion(parseError, Object.keys(config))}`);
  }
  const out: Record<string, unknown> = { help: values['help'] === true, _: positionals };
  if (!out['help'] && positionals.length !== expected.length) {
    const names = expected.map((a) => `<${a.name}>`).join(' ');
    const problem = positionals.length < expected.length ? `missing ${names}` : `unexpected argument ${positionals[expected.length]}`;
    throw new UsageError(`${command.name}: ${problem}; see 'zonewarden ${command.name} --help'`);
  }
  for (const [name, spec] of Object.entries(command.options)) {
    out[name] = convert(command.name, name, spec, values[name]);
  }
  return out as ParsedOptions<T> & { help: boolean; _: string[] };
}

/**
 * `--keep -3`: parseArgs reads "-3" as an option of its own ("--keep takes no value"). A number after an option that
 * takes one is its value, so that the range check can say what is wrong with it.
 */
function negativeValuesJoined(argv: string[], options: OptionTable): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const spec = arg.startsWith('--') ? options[arg.slice(2)] : undefined;
    if (spec && spec.type !== 'boolean' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** For an unknown long option, the known ones it is probably a typo of (`--bugdet` for `--budget`). */
function optionSuggestion(err: Error & { code?: string }, names: string[]): string {
  if (err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return '';
  const typed = /'--([^'\s=]+)/.exec(err.message)?.[1];
  return typed === undefined ? '' : didYouMean(typed, names, (name) => `--${name}`);
}

function describeParseError(err: Error & { code?: string }): string {
  const option = /'(-{1,2}[^'\s]+)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /argument missing/.test(err.message) ? `option ${option ?? ''} needs a value` : `option ${option ?? ''} takes no value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(err.message)?.[1] ?? ''}`.trim();
    default:
      return err.message.split('\n')[0]!;
  }
}

function convert(command: string, name: string, spec: OptionSpec, raw: unknown): unknown {
  const flag = `--${name}`;
  switch (spec.type) {
    case 'boolean':
      return raw === true;
    case 'list':
      return (raw as string[] | undefined) ?? [];
    case 'string': {
      const value = (raw as string | undefined) ?? spec.default;
      if (value !== undefined && spec.choices && !spec.choices.includes(value)) {
        throw new UsageError(`${command}: ${flag} must be one of ${spec.choices.join(', ')}, got "${value}"`);
      }
      return value;
    }
    case 'integer':
    case 'number': {
      if (raw === undefined) return spec.default;
      const text = String(raw).trim();
      const n = Number(text);
      const kind = spec.type === 'integer' ? 'a whole number' : 'a number';
      if (text === '' || !Number.isFinite(n) || (spec.type === 'integer' && !Number.isInteger(n))) {
        throw new UsageError(`${command}: ${flag} must be ${kind}, got "${text}"`);
      }
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        const range =
          spec.max === undefined ? `of at least ${spec.min}` : spec.min === undefined ? `of at most ${spec.max}` : `from ${spec.min} to ${spec.max}`;
        throw new UsageError(`${command}: ${flag} must be ${kind} ${range}, got ${text}`);
      }
      return n;
    }
  }
}

export function commandHelp(command: Command): string {
  const rows: Array<[string, string]> = Object.entries(command.options).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '';
    const value = spec.type === 'boolean' ? '' : ` ${spec.value ?? (spec.type === 'integer' || spec.type === 'number' ? 'N' : 'VALUE')}`;
    const repeat = spec.type === 'list' ? ' (repeatable)' : '';
    const shownDefault = 'default' in spec && spec.default !== undefined ? String(spec.default) : spec.defaultText;
    const dflt = [shownDefault !== undefined ? `default: ${shownDefault}` : '', spec.env ? `env ${spec.env}` : ''].filter(Boolean).join('; ');
    const choices = spec.type === 'string' && spec.choices ? ` [${spec.choices.join('|')}]` : '';
    return [`${short}--${name}${value}`, `${spec.help}${choices}${repeat}${dflt ? ` (${dflt})` : ''}`];
  });
  rows.push(['-h, --help', 'show this help']);
  const width = Math.min(32, Math.max(...rows.map(([l]) => l.length)) + 2);
  const usageArgs = (command.args ?? []).map((a) => ` <${a.name}>`).join('');
  const lines = [
    `Usage: zonewarden ${command.name}${usageArgs} [options]`,
    '',
    command.description.trim(),
    '',
    ...(command.args?.length ? ['Arguments:', ...command.args.map((a) => `  <${a.name}>  ${a.help}`), ''] : []),
    'Options:',
    ...rows.map(([l, r]) => (l.length + 2 > width ? `  ${l}\n  ${' '.repeat(width)}${r}` : `  ${l.padEnd(width)}${r}`)),
  ];
  if (command.examples?.length) lines.push('', 'Examples:', ...command.examples.map((e) => `  ${e}`));
  return `${lines.join('\n')}\n`;
}
