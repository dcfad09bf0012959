import { shorten } from '../common/printable.js';
import { hostsOf, partitionsWhere, specOf, type PartitionKind } from '../cloudflare/reads.js';
import type { Partition } from '../snapshot/tables.js';

/**
 * The kinds of resource configuration drift compares: the table, the partition whose coverage decides
 * whether it can be compared, and how to name one. Certificates are stored inside their pack but drift
 * on their own: a renewal replaces one, and "certificate X replaced by Y" reads better than a changed array.
 */
export interface ResourceKind {
  type: string;
  /** What a person calls it, for text and Markdown. */
  label: string;
  table: string;
  scope: PartitionKind;
  partition: Partition;
  name(item: Record<string, unknown>): string | null;
}

/** Every partition the registry gives a drift identity (src/cloudflare/reads.ts), in its order. */
export const RESOURCE_KINDS: readonly ResourceKind[] = partitionsWhere((s) => s.drift !== undefined).map((partition) => {
  const spec = specOf(partition);
  const { type, label, name } = spec.drift!;
  return { type, label, table: spec.storage!.table, scope: spec.kind, partition, name: (i) => name?.(i, shorten) ?? null };
});

/** Certificates drift as their own resources, inside the certificate pack partition. */
export const CERTIFICATE_KIND: ResourceKind = {
  type: 'certificate',
  label: 'certificate',
  table: 'certificate_packs',
  scope: 'zone',
  partition: 'certificate_packs',
  name: (i) => hostsOf(i, shorten),
};

export const RESOURCE_TYPES: readonly string[] = [...RESOURCE_KINDS.map((k) => k.type), CERTIFICATE_KIND.type];

export function kindOf(type: string): ResourceKind | undefined {
  return type === CERTIFICATE_KIND.type ? CERTIFICATE_KIND : RESOURCE_KINDS.find((k) => k.type === type);
}

/** The kind stored by a partition endpoint. */
export const kindOfPartition = (partition: Partition): ResourceKind | undefined => RESOURCE_KINDS.find((k) => k.partition === partition);
