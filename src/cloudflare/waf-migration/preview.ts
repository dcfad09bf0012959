import type { WafPackage } from '../legacy-waf/models.js';
import { isNativeToNewManagedRules, type MigrationStatus } from './models.js';

/**
 * What migrating to the new managed rules gives a zone (the spec's "Migration mapping rules") and the limits past
 * which it needs the vendor's support (spec "Limits"): the rules and the write commands share it, so they agree.
 */

interface MappedSensitivity {
  paranoiaLevel: 1 | 2;
  scoreThreshold: { name: 'High' | 'Medium'; minScore: number };
}

/** The previous OWASP sensitivity -> paranoia level and score threshold of the new core rule set. */
export const SENSITIVITY_MAPPING = {
  high: { paranoiaLevel: 2, scoreThreshold: { name: 'Medium', minScore: 40 } },
  medium: { paranoiaLevel: 1, scoreThreshold: { name: 'High', minScore: 25 } },
  low: { paranoiaLevel: 1, scoreThreshold: { name: 'Medium', minScore: 40 } },
  default: { paranoiaLevel: 2, scoreThreshold: { name: 'Medium', minScore: 40 } },
} as const satisfies Record<string, MappedSensitivity>;

/**
 * The table's row of a sensitivity: Default for a missing or unlisted one. `off` has none: the migration deploys the
 * package disabled (vendor migration guide), so the caller tests `owaspDisabled` first.
 */
export function sensitivityRow(sensitivity: string | null): keyof typeof SENSITIVITY_MAPPING {
  const key = sensitivity?.toLowerCase();
  return key === 'high' || key === 'medium' || key === 'low' ? key : 'default';
}

/** Sensitivity `off` switches the whole OWASP package off; the migration carries that as a disabled rule. */
export const owaspDisabled = (sensitivity: string | null): boolean => sensitivity?.toLowerCase() === 'off';

export const paranoiaLabel = (m: MappedSensitivity): string => `PL${m.paranoiaLevel}`;
export const thresholdLabel = (m: MappedSensitivity): string => `${m.scoreThreshold.name} (${m.scoreThreshold.minScore} or higher)`;

/** The action carried over from the previous core rule set: one to one, except Simulate becomes Log. */
export function mapAction(actionMode: string | null): string | null {
  if (actionMode === null) return null;
  return actionMode.toLowerCase() === 'simulate' ? 'log' : actionMode.toLowerCase();
}

/** The OWASP core rule set among a zone's previous managed-rule packages: the one that scores anomalies. */
export function owaspPackage(packages: readonly WafPackage[]): WafPackage | undefined {
  return packages.find((p) => p.detectionMode === 'anomaly');
}

/** Past these the migration fails and needs the vendor's support (spec "Errors", rule 7). */
export const MIGRATION_LIMITS = { firewallRules: 200, expressionBytes: 4096 } as const;

/** An expression's size as the migration's 4 KB limit counts it: bytes of UTF-8, not characters. */
export function expressionBytes(expression: string): number {
  return Buffer.byteLength(expression, 'utf8');
}

/** "a, b, c and 4 more": the first few of a list for a message (the finding's data keeps them all). */
export function firstFew(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * Where a zone stands. The status endpoint has no published schema; besides start, validation and
 * complete, `default` is seen in the wild on zones that have not begun, so it means start everywhere.
 */
export type MigrationStage = 'start' | 'validation' | 'complete' | 'unknown';

export function migrationStage(state: string | null): MigrationStage {
  if (state === 'start' || state === 'default') return 'start';
  if (state === 'validation' || state === 'complete') return state;
  return 'unknown';
}

/** Where a zone stands in the migration: its status, its stage, and whether it runs the new managed rules only. */
export type Migration = MigrationStatus & { stage: MigrationStage; migrated: boolean; native: boolean };

/** `migrated` once the zone runs the new managed rules only (the status says; the legacy endpoints are gone); native: from birth. */
export function migrationOf(status: MigrationStatus): Migration {
  const native = isNativeToNewManagedRules(status);
  const stage = native ? 'complete' : migrationStage(status.state);
  return { ...status, stage, migrated: stage === 'complete', native };
}
