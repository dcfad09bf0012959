/**
 * Whether a rule expression matches (nearly) every request: every request outright (`true`, a
 * tautology such as `X eq "a" or X ne "a"`, every source address), or every request to a host
 * (conditions on the host name only: every path, method and client of the site). A skip rule with
 * such an expression switches protection off for a whole site rather than for one client or path.
 *
 * The expression is read with a small parser of the vendor's rules language (vendor docs: rules
 * language, operators and grouping symbols; values). It decides "always true" only for the forms
 * it knows; an expression it cannot parse, or whose truth it cannot show, is not broad: this must
 * never report a narrow rule as a broad one.
 */

// ---------------------------------------------------------------------------------------------
// Tokens

type Token = { t: 'str'; value: string } | { t: 'word'; text: string } | { t: 'punct'; text: string } | { t: 'list'; text: string };

const PUNCT = ['&&', '||', '^^', '==', '!=', '<=', '>=', '<', '>', '!', '~', '(', ')', '{', '}', '[', ']', ',', '*'];
// Field and function names, keywords, numbers, IP addresses and ranges, CIDRs (IPv6 has colons).
const WORD = /[A-Za-z0-9_.:/]+/y;
const LIST = /\$[a-z0-9_.]+/y;
const RAW = /r(#*)"/y;

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
      // vendor docs: values: a quoted string escapes `"` and `\` with a backslash.
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') {
          if (j + 1 >= text.length) throw new Error('unterminated string');
          value += text[j + 1] === '"' || text[j + 1] === '\\' ? text[j + 1] : text.slice(j, j + 2);
          j += 2;
        } else value += text[j++];
      }
      if (j >= text.length) throw new Error('unterminated string');
      out.push({ t: 'str', value });
      i = j + 1;
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

// ---------------------------------------------------------------------------------------------
// Syntax tree

/** What a comparison or function call reads: a field, a function of other expressions, or a literal. */
interface Operand {
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

type Value = { kind: 'string'; value: string; key: string } | { kind: 'set'; items: string[]; key: string } | { kind: 'word'; text: string; key: string };

type Node =
  | { kind: 'bool'; value: boolean }
  | { kind: 'not'; operand: Node }
  | { kind: 'and' | 'or' | 'xor'; operands: Node[] }
  | { kind: 'test'; left: Operand; op: string | null; right: Value | null };

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

  private expect(text: string): void {
    if (!this.is(text)) throw new Error(`expected ${text}`);
    this.i++;
  }

  // vendor docs: operators: precedence not, and, xor, or; English keywords are lowercase only.
  private chain(kind: 'and' | 'or' | 'xor', ops: string[], next: () => Node): Node {
    const operands = [next()];
    while (this.is(...ops)) {
      this.i++;
      operands.push(next());
    }
    if (operands.length === 1) return operands[0]!;
    // Grouping does not change an associative operator: (A or B) or C is A or B or C.
    return { kind, operands: operands.flatMap((o) => (o.kind === kind ? o.operands : [o])) };
  }

  private or = (): Node => this.chain('or', ['or', '||'], this.xor);
  private xor = (): Node => this.chain('xor', ['xor', '^^'], this.and);
  private and = (): Node => this.chain('and', ['and', '&&'], this.not);

  private not = (): Node => {
    if (this.is('not', '!')) {
      this.i++;
      return { kind: 'not', operand: this.not() };
    }
    return this.primary();
  };

  private primary(): Node {
    if (this.is('(')) {
      this.i++;
      const inner = this.or();
      this.expect(')');
      return inner;
    }
    if (this.is('true', 'false')) {
      const value = this.is('true');
      this.i++;
      return { kind: 'bool', value };
    }
    const left = this.operand();
    const op = this.comparison();
    if (op === null) return { kind: 'test', left, op: null, right: null };
    return { kind: 'test', left, op, right: this.value() };
  }

  private comparison(): string | null {
    const tok = this.peek();
    if (!tok || (tok.t !== 'word' && tok.t !== 'punct')) return null;
    if (tok.t === 'punct' && C_LIKE[tok.text]) {
      this.i++;
      return C_LIKE[tok.text]!;
    }
    if (tok.t === 'word' && ENGLISH_OPS.has(tok.text)) {
      this.i++;
      return tok.text;
    }
    if (tok.t === 'word' && tok.text === 'strict') {
      this.i++;
      this.expect('wildcard');
      return 'strict wildcard';
    }
    return null;
  }

