import { createPublicKey, type KeyObject } from 'node:crypto';
import { normaliseHostname } from './hostnames.js';
import type { DnsRecordFields } from './record.js';

/**
 * The mail-authentication records of a zone (SPF, RFC 7208; DMARC, RFC 7489; DKIM keys, RFC 6376; MX and null MX,
 * RFC 7505), read from its DNS records for the email-* rules in one pass.
 */

/**
 * The text of a TXT record as a receiver sees it. The API gives quoted character strings (vendor API reference, DNS
 * records: "quoted character strings (RFC 1035), each up to 255 bytes; longer strings are split"), older records come
 * unquoted (one string, as written). RFC 7208 3.3 (RFC 7489 6.1, RFC 6376 3.6.2.2): strings are joined without spaces.
 */
export function joinTxt(content: string): string {
  const text = content.trim();
  if (!text.startsWith('"')) return text;
  // RFC 1035 5.1: a string is quoted (an unclosed one runs to the end) or a run without blanks; \X is X, \DDD that octet.
  const pieces = text.matchAll(/"((?:[^"\\]|\\[\s\S]?)*)"?|((?:[^ \t\\]|\\[\s\S]?)+)/g);
  const unescape = (piece: string) => piece.replace(/\\(\d{3}|[\s\S])/g, (_, c: string) => (c.length === 3 ? String.fromCharCode(Number(c)) : c));
  return [...pieces].map((m) => unescape(m[1] ?? m[2]!)).join('');
}

export interface Tag {
  /** As written: DKIM tag names are case-sensitive (RFC 6376 3.2), DMARC's are not (RFC 7489 6.4, ABNF). */
  name: string;
  value: string;
}

export interface TagList {
  tags: Tag[];
  /** Pieces without `=` (RFC 6376 3.2: tag-spec is name "=" value). */
  malformed: string[];
}

const trimWsp = (s: string): string => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

/** RFC 6376 3.2 (which RFC 7489 6.3 follows): `tag=value` pieces separated by `;`, white space around each part ignored. */
export function parseTagList(text: string): TagList {
  const tags: Tag[] = [];
  const malformed: string[] = [];
  for (const piece of text.split(';')) {
    const spec = trimWsp(piece);
    if (spec === '') continue;
    const eq = spec.indexOf('=');
    if (eq <= 0) malformed.push(spec);
    else tags.push({ name: trimWsp(spec.slice(0, eq)), value: trimWsp(spec.slice(eq + 1)) });
  }
  return { tags, malformed };
}

