import { catalogue, loadRules } from '../../policy/catalogue.js';
import { rulesJson, rulesMarkdown, rulesText } from '../output/rules-catalogue.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';

export const rulesCommand = defineCommand({
  name: 'rules',
  summary: 'list the rule catalogue: ids, severities, categories, what each checks, options, compliance controls',
  description: `
Prints every rule zonewarden ships, then those of --rules-dir (your own rules, docs/custom-rules.md):
its id (used in the config file's "rules" section and in waivers), default severity, category,
the compliant state it checks, why it matters, how to fix a failure, its options with their
defaults, and the controls of PCI DSS 4.0 and NIST SP 800-53 r5 it gives evidence for (where one
clearly applies; audit and report filter on them with --framework and --control). --format md
prints the table of docs/rules.md.`,
  options: {
    format: { type: 'string', default: 'text', choices: ['text', 'md', 'json'], help: 'output: text, a Markdown table, or JSON' },
    ...commonOptions('rulesDir', 'config'),
  },
  examples: ['zonewarden rules', 'zonewarden rules --format json', 'zonewarden rules --rules-dir ./my-rules'],
  async run(o, io) {
    await loadRules(configFrom(o, io), io.cwd, (line) => io.stderr(`${line}\n`));
    const rules = [...catalogue().values()];
    io.stdout(o.format === 'json' ? rulesJson(rules) : o.format === 'md' ? rulesMarkdown(rules) : rulesText(rules));
    return 0;
  },
});
