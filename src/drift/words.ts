import { kindOf, kindOfPartition } from './resources.js';
import type { DriftResult, FindingChangeKind, ResourceChange } from './result.js';
import type { FieldChange } from './fields.js';
import { shorten } from '../common/printable.js';
import type { Partition } from '../snapshot/tables.js';

/** Drift in words, shared by the diff command's text and Markdown and by the reports: labels, counts and values. */

export const FINDING_LABEL: Record<FindingChangeKind, string> = {
  new: 'new',
  fixed: 'fixed',
  'severity-changed': 'severity changed',
  'newly-waived': 'newly waived',
  unwaived: 'no longer waived',
  'newly-unknown': 'newly unknown',
  'known-again': 'known again',
};

export const label = (type: string): string => kindOf(type)?.label ?? type;

/** What a partition holds, by its resource's label where it has one. */
export const partitionLabel = (endpoint: string): string => kindOfPartition(endpoint as Partition)?.label ?? endpoint;

/** The configuration drift's counts by resource type, by label (`text`: as a format writes it), sorted. */
export function configurationRows(d: DriftResult, text: (s: string) => string = (s) => s) {
  return Object.entries(d.configuration.counts)
    .map(([type, c]) => ({ type: text(label(type)), ...c }))
    .sort((a, b) => a.type.localeCompare(b.type));
}

/** Said wherever a drift between scans of different scopes is shown. */
export const SCOPES_DIFFER = 'The two scans cover different scopes: only what both covered is compared.';

export function scanLine(scan: DriftResult['from']): string {
  const scope = [...scan.scope.accounts.map((a) => `account ${a}`), ...scan.scope.zones.map((z) => `zone ${z}`)];
  const trial = scan.audit.trial === null ? '' : `; trial audit ${scan.audit.id}: ${scan.audit.trial}`;
  return `scan ${scan.id} (${scan.status}, ${scan.startedAt}${scope.length ? `, only ${scope.join(', ')}` : ''}${trial})`;
}

export function findingSummary(d: DriftResult): string {
  const c = d.findings.counts;
  const moved = (Object.keys(FINDING_LABEL) as FindingChangeKind[]).filter((k) => c[k] > 0).map((k) => `${c[k]} ${FINDING_LABEL[k]}`);
  const steady = [`${c['still-failing']} still failing`, `${c['still-waived']} still waived`, `${c['still-unknown']} still unknown`];
  return `${moved.length ? moved.join(', ') : 'no change'}; ${steady.join(', ')}`;
}

export function configurationSummary(d: DriftResult): string {
  const totals = { added: 0, removed: 0, changed: 0, unknown: 0 };
  for (const c of Object.values(d.configuration.counts)) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += c[k];
  const parts = (Object.keys(totals) as Array<keyof typeof totals>).filter((k) => totals[k] > 0).map((k) => `${totals[k]} ${k === 'unknown' ? 'not compared (unread)' : k}`);
  return parts.length ? parts.join(', ') : 'no change';
}

/** A field's value for a person: JSON, shortened; an absent field says so. */
export const valueText = (value: unknown, max = 80): string => (value === undefined ? '(absent)' : shorten(JSON.stringify(value), max));

export const fieldText = (f: FieldChange): string => `${f.field}: ${valueText(f.before)} -> ${valueText(f.after)}`;

export const resourceTitle = (type: string, name: string | null, id?: string): string =>
  `${label(type)}${name ? ` "${shorten(name, 80)}"` : ''}${id ? ` (${shorten(id, 40)})` : ''}`;

export function contentsText(contents: Record<string, number> | undefined): string {
  const parts = Object.entries(contents ?? {}).map(([type, n]) => `${n} ${label(type)}${n === 1 ? '' : 's'}`);
  return parts.length ? ` with ${parts.join(', ')}` : '';
}

export const SIGN: Record<ResourceChange['change'], string> = { added: '+', removed: '-', changed: '~' };