/** Tag names given more than once (RFC 6376 3.2: the whole tag list is then invalid). */
function duplicated(tags: readonly Tag[], caseless: boolean): string[] {
  const names = tags.map((t) => (caseless ? t.name.toLowerCase() : t.name));
  return [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
}

/** RFC 7208 4.5: an SPF record begins with exactly `v=spf1`, followed by a space or the end (ABNF: case-insensitive). */
export function isSpf(text: string): boolean {
  return text.length >= 6 && text.slice(0, 6).toLowerCase() === 'v=spf1' && (text.length === 6 || text[6] === ' ');
}

export type SpfQualifier = '+' | '-' | '~' | '?';

export type SpfTerm =
  | { kind: 'mechanism'; qualifier: SpfQualifier; name: string; value: string | null; text: string }
  | { kind: 'modifier'; name: string; value: string; text: string };

export interface SpfPolicy {
  terms: SpfTerm[];
  /** Why receivers would answer permerror (RFC 7208 4.6, 5, 6); empty when none. */
  errors: string[];
}

/** RFC 7208 5: the mechanisms. */
const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
/** RFC 7208 5.2, 5.7, 5.6: these need a value after `:`. */
const NEEDS_VALUE = new Set(['include', 'exists', 'ip4', 'ip6']);
/** RFC 7208 4.6.4: the terms that query DNS and count toward the limit of 10. */
export const SPF_LOOKUP_TERMS: ReadonlySet<string> = new Set(['include', 'a', 'mx', 'ptr', 'exists', 'redirect']);
/** RFC 7208 6: `name = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." )` then `=`. */
const MODIFIER = /^([A-Za-z][A-Za-z0-9._-]*)=(.*)$/s;

/** RFC 7208 4.6.1: the terms after the version, separated by spaces; each a directive or a modifier. */
export function parseSpf(text: string): SpfPolicy {
  const terms: SpfTerm[] = [];
  const errors: string[] = [];
  const modifiers = new Set<string>();
  for (const raw of text.slice(6).split(' ')) {
    if (raw === '') continue;
    const modifier = MODIFIER.exec(raw);
    if (modifier) {
      const name = modifier[1]!.toLowerCase();
      // RFC 7208 6: redirect and exp may each appear once; unknown modifiers are ignored.
      if ((name === 'redirect' || name === 'exp') && modifiers.has(name)) errors.push(`the ${name} modifier is given more than once`);
      if ((name === 'redirect' || name === 'exp') && modifier[2] === '') errors.push(`the ${name} modifier names no domain`);
      modifiers.add(name);
      terms.push({ kind: 'modifier', name, value: modifier[2]!, text: raw });
      continue;
    }
    const first = raw[0]!;
    const qualified = first === '+' || first === '-' || first === '~' || first === '?';
    const body = qualified ? raw.slice(1) : raw;
    let end = 0;
    while (end < body.length && body[end] !== ':' && body[end] !== '/') end++;
    const name = body.slice(0, end).toLowerCase();
    const value = end < body.length ? body.slice(end + (body[end] === ':' ? 1 : 0)) : null;
    if (!MECHANISMS.has(name)) errors.push(`"${raw}" is not an SPF mechanism or modifier`);
    else if (name === 'all' && value !== null) errors.push(`"${raw}": all takes no value`);
    else if (NEEDS_VALUE.has(name) && (value === null || value === '' || body[end] !== ':')) errors.push(`"${raw}": ${name} needs a value after ":"`);
    // RFC 7208 4.6.2: a directive without a qualifier is "+" (pass).
    terms.push({ kind: 'mechanism', qualifier: qualified ? (first as SpfQualifier) : '+', name, value, text: raw });
  }
  return { terms, errors };
}

/** The `all` that ends evaluation (RFC 7208 5.1: mechanisms after it are never tested), or null. */
export function spfAll(policy: SpfPolicy): Extract<SpfTerm, { kind: 'mechanism' }> | null {
  return policy.terms.find((t): t is Extract<SpfTerm, { kind: 'mechanism' }> => t.kind === 'mechanism' && t.name === 'all') ?? null;
}

/** The redirect that applies: RFC 7208 6.1, ignored when the record has an `all` mechanism. */
export function spfRedirect(policy: SpfPolicy): string | null {
  return spfAll(policy) ? null : (policy.terms.find((t) => t.kind === 'modifier' && t.name === 'redirect')?.value ?? null);
}

export interface SpfLookups {
  /** Terms of the record itself that query DNS (RFC 7208 4.6.4), among those evaluated. */
  count: number;
  /** Of those, include mechanisms and the redirect: each brings lookups of its own, not counted here. */
  delegations: string[];
}

/**
 * The DNS-querying terms evaluation can reach: those before the `all` (RFC 7208 5.1) and the redirect when it
 * applies (6.1). What included and redirected records add is not counted: the scan makes no such DNS queries.
 */
export function spfLookups(policy: SpfPolicy): SpfLookups {
  const all = spfAll(policy);
  const reached = all ? policy.terms.slice(0, policy.terms.indexOf(all)) : policy.terms;
  const lookups = reached.filter((t) => t.kind === 'mechanism' && SPF_LOOKUP_TERMS.has(t.name));
  const redirect = spfRedirect(policy);
  const delegations = [...lookups.filter((t) => t.name === 'include').map((t) => t.text), ...(redirect === null ? [] : [`redirect=${redirect}`])];
  return { count: lookups.length + (redirect === null ? 0 : 1), delegations };
}

/**
 * Whether the record lets any host send as the domain: a mechanism other than a failing one, a
 * redirect that applies, or `+all`. `v=spf1 -all` (and `~all`, `?all`, or no terms) authorizes no one.
 */
export function spfAuthorizesSenders(policy: SpfPolicy): boolean {
  for (const t of policy.terms) {
    if (t.kind === 'modifier') continue;
    if (t.name === 'all') return t.qualifier === '+';
    if (t.qualifier !== '-') return true;
  }
  return spfRedirect(policy) !== null;
}

export type DmarcPolicy = 'none' | 'quarantine' | 'reject';
const POLICIES: ReadonlySet<string> = new Set(['none', 'quarantine', 'reject']);

export interface DmarcRecord {
  /** RFC 7489 6.3: `v=DMARC1` is the first tag, the value exactly DMARC1. Otherwise receivers discard the record (6.6.3). */
  versionFirst: boolean;
  /** The record names DMARC1 in a v tag at all (possibly not first, or in another case). */
  namesDmarc: boolean;
  /** Why a record that names DMARC1 is discarded all the same; null when the version is right. */
  versionProblem: string | null;
  /** Null when missing or not one of none, quarantine, reject. */
  p: DmarcPolicy | null;
  /** The p tag as written (null when absent). */
  pRaw: string | null;
  /** The sp tag: null when absent; `invalid` when not a policy. */
  sp: DmarcPolicy | 'invalid' | null;
  /** pct (RFC 7489 6.3: 0 to 100, default 100); null when not an integer in that range. */
  pct: number | null;
  /** The pct tag as written, or null. */
  pctRaw: string | null;
  /** rua holds at least one URI (RFC 7489 6.6.3: then an invalid p is read as p=none). */
  hasRua: boolean;
  /** Tag names given twice, lower case (RFC 6376 3.2, which DMARC's tag list follows). */
  duplicates: string[];
  malformed: string[];
}

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\S/;

/** Reads a DMARC TXT record's text. Tag names are matched case-insensitively (RFC 7489 6.4, ABNF); `DMARC1` is matched exactly. */
export function parseDmarc(text: string): DmarcRecord {
  const { tags, malformed } = parseTagList(text);
  const get = (name: string) => tags.find((t) => t.name.toLowerCase() === name)?.value ?? null;
  const first = tags[0];
  const pRaw = get('p');
  const spRaw = get('sp');
  const pctRaw = get('pct');
  const pct = pctRaw !== null && /^\d{1,3}$/.test(pctRaw) && Number(pctRaw) <= 100 ? Number(pctRaw) : null;
  const firstIsV = first !== undefined && first.name.toLowerCase() === 'v';
  const versionFirst = firstIsV && first.value === 'DMARC1';
  const namesDmarc = tags.some((t) => t.name.toLowerCase() === 'v' && t.value.toLowerCase() === 'dmarc1');
  return {
    versionFirst,
    namesDmarc,
    versionProblem:
      versionFirst || !namesDmarc ? null : firstIsV && first.value.toLowerCase() === 'dmarc1' ? `v=${first.value} is not exactly DMARC1 (the value is case-sensitive)` : 'v=DMARC1 is not the first tag',
    p: pRaw !== null && POLICIES.has(pRaw.toLowerCase()) ? (pRaw.toLowerCase() as DmarcPolicy) : null,
    pRaw,
    sp: spRaw === null ? null : POLICIES.has(spRaw.toLowerCase()) ? (spRaw.toLowerCase() as DmarcPolicy) : 'invalid',
    pct: pctRaw === null ? 100 : pct,
    pctRaw,
    hasRua: (get('rua') ?? '').split(',').some((u) => URI_SCHEME.test(trimWsp(u))),
    duplicates: duplicated(tags, true),
    malformed,
  };
}

/** What a TXT record under `_domainkey` holds: a usable key, a revoked one, an unusable one, or no key record at all. */
export type DkimKeyState = { state: 'key' } | { state: 'revoked' } | { state: 'invalid'; reason: string } | { state: 'none' };

/** RFC 8301 3.2: verifiers must not accept signatures made with RSA keys shorter than this. */
export const DKIM_MIN_RSA_BITS = 1024;

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 4), before the 32 raw key bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * RFC 6376 3.6.1 and 2.4: p= is a base64string, the base64 alphabet with folding white space
 * anywhere inside and up to two "=" of padding, which the grammar leaves optional. Null when it is
 * not base64: a character outside the alphabet, or a length no encoding gives (one character past
 * a group of four carries no whole byte).
 */
