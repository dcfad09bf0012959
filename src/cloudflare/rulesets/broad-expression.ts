/**
 * Whether a rule expression matches every request, or every request to a host: a skip rule with one
 * switches protection off for a whole site. Read with a small parser of the vendor's rules language
 * (vendor docs: rules language, operators and grouping symbols; values) that decides "always true"
 * only for the forms it knows: what it cannot parse or show is not broad, so a narrow rule is never
 * reported as broad. managed-phase.ts reads the same (cached) syntax tree.
 */

type Token = { t: 'str'; value: string } | { t: 'word'; text: string } | { t: 'punct'; text: string } | { t: 'list'; text: string };

const PUNCT = ['&&', '||', '^^', '==', '!=', '<=', '>=', '<', '>', '!', '~', '(', ')', '{', '}', '[', ']', ',', '*'];
// Field and function names, keywords, numbers, IP addresses and ranges, CIDRs (IPv6 has colons).
const WORD = /[A-Za-z0-9_.:/]+/y;
const LIST = /\$[a-z0-9_.]+/y;
const RAW = /r(#*)"/y;
const QUOTED = /"((?:[^"\\]|\\[\s\S])*)"/y;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const at = (re: RegExp) => {
    re.lastIndex = i;
    return re.exec(text);
  };
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const raw = at(RAW);
    if (raw) {
      // vendor docs: values: a raw string r#"..."# has no escapes and ends at `"` and as many `#`.
      const close = `"${raw[1]}`;
      const end = text.indexOf(close, i + raw[0].length);
      if (end === -1) throw new Error('unterminated raw string');
      out.push({ t: 'str', value: text.slice(i + raw[0].length, end) });
      i = end + close.length;
      continue;
    }
    if (text[i] === '"') {
      // vendor docs: values: a quoted string escapes `"` and `\` with a backslash (any other pair is kept as written).
      const quoted = at(QUOTED);
      if (!quoted) throw new Error('unterminated string');
      out.push({ t: 'str', value: quoted[1]!.replace(/\\(["\\])/g, '$1') });
      i += quoted[0].length;
      continue;
    }
    const punct = PUNCT.find((p) => text.startsWith(p, i));
    if (punct) {
      out.push({ t: 'punct', text: punct });
      i += punct.length;
      continue;
    }
    const list = at(LIST);
    if (list) {
      out.push({ t: 'list', text: list[0] });
      i += list[0].length;
      continue;
    }
    const word = at(WORD);
    if (!word) throw new Error(`unexpected ${text[i]}`);
    out.push({ t: 'word', text: word[0] });
    i += word[0].length;
  }
  return out;
}

/** What a comparison or function call reads: a field, a function of other expressions, or a literal. */
export interface Operand {
  /** Canonical text, for comparing two operands. */
  key: string;
  /** The fields it reads, arguments included. */
  fields: string[];
  /** A bare field name (no function, no index), or null. */
  field: string | null;
  /** A function call's name and arguments, or null. */
  call: { name: string; args: Node[] } | null;
  literal: { value: string } | null;
}

export type Value = { kind: 'string'; value: string; key: string } | { kind: 'set'; items: string[]; key: string } | { kind: 'word'; text: string; key: string };

export type ExpressionNode =
  | { kind: 'bool'; value: boolean }
  | { kind: 'not'; operand: Node }
  | { kind: 'and' | 'or' | 'xor'; operands: Node[] }
  | { kind: 'test'; left: Operand; op: string | null; right: Value | null };
type Node = ExpressionNode;
/** One comparison (`op` and `right` set) or a bare operand such as a boolean field or a function call. */
export type TestNode = Extract<Node, { kind: 'test' }>;

const IDENT = /^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*$/;
// vendor docs: operators: English and C-like notations of the same comparison.
const C_LIKE: Record<string, string> = { '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '~': 'matches' };
const ENGLISH_OPS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'in', 'wildcard']);
const KEYWORDS = new Set(['and', 'or', 'xor', 'not', 'strict', ...ENGLISH_OPS]);

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    const node = this.or();
    if (this.i !== this.tokens.length) throw new Error('trailing tokens');
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private is(...texts: string[]): boolean {
    const tok = this.peek();
    return tok !== undefined && (tok.t === 'word' || tok.t === 'punct') && texts.includes(tok.text);
  }

  /** Takes the next token when it is one of `texts`. */
  private accept(...texts: string[]): boolean {
    if (!this.is(...texts)) return false;
    this.i++;
    return true;
  }

  private expect(text: string): void {
    if (!this.accept(text)) throw new Error(`expected ${text}`);
  }

  private take(what: string): Token {
    const tok = this.tokens[this.i++];
    if (!tok) throw new Error(`expected ${what}`);
    return tok;
  }

  // vendor docs: operators: precedence not, and, xor, or; English keywords are lowercase only.
  private chain(kind: 'and' | 'or' | 'xor', ops: string[], next: () => Node): Node {
    const operands = [next()];
    while (this.accept(...ops)) operands.push(next());
    if (operands.length === 1) return operands[0]!;
    // Grouping does not change an associative operator: (A or B) or C is A or B or C.
    return { kind, operands: operands.flatMap((o) => (o.kind === kind ? o.operands : [o])) };
  }

  private or = (): Node => this.chain('or', ['or', '||'], this.xor);
  private xor = (): Node => this.chain('xor', ['xor', '^^'], this.and);
  private and = (): Node => this.chain('and', ['and', '&&'], this.not);

  private not = (): Node => (this.accept('not', '!') ? { kind: 'not', operand: this.not() } : this.primary());

  private primary(): Node {
    if (this.accept('(')) {
      const inner = this.or();
      this.expect(')');
      return inner;
    }
    if (this.accept('true')) return { kind: 'bool', value: true };
    if (this.accept('false')) return { kind: 'bool', value: false };
    const left = this.operand();
    const op = this.comparison();
    if (op === null) return { kind: 'test', left, op: null, right: null };
    return { kind: 'test', left, op, right: this.value() };
  }

  private comparison(): string | null {
    const tok = this.peek();
    const word = tok?.t === 'word' && (ENGLISH_OPS.has(tok.text) || tok.text === 'strict') ? tok.text : undefined;
    const op = tok?.t === 'punct' ? C_LIKE[tok.text] : word;
    if (op === undefined) return null;
    this.i++;
    if (op !== 'strict') return op;
    this.expect('wildcard');
    return 'strict wildcard';
  }

  private operand(): Operand {
    const tok = this.take('an operand');
    if (tok.t === 'str') return { key: JSON.stringify(tok.value), fields: [], field: null, call: null, literal: { value: tok.value } };
    if (tok.t !== 'word') throw new Error('expected an operand');
    // A number or an address (a function argument such as a length, or an address compared to a field).
    if (/^[0-9:]/.test(tok.text) || tok.text.includes(':')) return { key: tok.text, fields: [], field: null, call: null, literal: { value: tok.text } };
    if (!IDENT.test(tok.text) || KEYWORDS.has(tok.text)) throw new Error(`unexpected ${tok.text}`);
    let operand: Operand;
    if (this.accept('(')) {
      const args: Node[] = [];
      if (!this.is(')')) {
        args.push(this.or());
        while (this.accept(',')) args.push(this.or());
      }
      this.expect(')');
      operand = { key: `${tok.text}(${args.map(keyOf).join(', ')})`, fields: args.flatMap(fieldsOf), field: null, call: { name: tok.text, args }, literal: null };
    } else operand = { key: tok.text, fields: [tok.text], field: tok.text, call: null, literal: null };
    // vendor docs: values: arrays and maps are indexed with [n], ["key"] or [*].
    while (this.accept('[')) {
      const index = this.take('an index');
      if (index.t !== 'str' && index.t !== 'word' && !(index.t === 'punct' && index.text === '*')) throw new Error('bad index');
      this.expect(']');
      const text = index.t === 'str' ? JSON.stringify(index.value) : index.text;
      // An indexed value is no longer the bare field: it can be missing (see presentField).
      operand = { ...operand, key: `${operand.key}[${text}]`, field: null };
    }
    return operand;
  }

  private value(): Value {
    const tok = this.take('a value');
    if (tok.t === 'str') return { kind: 'string', value: tok.value, key: JSON.stringify(tok.value) };
    if (tok.t === 'list' || tok.t === 'word') return { kind: 'word', text: tok.text, key: tok.text };
    if (tok.text !== '{') throw new Error('expected a value');
    // vendor docs: values: an inline list holds strings, numbers, addresses, CIDRs and ranges, space-separated.
    const items: string[] = [];
    while (!this.accept('}')) {
      const item = this.take('a set item');
      if (item.t !== 'str' && item.t !== 'word') throw new Error('bad set item');
      items.push(item.t === 'str' ? JSON.stringify(item.value) : item.text);
    }
    return { kind: 'set', items, key: `{${items.join(' ')}}` };
  }
}

function fieldsOf(node: Node): string[] {
  if (node.kind === 'test') return node.left.fields;
  if (node.kind === 'not') return fieldsOf(node.operand);
  return node.kind === 'bool' ? [] : node.operands.flatMap(fieldsOf);
}

// Keys of compound nodes, computed once each (an `or` asks its operands' keys; nesting asks again).
const keys = new WeakMap<Node, string>();

function keyOf(node: Node): string {
  if (node.kind === 'bool') return String(node.value);
  if (node.kind === 'not') return `not ${keyOf(node.operand)}`;
  if (node.kind === 'test') return node.op === null ? node.left.key : `${node.left.key} ${node.op} ${node.right!.key}`;
  let key = keys.get(node);
  if (key === undefined) keys.set(node, (key = `(${node.operands.map(keyOf).join(` ${node.kind} `)})`));
  return key;
}

// Parsed expressions by their text: an account's entry point is read again for each of its zones,
// and one expression can be asked about by several rules. Bounded: emptied when full.
const PARSE_CACHE_LIMIT = 10_000;
const parsed = new Map<string, Node | null>();

/** The syntax tree of an expression; null when it cannot be read (then nothing is concluded from it). */
export function parseExpression(expression: string): ExpressionNode | null {
  const cached = parsed.get(expression);
  if (cached !== undefined || parsed.has(expression)) return cached ?? null;
  let node: Node | null = null;
  try {
    node = new Parser(tokenize(expression)).parse();
  } catch {
    // A syntax error, or nesting deeper than the stack (a RangeError): not read.
  }
  if (parsed.size >= PARSE_CACHE_LIMIT) parsed.clear();
  parsed.set(expression, node);
  return node;
}

/** How many parsed expressions are kept (at most PARSE_CACHE_LIMIT). */
export function parsedExpressionsKept(): number {
  return parsed.size;
}

/** What a walk of an expression concludes: every request, none, part (not judged further), or a host condition `H`. */
export type Verdict<H> = { kind: 'all' } | { kind: 'none' } | { kind: 'part' } | H;

export const ALL = { kind: 'all' } as const;
export const NONE = { kind: 'none' } as const;
export const PART = { kind: 'part' } as const;

/** The fields holding the request's host name. */
export const HOST_FIELDS: ReadonlySet<string> = new Set(['http.host', 'http.request.host']);
/** vendor docs: fields: cf.zone.name, the zone the request is for: a condition on the host, for one zone true or false. */
const ZONE_NAME_FIELD = 'cf.zone.name';
const REACH_HOST_FIELDS = new Set([...HOST_FIELDS, ZONE_NAME_FIELD]);
// RFC 9110 4.1 / RFC 9112 3.2.1: a request's path is an absolute-path, "/" followed by segments
// (the one exception, the asterisk-form `OPTIONS *`, asks about the server, not a resource).
const PATH_FIELDS = new Set(['http.request.uri.path', 'http.request.uri', 'raw.http.request.uri.path', 'raw.http.request.uri']);
// Rust regular expressions (vendor docs: operators) that find a match in every string, the empty one included.
const MATCH_ANY = new Set(['', '^', '$', '.*', '^.*', '.*$', '(.*)', '^(.*)']);
const MATCH_ANY_PATH = new Set(['/', '^/', '^/.*', '^/(.*)']);
// vendor docs: operators: wildcard matches the whole value, `*` standing for zero or more characters.
const WILDCARD_ANY_PATH = new Set(['/*']);
const TRANSFORMS = new Set(['lower', 'upper']);

/**
 * The field an operand always has a value of: a bare field, or lower()/upper() of one. An indexed value can be
 * missing, and every comparison of a missing value is false (vendor docs: values, missing values).
 */
export function presentField(operand: Operand): string | null {
  if (operand.field) return operand.field;
  const call = operand.call;
  return call && TRANSFORMS.has(call.name) && call.args.length === 1 ? fieldArg(call.args[0]!) : null;
}

/** The field a bare operand node always has a value of (presentField), else null. */
export function fieldArg(node: Node): string | null {
  return node.kind === 'test' && node.op === null ? presentField(node.left) : null;
}

/** The string a bare string literal node holds, else null. */
export function stringArg(node: Node | undefined): string | null {
  return node?.kind === 'test' && node.op === null && node.left.literal && node.left.key.startsWith('"') ? node.left.literal.value : null;
}

/** The strings a comparison's value names: one for a string, each of an inline list of strings; null otherwise (a named list, numbers, addresses). */
export function stringValues(value: Value | null): string[] | null {
  if (value?.kind === 'string') return [value.value];
  if (value?.kind !== 'set' || !value.items.every((i) => i.startsWith('"'))) return null;
  return value.items.map((i) => JSON.parse(i) as string);
}

/** The address families an `ip.src in ...` test covers whole: `/0` of IPv4 or IPv6, or the full IPv4 range. */
function familiesCovered(node: Node): Set<'v4' | 'v6'> {
  const out = new Set<'v4' | 'v6'>();
  if (node.kind !== 'test' || node.left.field !== 'ip.src' || node.op !== 'in' || !node.right) return out;
  const items = node.right.kind === 'set' ? node.right.items : node.right.kind === 'word' ? [node.right.text] : [];
  for (const item of items) {
    if (/^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*\/0$/.test(item)) out.add('v6');
    else if (/^\d{1,3}(\.\d{1,3}){3}\/0$/.test(item) || item === '0.0.0.0..255.255.255.255') out.add('v4');
  }
  return out;
}

/** Whether one comparison or function call is true of every request. */
function alwaysTrueTest(node: TestNode): boolean {
  const { left, op, right } = node;
  if (familiesCovered(node).size === 2) return true;
  if (op === null) {
    // vendor docs: functions: starts_with() / ends_with() of a string and a substring.
    const call = left.call;
    if (!call || (call.name !== 'starts_with' && call.name !== 'ends_with') || call.args.length !== 2) return false;
    const field = fieldArg(call.args[0]!);
    const prefix = stringArg(call.args[1]);
    if (field === null || prefix === null) return false;
    return prefix === '' || (call.name === 'starts_with' && prefix === '/' && PATH_FIELDS.has(field));
  }
  const field = presentField(left);
  if (field === null || right?.kind !== 'string') return false;
  const path = PATH_FIELDS.has(field);
  if (op === 'contains') return right.value === '' || (path && right.value === '/');
  if (op === 'matches') return MATCH_ANY.has(right.value) || (path && MATCH_ANY_PATH.has(right.value));
  // vendor docs: operators: wildcard matches the whole value; `*` stands for zero or more
  // characters, so `*` matches any value and `/*` any path (every path starts with "/").
  if (op === 'wildcard' || op === 'strict wildcard') return right.value === '*' || (path && WILDCARD_ANY_PATH.has(right.value));
  return false;
}

/** Whether a test is `X in {}`: an empty inline list holds nothing, so no request matches. */
function emptyList(node: TestNode): boolean {
  return node.op === 'in' && node.right?.kind === 'set' && node.right.items.length === 0;
}

/** A disjunct as a literal: its canonical key, negated or not (`X ne v` is `not X eq v` when X is always present). */
function literalOf(node: Node): { key: string; negated: boolean } {
  if (node.kind === 'not') {
    const inner = literalOf(node.operand);
    return { key: inner.key, negated: !inner.negated };
  }
  if (node.kind === 'test' && node.op === 'ne' && presentField(node.left) !== null) return { key: keyOf({ ...node, op: 'eq' }), negated: true };
  return { key: keyOf(node), negated: false };
}

/** Whether some disjunct is the negation of another (A or not A). */
function complementary(operands: Node[]): boolean {
  const seen = new Map<string, Set<boolean>>();
  for (const o of operands) {
    const { key, negated } = literalOf(o);
    const polarity = seen.get(key) ?? new Set<boolean>();
    polarity.add(negated);
    if (polarity.size === 2) return true;
    seen.set(key, polarity);
  }
  return false;
}

/** Whether the disjuncts of an `or` cover every request between them: A or not A, or every IPv4 and every IPv6 address. */
function tautologicalOr(operands: ExpressionNode[]): boolean {
  if (complementary(operands)) return true;
  return new Set(operands.flatMap((o) => [...familiesCovered(o)])).size === 2;
}

/**
 * Whether the conjuncts of an `and` compare one operand (`eq`, `in`) to strings no value equals at once (vendor docs:
 * operators: string comparisons are exact, case-sensitive).
 */
function contradictoryAnd(operands: ExpressionNode[]): boolean {
  const allowed = new Map<string, Set<string>>();
  for (const o of operands) {
    if (o.kind !== 'test' || (o.op !== 'eq' && o.op !== 'in')) continue;
    const values = stringValues(o.right);
    if (values === null) continue;
    const before = allowed.get(o.left.key);
    const now = new Set(before ? values.filter((v) => before.has(v)) : values);
    if (now.size === 0) return true;
    allowed.set(o.left.key, now);
  }
  return false;
}

/** For one zone, whether a comparison of cf.zone.name (`eq`, `ne`, `in` an inline list) holds; null for another test. */
function zoneNameHolds(node: TestNode, zoneName: string): boolean | null {
  if (presentField(node.left) !== ZONE_NAME_FIELD || (node.op !== 'eq' && node.op !== 'ne' && node.op !== 'in')) return null;
  const values = stringValues(node.right);
  if (values === null) return null;
  const named = values.some((v) => v.toLowerCase() === zoneName.toLowerCase());
  return node.op === 'ne' ? !named : named;
}

/** How a walk reads tests and combines host conditions `H`; the boolean structure is walked alike for every reader. */
export interface HostReader<H extends { kind: 'hosts' }> {
  /** The zone cf.zone.name is read for; null: it is read as a host condition. */
  zoneName: string | null;
  /** A test neither always true, nor an empty list, nor of cf.zone.name for a known zone. */
  test(node: TestNode): Verdict<H>;
  not(hosts: H): Verdict<H>;
  and(hosts: H[]): Verdict<H>;
  or(hosts: H[]): Verdict<H>;
  /** Decided by the host name alone, which hosts not known. */
  someHosts: H;
}

/** Which requests an expression selects, as `reader` reads its tests. */
export function walk<H extends { kind: 'hosts' }>(node: Node, reader: HostReader<H>): Verdict<H> {
  const isHosts = (p: Verdict<H>): p is H => p.kind === 'hosts';
  const parts = node.kind === 'and' || node.kind === 'or' || node.kind === 'xor' ? node.operands.map((o) => walk(o, reader)) : [];
  switch (node.kind) {
    case 'bool':
      return node.value ? ALL : NONE;
    case 'not': {
      const inner = walk(node.operand, reader);
      return inner.kind === 'all' ? NONE : inner.kind === 'none' ? ALL : isHosts(inner) ? reader.not(inner) : inner;
    }
    case 'and': {
      if (parts.some((p) => p.kind === 'none') || contradictoryAnd(node.operands)) return NONE;
      const rest = parts.filter((p) => p.kind !== 'all');
      if (rest.length === 0) return ALL;
      return rest.every(isHosts) ? reader.and(rest) : PART;
    }
    case 'or': {
      if (parts.some((p) => p.kind === 'all') || tautologicalOr(node.operands)) return ALL;
      const rest = parts.filter((p) => p.kind !== 'none');
      if (rest.length === 0) return NONE;
      return rest.every(isHosts) ? reader.or(rest) : PART;
    }
    case 'xor':
      if (parts.every((p) => p.kind === 'all' || p.kind === 'none')) return parts.filter((p) => p.kind === 'all').length % 2 === 1 ? ALL : NONE;
      return parts.some((p) => p.kind === 'part') ? PART : reader.someHosts;
    case 'test': {
      if (alwaysTrueTest(node)) return ALL;
      if (emptyList(node)) return NONE;
      if (reader.zoneName === null || !node.left.fields.includes(ZONE_NAME_FIELD)) return reader.test(node);
      // For a known zone the test is true or false; a form not read here concludes nothing.
      const holds = zoneNameHolds(node, reader.zoneName);
      return holds === null ? PART : holds ? ALL : NONE;
    }
  }
}

/** `names`: the hosts a condition lists outright (`eq`, `in`, joined by `or`), else null. */
type HostsNamed = { kind: 'hosts'; names: string[] | null };
const HOST_ALONE: HostsNamed = { kind: 'hosts', names: null };

function reachReader(zoneName: string | null): HostReader<HostsNamed> {
  return {
    zoneName,
    test: (node) => {
      const fields = node.left.fields;
      if (fields.length === 0 || !fields.every((f) => REACH_HOST_FIELDS.has(f))) return PART;
      // The hosts it names outright: `eq` a string, `in` a list of strings, of the host itself.
      const named = presentField(node.left) !== null && (node.op === 'eq' || node.op === 'in');
      return { kind: 'hosts', names: named ? stringValues(node.right) : null };
    },
    // Every host but the ones named is still decided by the host, but names no host.
    not: () => HOST_ALONE,
    and: (hosts) => (hosts.length === 1 ? hosts[0]! : HOST_ALONE),
    or: (hosts) => (hosts.every((p) => p.names !== null) ? { kind: 'hosts', names: [...new Set(hosts.flatMap((p) => p.names!))] } : HOST_ALONE),
    someHosts: HOST_ALONE,
  };
}

/** The traffic a broad expression matches, in words. */
export type BroadTraffic = 'every request' | 'every request to the host' | 'every request to the hosts it names' | 'requests decided by the host name alone';

/**
 * Which requests a broad expression matches, in words; null when it is narrower or cannot be read. With
 * `zoneName`, cf.zone.name is read for that zone; without, as a host condition. No expression matches every request.
 */
export function broadReach(expression: string | null, zoneName: string | null = null): BroadTraffic | null {
  if (expression === null) return 'every request';
  const node = parseExpression(expression);
  const reach = node ? walk(node, reachReader(zoneName)) : PART;
  if (reach.kind === 'all') return 'every request';
  if (reach.kind !== 'hosts') return null;
  if (reach.names === null) return 'requests decided by the host name alone';
  return reach.names.length === 1 ? 'every request to the host' : 'every request to the hosts it names';
}
