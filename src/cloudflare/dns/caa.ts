import { normaliseHostname } from './hostnames.js';

/** CAA as RFC 8659 defines it (issue parameters: RFC 8657): reading records, which govern a name, whether a CA may issue. */

/**
 * The issuer domains that authorize each CA a pack can come from (`certificate_authority`, vendor docs: certificate
 * packs). Sectigo was Comodo: its CAA documentation accepts comodoca.com as well.
 */
export const CA_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  lets_encrypt: ['letsencrypt.org'],
  google: ['pki.goog'],
  ssl_com: ['ssl.com'],
  digicert: ['digicert.com'],
  sectigo: ['sectigo.com', 'comodoca.com'],
};

/**
 * The CAs whose CAA records the vendor adds for its managed certificates once a zone has any (vendor docs, "Add CAA
 * records"). A managed pack from another CA (digicert) gets none: the zone's own CAA must name it.
 */
export const VENDOR_CAA_CAS: ReadonlySet<string> = new Set(['google', 'lets_encrypt', 'ssl_com', 'sectigo']);

/** The tags every CA understands (RFC 8659); others, registered ones too, only some CAs (Let's Encrypt: these alone). */
const UNIVERSAL_TAGS: ReadonlySet<string> = new Set(['issue', 'issuewild', 'iodef']);

/** RFC 8659 4.1: bit 0 of the flags octet (the most significant bit, 128) is the Issuer Critical Flag. */
const ISSUER_CRITICAL = 128;

interface CaaParameter {
  tag: string;
  value: string;
}

export interface CaaRecord {
  name: string;
  flags: number;
  /** Lower case: RFC 8659 4.1 matches tags case-insensitively. */
  tag: string;
  /** The property value as written, without its quotes. */
  value: string;
  /** RFC 8659 4.1: the Issuer Critical Flag is set. */
  critical: boolean;
  /** issue(wild): the issuer domain, lower case (RFC 4343); '' (no CA) for `;` or outside RFC 8659 4.2. Null for other tags. */
  issuer: string | null;
  /** issue and issuewild: the parameters after the issuer domain (RFC 8659 4.2, RFC 8657 3 and 4), as written. */
  parameters: CaaParameter[];
  /** False for an issue or issuewild value outside the grammar of RFC 8659 4.2. */
  wellFormed: boolean;
}

const LABEL = '[A-Za-z0-9](?:-*[A-Za-z0-9])*';
const ISSUER_DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const PARAMETER = new RegExp(`^(${LABEL})[ \\t]*=[ \\t]*([\\x21-\\x3a\\x3c-\\x7e]*)$`);

/**
 * RFC 8659 4.2: `issue-value = *WSP [issuer-domain-name *WSP] [";" *WSP [parameters *WSP]]`, LDH labels. A value
 * outside the grammar authorizes no CA; being an issue property, it still restricts.
 */
function parseIssueValue(value: string): { issuer: string; parameters: CaaParameter[]; wellFormed: boolean } {
  const semicolon = value.indexOf(';');
  const domain = (semicolon === -1 ? value : value.slice(0, semicolon)).replace(/^[ \t]+|[ \t]+$/g, '');
  const parameters: CaaParameter[] = [];
  let wellFormed = domain === '' || ISSUER_DOMAIN.test(domain);
  if (semicolon !== -1) {
    const rest = value.slice(semicolon + 1);
    // Empty parameters (`ca.example;`, `;;`) are outside the grammar but name nothing: tolerated.
    for (const part of rest.split(';').map((p) => p.replace(/^[ \t]+|[ \t]+$/g, '')).filter((p) => p !== '')) {
      const m = PARAMETER.exec(part);
      if (m) parameters.push({ tag: m[1]!, value: m[2]! });
      else wellFormed = false;
    }
  }
  return { issuer: wellFormed ? domain.toLowerCase() : '', parameters, wellFormed };
}

/** A <character-string> in presentation form (RFC 1035 5.1): quoted or not, with `\X` and `\DDD` escapes. */
function unquote(text: string): string | null {
  const quoted = text.startsWith('"');
  if (quoted && (text.length < 2 || !text.endsWith('"'))) return null;
  const body = quoted ? text.slice(1, -1) : text;
  if (!quoted && /\s/.test(body)) return null;
  return body.replace(/\\(\d{3}|.)/g, (_, c: string) => (c.length === 3 ? String.fromCharCode(Number(c)) : c));
}

