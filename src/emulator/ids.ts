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

/** murmur3's finaliser: a bijection on 32-bit integers that scatters nearby inputs. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/** A 32-hex id of item `index` of `group`, unique per pair (two words are bijections) and cheap: one per generated record served. */
export function fastStableId(seed: number, group: number, index: number): string {
  const s = mix32(seed ^ 0x5bd1e995);
  return hex8(mix32(group ^ s)) + hex8(mix32(index ^ mix32(s + 1))) + hex8(mix32(group * 31 + index + s)) + hex8(mix32(s ^ index));
}