function decodeBase64(value: string): Buffer | null {
  const text = value.replace(/[ \t\r\n]/g, '');
  const m = /^([A-Za-z0-9+/]*)(={0,2})$/.exec(text);
  if (!m || m[1]!.length % 4 === 1 || (m[2] !== '' && (m[1]!.length + m[2]!.length) % 4 !== 0)) return null;
  return Buffer.from(m[1]!, 'base64');
}

/** The public key DER `key` holds in the form `type`, or null when it holds none. */
function publicKeyOf(key: Buffer, type: 'spki' | 'pkcs1'): KeyObject | null {
  try {
    return createPublicKey({ key, format: 'der', type });
  } catch {
    return null;
  }
}

/**
 * Why the key a verifier would build from p= cannot verify anything; null when it is a key of its
 * declared type. rsa (RFC 6376 3.6.1, erratum 3017): an RSAPublicKey, bare or inside a
 * SubjectPublicKeyInfo, of at least 1,024 bits (RFC 8301 3.2). ed25519 (RFC 8463 4.2): the 32
 * bytes of the raw public key. Another k= is a type verifiers ignore (RFC 6376 3.6.1).
 */
function publicKeyProblem(type: string, p: string): string | null {
  const der = decodeBase64(p);
  if (der === null) return 'p= is not valid base64';
  if (type === 'ed25519') {
    if (der.length !== 32) return `p= holds ${der.length} bytes, not the 32 of a raw Ed25519 key (RFC 8463 4.2)`;
    return publicKeyOf(Buffer.concat([ED25519_SPKI_PREFIX, der]), 'spki') ? null : 'p= is not an Ed25519 public key (RFC 8463 4.2)';
  }
  if (type !== 'rsa') return `k=${type} is not a key type verifiers know (rsa, ed25519): they ignore the record`;
  const key = publicKeyOf(der, 'spki') ?? publicKeyOf(der, 'pkcs1');
  if (key === null) return 'p= decodes, but not to an RSA public key (RFC 6376 3.6.1)';
  if (key.asymmetricKeyType !== 'rsa') return `p= holds a key of type ${key.asymmetricKeyType ?? 'unknown'}, not the RSA key k=rsa declares`;
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < DKIM_MIN_RSA_BITS) return `the RSA key has ${bits} bits, fewer than the ${DKIM_MIN_RSA_BITS} verifiers accept (RFC 8301 3.2)`;
  return null;
}