/** A CAA record from its parts: flags 0-255 (RFC 8659 4.1: one octet), a tag of letters and digits, the value unquoted. */
function caaRecord(name: string, flags: number, rawTag: string, value: string): CaaRecord | null {
  if (!Number.isInteger(flags) || flags < 0 || flags > 255 || !/^[A-Za-z0-9]+$/.test(rawTag)) return null;
  const tag = rawTag.toLowerCase();
  const issue = tag === 'issue' || tag === 'issuewild' ? parseIssueValue(value) : null;
  return { name: normaliseHostname(name), flags, tag, value, critical: (flags & ISSUER_CRITICAL) !== 0, issuer: issue?.issuer ?? null, parameters: issue?.parameters ?? [], wellFormed: issue?.wellFormed ?? true };
}

/** A CAA record from the API's `content`, the presentation form `0 issue "letsencrypt.org"` (RFC 8659 4.1.1). */
export function parseCaa(name: string, content: string): CaaRecord | null {
  const m = /^\s*(\d{1,3})\s+([A-Za-z0-9]+)\s+(.*?)\s*$/.exec(content);
  if (!m) return null;
  const value = unquote(m[3]!);
  return value === null ? null : caaRecord(name, Number(m[1]), m[2]!, value);
}

/**
 * A CAA record from the API's `data {flags, tag, value}` (vendor docs: DNS records, CAA), the value not in
 * presentation form; flags a number, or digits ("128") as some answers write it.
 */
function parseCaaData(name: string, data: Readonly<Record<string, unknown>>): CaaRecord | null {
  const { flags, tag, value } = data;
  const octet = typeof flags === 'number' ? flags : typeof flags === 'string' && /^\d{1,3}$/.test(flags) ? Number(flags) : Number.NaN;
  if (typeof tag !== 'string' || typeof value !== 'string') return null;
  return caaRecord(name, octet, tag, value);
}

/** A DNS record as far as CAA needs it: its content when the API sent one, else its data. */
interface ServedCaa {
  type: string | null;
  name: string | null;
  content: string | null;
  data: Readonly<Record<string, unknown>> | null;
}

/** The CAA record a DNS record holds, read from its content, else (none served) from its data; null for another type or one that cannot be read. */
export function caaOf(record: ServedCaa): CaaRecord | null {
  if (record.type !== 'CAA' || record.name === null) return null;
  if (record.content !== null && record.content !== '') return parseCaa(record.name, record.content);
  return record.data ? parseCaaData(record.name, record.data) : null;
}

/** The record as the API holds it, for a message: its content, quoted, else its data: never a content it did not send. */
export function servedForm(record: ServedCaa): string {
  if (record.content !== null && record.content !== '') return `"${record.content}"`;
  return `data ${JSON.stringify(record.data ?? {})}`;
}

/** RFC 8659 4.1: a CA must not issue past a critical property whose tag it does not support (any but UNIVERSAL_TAGS). */
export function mayStopIssuance(record: CaaRecord): boolean {
  return record.critical && !UNIVERSAL_TAGS.has(record.tag);
}

/** RFC 8659, 3: the records of the host, else of its closest ancestor with any, up to the apex (above is another zone). */
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

/** RFC 8659 4.2, 4.3: the properties that decide issuance: a wildcard's issuewild ones if any, else issue ones. */
export function governingProperties(set: readonly CaaRecord[], wildcard: boolean): CaaRecord[] {
  const wild = wildcard ? set.filter((r) => r.tag === 'issuewild') : [];
  return wild.length ? wild : set.filter((r) => r.tag === 'issue');
}

/**
 * Whether the set lets a CA with these issuer domains issue for the name: no governing property allows every CA
 * (RFC 8659 4), else one must name a domain of the CA. Parameters (RFC 8657) are shown, not judged: which account or
 * method the CA will use is not in the snapshot.
 */
export function caaAllows(set: readonly CaaRecord[], issuers: readonly string[], wildcard: boolean): boolean {
  const governing = governingProperties(set, wildcard);
  if (governing.length === 0) return true;
  const wanted = issuers.map((d) => d.toLowerCase());
  return governing.some((r) => r.issuer !== null && r.issuer !== '' && wanted.includes(r.issuer));
}

/** A property as a person reads it: `letsencrypt.org (accounturi=https://..., validationmethods=dns-01)`; `no CA` for an empty or malformed issuer. */
export function describeProperty(record: CaaRecord): string {
  if (!record.wellFormed) return `no CA (malformed value "${record.value}")`;
  const issuer = record.issuer || 'no CA';
  return record.parameters.length ? `${issuer} (${record.parameters.map((p) => `${p.tag}=${p.value}`).join(', ')})` : issuer;
}
