import { normaliseHostname } from './hostnames.js';

/**
 * CAA as RFC 8659 defines it, for the CAA rule: which records govern a host name (its own, else
 * its nearest ancestor's) and whether they let a CA issue for it.
 */

/** The issuer domains of the CAs the vendor orders packs from (`certificate_authority` values), per the CAs' own CAA documentation. */
export const CA_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  lets_encrypt: ['letsencrypt.org'],
  google: ['pki.goog'],
  ssl_com: ['ssl.com'],
  digicert: ['digicert.com'],
  sectigo: ['sectigo.com', 'comodoca.com'],
};

export interface CaaRecord {
  name: string;
  flags: number;
  tag: string;
  /** The issuer domain of an issue/issuewild value (before any `;` parameters), lower case; '' forbids every CA. */
  value: string;
}

/** A CAA record from the API's `content` (`0 issue "letsencrypt.org"`); null when it cannot be read. */
export function parseCaa(name: string, content: string): CaaRecord | null {
  const m = /^\s*(\d+)\s+([A-Za-z0-9]+)\s+"?(.*?)"?\s*$/.exec(content);
  if (!m) return null;
  const tag = m[2]!.toLowerCase();
  const raw = m[3]!;
  const value = tag === 'issue' || tag === 'issuewild' ? raw.split(';')[0]!.trim().toLowerCase() : raw;
  return { name: normaliseHostname(name), flags: Number(m[1]), tag, value };
}

/** RFC 8659, 3: the records of the host itself, else of its closest ancestor that has any (within the zone). */
export function relevantCaa(host: string, byName: ReadonlyMap<string, readonly CaaRecord[]>, zoneName: string): readonly CaaRecord[] {
  let name = normaliseHostname(host).replace(/^\*\./, '');
  const apex = normaliseHostname(zoneName);
  for (;;) {
    const set = byName.get(name);
    if (set?.length) return set;
    if (name === apex || !name.includes('.')) return [];
    name = name.slice(name.indexOf('.') + 1);
  }
}

/**
 * Whether the record set lets a CA with these issuer domains issue for the host: no issue
 * property allows every CA; a wildcard is governed by issuewild when the set has one (RFC 8659, 4.3).
 */
export function caaAllows(set: readonly CaaRecord[], issuers: readonly string[], wildcard: boolean): boolean {
  const wild = set.filter((r) => r.tag === 'issuewild');
  const governing = wildcard && wild.length ? wild : set.filter((r) => r.tag === 'issue');
  if (governing.length === 0) return true;
  return governing.some((r) => r.value !== '' && issuers.includes(r.value));
}
