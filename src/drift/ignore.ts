import { ZonewardenError } from '../common/errors.js';
import { RESOURCE_TYPES } from './resources.js';

/**
 * Fields left out of configuration drift because they move without anyone changing the configuration.
 * A pattern is `<resource type>.<field path>`: `*` is any type or any one field name, array elements
 * are transparent, and a pattern covers everything beneath its field. The config file's
 * `drift.ignore` replaces this list; `zonewarden diff --format json` prints the list in use.
 */
export const DEFAULT_IGNORED_FIELDS: readonly string[] = [
  // Stamped by every edit, and by the service's own maintenance: the edited fields are shown instead.
  '*.modified_on',
  // Rewritten with every write of the ruleset, whichever rule changed.
  'ruleset_entrypoint.version',
  'ruleset_entrypoint.last_updated',
  'ruleset_entrypoint.rules.version',
  'ruleset_entrypoint.rules.last_updated',
  'custom_rules_entrypoint.version',
  'custom_rules_entrypoint.last_updated',
  'custom_rules_entrypoint.rules.version',
  'custom_rules_entrypoint.rules.last_updated',
  // Development Mode's countdown in its setting's answer (seconds left): it moves on every read;
  // its value says on or off. (The zone list's development_mode is compared as on or off: derived.ts.)
  'zone_setting.time_remaining',
  // Counters and flags the service keeps about a zone or record (quotas, detections, provenance).
  'zone.meta',
  'dns_record.meta',
];

export class DriftConfigError extends ZonewardenError {
  constructor(message: string) {
    super('ZW_CONFIG', message);
  }
}

export interface IgnoreList {
  readonly patterns: readonly string[];
  /** Whether a field of a resource type is ignored; `path` holds field names only (no array keys). */
  ignores(type: string, path: readonly string[]): boolean;
}

const PATTERN = /^(\*|[a-z_]+)(\.(\*|[A-Za-z0-9_-]+))+$/;

export function ignoreList(patterns: readonly string[]): IgnoreList {
  const split = patterns.map((p) => p.split('.'));
  return {
    patterns,
    ignores(type, path) {
      const matches = (fields: string[]) => fields.length <= path.length && fields.every((f, i) => f === '*' || f === path[i]);
      return split.some(([t, ...fields]) => (t === '*' || t === type) && matches(fields));
    },
  };
}

/** The config file's `drift` section: `{"ignore": ["<type>.<field>", ...]}`. */
export function ignoreListFrom(section: Readonly<Record<string, unknown>> | undefined, source = 'config file: drift'): IgnoreList {
  if (section === undefined) return ignoreList(DEFAULT_IGNORED_FIELDS);
  for (const key of Object.keys(section)) {
    if (key !== 'ignore') throw new DriftConfigError(`${source}: unknown key ${JSON.stringify(key)}; the drift section takes "ignore" (a list of <resource type>.<field> patterns)`);
  }
  const value = section['ignore'];
  if (value === undefined) return ignoreList(DEFAULT_IGNORED_FIELDS);
  if (!Array.isArray(value)) throw new DriftConfigError(`${source}.ignore: expected a list of <resource type>.<field> patterns, e.g. ["*.modified_on"]`);
  value.forEach((p, i) => {
    if (typeof p !== 'string' || !PATTERN.test(p)) {
      throw new DriftConfigError(
        `${source}.ignore[${i}]: ${JSON.stringify(p)} is not a <resource type>.<field> pattern; write e.g. "dns_record.comment" or "*.modified_on"`,
      );
    }
    const type = p.slice(0, p.indexOf('.'));
    if (type !== '*' && !RESOURCE_TYPES.includes(type)) {
      throw new DriftConfigError(`${source}.ignore[${i}]: unknown resource type "${type}"; use * or one of ${RESOURCE_TYPES.join(', ')}`);
    }
  });
  return ignoreList(value as string[]);
}