/**
 * RFC 6376 3.6.1: `v=` (optional) must be first and `DKIM1`; `p=` is required, and empty means the
 * key is revoked; `k=` (default rsa) names the key type. Tag names are case-sensitive (3.2). A
 * record with neither `v=DKIM1` nor `p=` is not a key record (for instance the old DomainKeys
 * policy `o=~`). A key counts only when a verifier could use it: p= decodes, and parses as a key
 * of the declared type (publicKeyProblem).
 */
export function dkimKey(text: string): DkimKeyState {
  const { tags } = parseTagList(text);
  const v = tags.findIndex((t) => t.name === 'v');
  const p = tags.find((t) => t.name === 'p');
  if (v === -1 && !p) return { state: 'none' };
  if (v !== -1 && tags[v]!.value !== 'DKIM1') return p || tags[v]!.value.toUpperCase() === 'DKIM1' ? { state: 'invalid', reason: `v=${tags[v]!.value} is not DKIM1` } : { state: 'none' };
  if (v > 0) return { state: 'invalid', reason: 'v=DKIM1 is not the first tag' };
  if (duplicated(tags, false).length) return { state: 'invalid', reason: `tag ${duplicated(tags, false).join(', ')} given twice` };
  if (!p) return { state: 'invalid', reason: 'it has no p= tag (the public key)' };
  if (p.value.replace(/[ \t\r\n]/g, '') === '') return { state: 'revoked' };
  // RFC 6376 3.6.1: k= is plain text, default rsa; compared as written (tag values are case-sensitive unless a tag says otherwise).
  const problem = publicKeyProblem(tags.find((t) => t.name === 'k')?.value ?? 'rsa', p.value);
  return problem === null ? { state: 'key' } : { state: 'invalid', reason: problem };
}

export interface TxtRecord {
  record: DnsRecordFields;
  /** The joined text (RFC 7208 3.3). */
  text: string;
}