  private operand(): Operand {
    const tok = this.peek();
    if (!tok) throw new Error('expected an operand');
    this.i++;
    if (tok.t === 'str') return { key: JSON.stringify(tok.value), fields: [], field: null, call: null, literal: { value: tok.value } };
    if (tok.t !== 'word') throw new Error('expected an operand');
    // A number or an address (a function argument such as a length, or an address compared to a field).
    if (/^[0-9:]/.test(tok.text) || tok.text.includes(':')) return { key: tok.text, fields: [], field: null, call: null, literal: { value: tok.text } };
    if (!IDENT.test(tok.text) || KEYWORDS.has(tok.text)) throw new Error(`unexpected ${tok.text}`);
    let operand: Operand;
    if (this.is('(')) {
      this.i++;
      const args: Node[] = [];
      if (!this.is(')')) {
        args.push(this.or());
        while (this.is(',')) {
          this.i++;
          args.push(this.or());
        }
      }
      this.expect(')');
      operand = { key: `${tok.text}(${args.map(keyOf).join(', ')})`, fields: args.flatMap(fieldsOf), field: null, call: { name: tok.text, args }, literal: null };
    } else operand = { key: tok.text, fields: [tok.text], field: tok.text, call: null, literal: null };
    // vendor docs: values: arrays and maps are indexed with [n], ["key"] or [*].
    while (this.is('[')) {
      this.i++;
      const index = this.peek();
      if (!index || (index.t !== 'str' && index.t !== 'word' && !(index.t === 'punct' && index.text === '*'))) throw new Error('bad index');
      this.i++;
      this.expect(']');
      const text = index.t === 'str' ? JSON.stringify(index.value) : index.text;
      // An indexed value is no longer the bare field: it can be missing (see presentField).
      operand = { ...operand, key: `${operand.key}[${text}]`, field: null };
    }
    return operand;
  }

  private value(): Value {
    const tok = this.peek();
    if (!tok) throw new Error('expected a value');
    this.i++;
    if (tok.t === 'str') return { kind: 'string', value: tok.value, key: JSON.stringify(tok.value) };
    if (tok.t === 'list') return { kind: 'word', text: tok.text, key: tok.text };
    if (tok.t === 'word') return { kind: 'word', text: tok.text, key: tok.text };
    if (tok.text !== '{') throw new Error('expected a value');
    // vendor docs: values: an inline list holds strings, numbers, addresses, CIDRs and ranges, space-separated.
    const items: string[] = [];
    while (!this.is('}')) {
      const item = this.peek();
      if (!item || (item.t !== 'str' && item.t !== 'word')) throw new Error('bad set item');
      items.push(item.t === 'str' ? JSON.stringify(item.value) : item.text);
      this.i++;
    }
    this.i++;
    return { kind: 'set', items, key: `{${items.join(' ')}}` };
  }
}

function fieldsOf(node: Node): string[] {
  switch (node.kind) {
    case 'bool':
      return [];
    case 'not':
      return fieldsOf(node.operand);
    case 'test':
      return node.left.fields;
    default:
      return node.operands.flatMap(fieldsOf);
  }
}

function keyOf(node: Node): string {
  switch (node.kind) {
    case 'bool':
      return String(node.value);
    case 'not':
      return `not ${keyOf(node.operand)}`;
    case 'test':
      return node.op === null ? node.left.key : `${node.left.key} ${node.op} ${node.right!.key}`;
    default:
      return `(${node.operands.map(keyOf).join(` ${node.kind} `)})`;
  }
}

