import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The rule settings an audit of the generated organisation runs with. The generated dataset writes
 * its public addresses in the documentation ranges (RFC 5737, RFC 3849), as examples must: real
 * public addresses belong to somebody. dns-private-address reports those ranges by default (the
 * IANA registries mark them not globally reachable), so the benchmark names them as stand-ins,
 * and audits the organisation a user would have, with public addresses that are public.
 */
export const GENERATED_RULE_SETTINGS = {
  'dns-private-address': { options: { standIns: ['198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'] } },
} as const;

/** Writes the config file of an audit of the generated organisation beside its database; returns `--config` and its path. */
export function generatedConfigArgs(db: string): string[] {
  const path = join(dirname(db), 'generated-dataset.config.json');
  writeFileSync(path, `${JSON.stringify({ rules: GENERATED_RULE_SETTINGS }, null, 2)}\n`);
  return ['--config', path];
}