export interface DkimRecord extends TxtRecord {
  selector: string;
}

export interface DkimDelegation {
  record: DnsRecordFields;
  selector: string;
  target: string;
}

export interface MailRecords {
  /** The zone's name, lower case without a final dot. */
  zone: string;
  /** TXT records at the apex that are SPF records (RFC 7208 4.5). */
  spf: TxtRecord[];
  /** MX records at the apex that name a mail server. */
  mx: DnsRecordFields[];
  /** MX records at the apex whose exchange is `.` (RFC 7505 3: the null MX). */
  nullMx: DnsRecordFields[];
  /** Every TXT record at `_dmarc.<zone>` (RFC 7489 6.1), whatever it says. */
  dmarc: TxtRecord[];
  /** A CNAME at `_dmarc.<zone>`: the policy is published elsewhere. */
  dmarcCname: DnsRecordFields | null;
  /** TXT records at `<selector>._domainkey.<zone>` (RFC 6376 3.6.2.1). */
  dkim: DkimRecord[];
  /** CNAME records at `<selector>._domainkey.<zone>`: a key the mail provider publishes. */
  dkimCnames: DkimDelegation[];
}

/**
 * The exchange of an MX record's content: the API keeps the preference in `priority`, but zone-file style ("0 .") is
 * read too. The null MX (RFC 7505 3) is the exchange `.`; its preference 0 cannot be checked here.
 */
export function mxExchange(content: string): string {
  const text = content.trim();
  const space = Math.max(text.lastIndexOf(' '), text.lastIndexOf('\t'));
  const exchange = space === -1 ? text : text.slice(space + 1);
  return exchange === '.' ? '.' : normaliseHostname(exchange);
}

const cache = new WeakMap<readonly DnsRecordFields[], MailRecords>();

/** The mail records of a zone, in one pass, kept with the records list so the three email rules share the pass. */
export function mailRecords(zoneName: string, records: readonly DnsRecordFields[]): MailRecords {
  const zone = normaliseHostname(zoneName);
  const cached = cache.get(records);
  if (cached && cached.zone === zone) return cached;
  const dmarcName = `_dmarc.${zone}`;
  const dkimSuffix = `._domainkey.${zone}`;
  const out: MailRecords = { zone, spf: [], mx: [], nullMx: [], dmarc: [], dmarcCname: null, dkim: [], dkimCnames: [] };
  for (const r of records) {
    const type = r.type;
    if ((type !== 'TXT' && type !== 'MX' && type !== 'CNAME') || r.name === null || r.content === null) continue;
    const name = normaliseHostname(r.name);
    if (type === 'MX') {
      if (name !== zone) continue;
      const exchange = mxExchange(r.content);
      // An MX without an exchange names no server: it neither receives mail nor says it takes none.
      if (exchange !== '') (exchange === '.' ? out.nullMx : out.mx).push(r);
    } else if (name === zone) {
      if (type !== 'TXT') continue;
      const text = joinTxt(r.content);
      if (isSpf(text)) out.spf.push({ record: r, text });
    } else if (name === dmarcName) {
      if (type === 'TXT') out.dmarc.push({ record: r, text: joinTxt(r.content) });
      else out.dmarcCname = r;
    } else if (name.endsWith(dkimSuffix) && name.length > dkimSuffix.length) {
      const selector = name.slice(0, name.length - dkimSuffix.length);
      if (type === 'TXT') out.dkim.push({ record: r, selector, text: joinTxt(r.content) });
      else out.dkimCnames.push({ record: r, selector, target: normaliseHostname(r.content) });
    }
  }
  cache.set(records, out);
  return out;
}

/**
 * Whether the zone sends mail by its own records: an MX naming a server (a domain that receives mail sends replies
 * and bounces), or an apex SPF record authorizing a sender. A zone with neither is taken to send none, as the guidance
 * does (UK NCSC and GOV.UK "Protect domains that do not send email", M3AAWG parked-domain practices, the vendor's
 * "protect domains without email" page).
 */
export function sendsMail(m: MailRecords): boolean {
  return m.mx.length > 0 || m.spf.some((s) => spfAuthorizesSenders(parseSpf(s.text)));
}