function parse(expression: string): Node | null {
  try {
    return new Parser(tokenize(expression)).parse();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Reach: which requests an expression matches

/** `all`: every request; `host`: decided by the host name alone; `never`: no request; `other`: anything else. */
type Reach = 'all' | 'host' | 'never' | 'other';

const HOST_FIELDS = new Set(['http.host', 'http.request.host']);
// RFC 9110 4.1 / RFC 9112 3.2.1: a request's path is an absolute-path, "/" followed by segments
// (the one exception, the asterisk-form `OPTIONS *`, asks about the server, not a resource).
const PATH_FIELDS = new Set(['http.request.uri.path', 'http.request.uri', 'raw.http.request.uri.path', 'raw.http.request.uri']);
// Rust regular expressions (vendor docs: operators) that find a match in every string, the empty one included.
const MATCH_ANY = new Set(['', '^', '$', '.*', '^.*', '.*$', '(.*)', '^(.*)']);
const MATCH_ANY_PATH = new Set(['/', '^/', '^/.*', '^/(.*)']);
const TRANSFORMS = new Set(['lower', 'upper']);

/**
 * The field an operand always has a value of: a bare field, or lower()/upper() of one. An indexed
 * array or map can be missing, and every comparison of a missing value is false (vendor docs:
 * values, missing values), so `X eq "a" or X ne "a"` is not always true for those.
 */
function presentField(operand: Operand): string | null {
  if (operand.field) return operand.field;
  const call = operand.call;
  if (!call || !TRANSFORMS.has(call.name) || call.args.length !== 1) return null;
  const arg = call.args[0]!;
  return arg.kind === 'test' && arg.op === null ? presentField(arg.left) : null;
}

function stringArg(node: Node | undefined): string | null {
  return node?.kind === 'test' && node.op === null && node.left.literal && node.left.key.startsWith('"') ? node.left.literal.value : null;
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
function alwaysTrue(node: Extract<Node, { kind: 'test' }>): boolean {
  const { left, op, right } = node;
  if (familiesCovered(node).size === 2) return true;
  if (op === null) {
    // vendor docs: functions: starts_with() / ends_with() of a string and a substring.
    const call = left.call;
    if (!call || (call.name !== 'starts_with' && call.name !== 'ends_with') || call.args.length !== 2) return false;
    const subject = call.args[0]!;
    const field = subject.kind === 'test' && subject.op === null ? presentField(subject.left) : null;
    const prefix = stringArg(call.args[1]);
    if (field === null || prefix === null) return false;
    return prefix === '' || (call.name === 'starts_with' && prefix === '/' && PATH_FIELDS.has(field));
  }
  const field = presentField(left);
  if (field === null || right?.kind !== 'string') return false;
  const path = PATH_FIELDS.has(field);
  if (op === 'contains') return right.value === '' || (path && right.value === '/');
  if (op === 'matches') return MATCH_ANY.has(right.value) || (path && MATCH_ANY_PATH.has(right.value));
  // vendor docs: operators: wildcard matches the whole value; `*` stands for zero or more characters.
  if (op === 'wildcard' || op === 'strict wildcard') return right.value === '*';
  return false;
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

function reachOf(node: Node): Reach {
  switch (node.kind) {
    case 'bool':
      return node.value ? 'all' : 'never';
    case 'not': {
      const inner = reachOf(node.operand);
      return inner === 'all' ? 'never' : inner === 'never' ? 'all' : inner;
    }
    case 'and': {
      const parts = node.operands.map(reachOf);
      if (parts.includes('never')) return 'never';
      if (parts.every((p) => p === 'all')) return 'all';
      return parts.every((p) => p === 'all' || p === 'host') ? 'host' : 'other';
    }
    case 'or': {
      const parts = node.operands.map(reachOf);
      if (parts.includes('all') || complementary(node.operands)) return 'all';
      const families = new Set(node.operands.flatMap((o) => [...familiesCovered(o)]));
      if (families.size === 2) return 'all';
      const rest = parts.filter((p) => p !== 'never');
      if (rest.length === 0) return 'never';
      return rest.every((p) => p === 'host') ? 'host' : 'other';
    }
    case 'xor':
      return node.operands.map(reachOf).reduce((a, b) => {
        const constant = (r: Reach) => r === 'all' || r === 'never';
        if (constant(a) && constant(b)) return a === b ? 'never' : 'all';
        return a !== 'other' && b !== 'other' ? 'host' : 'other';
      });
    case 'test': {
      if (alwaysTrue(node)) return 'all';
      const fields = node.left.fields;
      return fields.length > 0 && fields.every((f) => HOST_FIELDS.has(f)) ? 'host' : 'other';
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The answers

/**
 * Which requests a broad expression matches, in words: `every request`, or `every request to the
 * host` when it only looks at the host name; null when it is narrower or cannot be read. A rule
 * that came back without an expression is read as matching every request, the widest reading.
 */
export function broadReach(expression: string | null): 'every request' | 'every request to the host' | null {
  if (expression === null) return 'every request';
  const node = parse(expression);
  const reach = node ? reachOf(node) : 'other';
  return reach === 'all' ? 'every request' : reach === 'host' ? 'every request to the host' : null;
}

/** Whether an expression matches every request: `true` and the tautologies above, or none at all. */
export function matchesEverything(expression: string | null): boolean {
  return broadReach(expression) === 'every request';
}

/** Whether an expression matches every request, or every request to a host (conditions on the host name only). */
export function isBroadExpression(expression: string | null): boolean {
  return broadReach(expression) !== null;
}
