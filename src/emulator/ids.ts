import { createHash } from 'node:crypto';

/**
 * Stable identifiers derived from a seed string, so that two loads of the same dataset (or two
 * emulators started with the same --seed) serve the same ids and scans can be compared.
 */
export function stableId(...parts: Array<string | number>): string {
  return createHash('md5').update(parts.join('\u0000')).digest('hex');
}

/** Certificate packs and certificates use UUIDs in the real API, not 32-hex ids. */
export function stableUuid(...parts: Array<string | number>): string {
  const h = stableId('uuid', ...parts);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Ids for objects created through the API at run time: unique, not derived from content. */
export function createIdFactory(seed: string): () => string {
  let n = 0;
  return () => stableId('created', seed, ++n);
}
