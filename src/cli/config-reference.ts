import { COMMON_OPTIONS, FILE_SECTIONS, type OptionDef } from '../config/options.js';
import { loadCommands } from './commands/index.js';

/** The table of docs/configuration.md, from the option table and the commands that take each (`npm run docs` writes it). */
export async function configReference(): Promise<string> {
  const COMMANDS = await loadCommands();
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = (Object.values(COMMON_OPTIONS) as OptionDef[]).map((def) => {
    const flag = `\`--${def.flag}${def.type === 'boolean' ? '' : ` ${def.value ?? (def.type === 'list' ? 'VALUE' : 'N')}`}\``;
    const key = def.flagOnly ? '' : `\`${def.key}\``;
    const env = def.env ? `\`${def.env}\`` : '';
    const fallback = def.default === undefined ? '' : `\`${Array.isArray(def.default) ? def.default.join(',') : String(def.default)}\``;
    const commands = COMMANDS.filter((c) => Object.hasOwn(c.options, def.flag)).map((c) => c.name);
    const repeat = def.type === 'list' ? ' (repeatable, or comma-separated)' : '';
    return `| ${flag} | ${key} | ${env} | ${fallback} | ${commands.join(', ')} | ${cell(def.help)}${repeat} |`;
  });
  const sections = Object.entries(FILE_SECTIONS).map(([key, help]) => `| | \`${key}\` | | | config file only | ${cell(help)} |`);
  return ['| flag | config key | environment | default | commands | meaning |', '|---|---|---|---|---|---|', ...rows, ...sections].join('\n');
}
