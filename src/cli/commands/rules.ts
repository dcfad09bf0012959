import { catalogue } from '../../policy/catalogue.js';
import { rulesJson, rulesMarkdown, rulesText } from '../output/rules-catalogue.js';
import { defineCommand } from '../command.js';

export const rulesCommand = defineCommand({
  name: 'rules',
  summary: 'list the rule catalogue: ids, severities, categories, what each checks, options',
  description: `
Prints every rule zonewarden ships: its id (used in the config file's "rules" section and in
waivers), default severity, category, the compliant state it checks, why it matters, how to fix
a failure, and its options with their defaults. --format md prints the table of the README.`,
  options: {
    format: { type: 'string', default: 'text', choices: ['text', 'md', 'json'], help: 'output: text, a Markdown table, or JSON' },
  },
  examples: ['zonewarden rules', 'zonewarden rules --format json'],
  async run(o, io) {
    const rules = [...catalogue().values()];
    io.stdout(o.format === 'json' ? rulesJson(rules) : o.format === 'md' ? rulesMarkdown(rules) : rulesText(rules));
    return 0;
  },
});
