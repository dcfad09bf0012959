import { isIP } from 'node:net';

export const MAX_EXPRESSION_CHARACTERS = 4096;

// Without a cap, 4096 characters of "(((" would overflow the stack instead of failing cleanly.
const MAX_NESTING = 64;

export type ExpressionCheck =
  | { ok: true; fields: string[]; usesRegex: boolean }
  | { ok: false; message: string };

type ValueType = 'string' | 'int' | 'ip' | 'bool' | 'array' | 'map';

/** The fields the rules language knows, by the type of their value. */
const FIELDS_BY_TYPE: Record<ValueType, readonly string[]> = {
  string: ['http.host', 'http.request.uri', 'http.request.uri.path', 'http.request.uri.path.extension', 'http.request.uri.query',
    'http.request.full_uri', 'http.request.method', 'http.request.version', 'http.referer', 'http.user_agent', 'http.cookie', 'http.x_forwarded_for',
    'ip.src.country', 'ip.src.continent', 'ip.src.subdivision_1_iso_code', 'ip.geoip.country', 'ip.geoip.continent', 'ip.geoip.subdivision_1_iso_code',
    'raw.http.request.uri', 'raw.http.request.uri.path', 'raw.http.request.uri.query'],
  int: ['http.request.timestamp.sec', 'ip.src.asnum', 'ip.geoip.asnum', 'cf.threat_score', 'cf.bot_management.score', 'cf.edge.server_port'],
  ip: ['ip.src'],
  bool: ['ip.src.is_in_european_union', 'ip.geoip.is_in_european_union', 'ssl', 'cf.client.bot', 'cf.bot_management.verified_bot',
    'cf.tls_client_auth.cert_verified'],
  array: ['http.request.uri.args.names', 'http.request.uri.args.values', 'http.request.headers.names', 'http.request.headers.values'],
  map: ['http.request.uri.args', 'http.request.headers', 'http.request.cookies'],
};
const FIELDS: ReadonlyMap<string, ValueType> = new Map(Object.entries(FIELDS_BY_TYPE).flatMap(([type, names]) => names.map((name): [string, ValueType] => [name, type as ValueType])));

interface FunctionSpec {
  accepts: readonly ValueType[];
  returns: ValueType;
  // starts_with/ends_with take their needle as a string literal, never as a field.
  literalArgument?: true;
}

const FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map<string, FunctionSpec>([
  ['lower', { accepts: ['string'], returns: 'string' }],
  ['upper', { accepts: ['string'], returns: 'string' }],
  ['url_decode', { accepts: ['string'], returns: 'string' }],
  ['len', { accepts: ['string', 'array'], returns: 'int' }],
  ['starts_with', { accepts: ['string'], returns: 'bool', literalArgument: true }],
  ['ends_with', { accepts: ['string'], returns: 'bool', literalArgument: true }],
]);

const OPERATORS_BY_TYPE: Record<'string' | 'int' | 'ip' | 'bool', ReadonlySet<string>> = {
  string: new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'in']),
  int: new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in']),
  ip: new Set(['eq', 'ne', 'in']),
  bool: new Set(['eq', 'ne']),
};

/** Each operator by its name (strings take every one), and the symbols that spell the same one. */
const OPERATORS: ReadonlyMap<string, string> = new Map([
  ...[...OPERATORS_BY_TYPE.string].map((op): [string, string] => [op, op]),
  ...Object.entries({ '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '~': 'matches' }),
]);

const TYPE_NAMES: Record<ValueType, string> = {
  string: 'a string', int: 'an integer', ip: 'an IP address', bool: 'a boolean', array: 'an array', map: 'a map',
};

const BINARY = [['or', '||'], ['xor', '^^'], ['and', '&&']];
const LOGICAL = new Set(['and', '&&', 'or', '||', 'xor', '^^', 'not', '!']);
const KEYWORDS = new Set([...LOGICAL, ...OPERATORS.keys(), 'strict', 'true', 'false']);

const WORD_CHAR = /[A-Za-z0-9_.:/]/;
const DIGIT = /[0-9]/;
const HEX = /[0-9A-Fa-f]/;
const INTEGER = /^-?[0-9]+$/;
const RANGE = /^(-?[0-9]+)\.\.(-?[0-9]+)$/;
const TWO_CHAR_PUNCT = new Set(['==', '!=', '<=', '>=', '&&', '||', '^^']);
// "=", "&", "|" and "^" are not operators, but lexing them lets the parser say "unknown operator".
const ONE_CHAR_PUNCT = new Set([...'<>~!(){}[],*=&|^']);

interface Token {
  kind: 'word' | 'string' | 'punct' | 'list' | 'end';
  // For strings this is the unescaped value.
  text: string;
  line: number;
  col: number;
}

interface Operand {
  type: ValueType;
  label: string;
  token: Token;
}

class ParseError extends Error {
  constructor(
    readonly line: number,
    readonly col: number,
    reason: string,
  ) {
    super(reason);
  }
}

function fail(at: { line: number; col: number }, reason: string): never {
  throw new ParseError(at.line, at.col, reason);
}

function quote(text: string): string {
  const chars = [...text];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : text);
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'end of expression';
  if (token.kind === 'string') return `string ${quote(token.text)}`;
  return quote(token.text);
}

function is(token: Token, ...texts: string[]): boolean {
  return (token.kind === 'word' || token.kind === 'punct') && texts.includes(token.text);
}

function isIpOrCidr(text: string, allowCidr: boolean): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return isIP(text) !== 0;
  if (!allowCidr) return false;
  const version = isIP(text.slice(0, slash));
  const prefix = text.slice(slash + 1);
  return version !== 0 && /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

// Columns count code points so that positions agree with the code-point length limit.
class Lexer {
  private pos = 0;
  private line = 1;
  private col = 1;

  constructor(private readonly chars: readonly string[]) {}

  next(): Token {
    while (/[ \t\r\n]/.test(this.peek())) this.take();
    const start = { line: this.line, col: this.col };
    const c = this.peek();
    if (c === '') return { kind: 'end', text: '', ...start };
    if (c === '"') return { kind: 'string', text: this.string(start), ...start };
    if (c === '$') {
      this.take();
      return { kind: 'list', text: `$${this.word()}`, ...start };
    }
    if (WORD_CHAR.test(c) || (c === '-' && DIGIT.test(this.peek(1)))) {
      return { kind: 'word', text: this.take() + this.word(), ...start };
    }
    const pair = c + this.peek(1);
    if (TWO_CHAR_PUNCT.has(pair)) {
      this.take();
      this.take();
      return { kind: 'punct', text: pair, ...start };
    }
    if (ONE_CHAR_PUNCT.has(c)) return { kind: 'punct', text: this.take(), ...start };
    return fail(start, `unexpected character ${quote(c)}`);
  }

  private peek(offset = 0): string {
    return this.chars[this.pos + offset] ?? '';
  }

  private take(): string {
    const c = this.peek();
    this.pos++;
    if (c === '\n') {
      this.line++;
      this.col = 1;
    } else {
      this.col++;
    }
    return c;
  }

  private word(): string {
    let text = '';
    while (WORD_CHAR.test(this.peek())) text += this.take();
    return text;
  }

  private string(start: { line: number; col: number }): string {
    this.take();
    let value = '';
    for (;;) {
      const at = { line: this.line, col: this.col };
      const c = this.take();
      if (c === '') return fail(start, 'unterminated string');
      if (c === '"') return value;
      if (c !== '\\') {
        value += c;
        continue;
      }
      const escaped = this.take();
      if (escaped === '"' || escaped === '\\') {
        value += escaped;
      } else if (escaped === 'x' && HEX.test(this.peek()) && HEX.test(this.peek(1))) {
        value += String.fromCharCode(parseInt(this.take() + this.take(), 16));
      } else if (escaped === '') {
        return fail(start, 'unterminated string');
      } else {
        return fail(at, `invalid escape ${quote(`\\${escaped}`)} in string`);
      }
    }
  }
}

class Parser {
  readonly fields: string[] = [];
  usesRegex = false;
  private token: Token;
  private depth = 0;
  private insideAnyOrAll = 0;

  constructor(private readonly lexer: Lexer) {
    this.token = lexer.next();
  }

  parse(): void {
    this.parseOr();
    const t = this.token;
    if (t.kind === 'end') return;
    if (is(t, ')')) fail(t, 'unbalanced parentheses: unexpected ")"');
    if (is(t, '}')) fail(t, 'unbalanced braces: unexpected "}"');
    fail(t, `unexpected ${describe(t)} after the end of the expression`);
  }

  private advance(): Token {
    const t = this.token;
    this.token = this.lexer.next();
    return t;
  }

  /** A run of binary operators of precedence `level` and above (BINARY: or, then xor, then and). */
  private parseOr(level = 0): void {
    const operand = () => (level + 1 < BINARY.length ? this.parseOr(level + 1) : this.parseNot());
    operand();
    while (is(this.token, ...BINARY[level]!)) {
      this.expectOperand(this.advance());
      operand();
    }
  }

  private parseNot(): void {
    if (!is(this.token, 'not', '!')) return this.parsePrimary();
    const not = this.advance();
    this.expectOperand(not);
    this.nested(not, () => this.parseNot());
  }

  private parsePrimary(): void {
    if (!is(this.token, '(')) return this.parseComparison();
    const open = this.advance();
    this.nested(open, () => this.parseOr());
    this.close(open, ')');
  }

  private expectOperand(after: Token): void {
    if (this.token.kind === 'end' || is(this.token, ')')) {
      fail(after, `missing expression after ${quote(after.text)}`);
    }
  }

  private parseComparison(): void {
    const operand = this.parseOperand();
    if (operand.type === 'map') fail(operand.token, `${quote(operand.label)} is a map; select a value with ["name"]`);
    if (operand.type === 'array') {
      fail(operand.token, `${quote(operand.label)} is an array; select an element with [0] or [*]`);
    }
    const type = operand.type;

    const opToken = this.token;
    const op = this.readOperator();
    if (op === undefined) {
      const t = this.token;
      if (t.kind === 'word' && !LOGICAL.has(t.text)) fail(t, `unknown operator ${quote(t.text)}`);
      if (type === 'bool') return;
      const endsTerm = t.kind === 'end' || is(t, ')', ...LOGICAL);
      if (!endsTerm) fail(t, `expected an operator after ${quote(operand.label)}, found ${describe(t)}`);
      fail(operand.token, `${quote(operand.label)} is ${TYPE_NAMES[type]}, not a boolean; compare it with an operator`);
    }

    if (!OPERATORS_BY_TYPE[type].has(op)) {
      fail(opToken, `operator ${quote(opToken.text)} cannot be used with ${TYPE_NAMES[type]}`);
    }
    if (op === 'matches') this.usesRegex = true;
    if (op === 'in') this.parseSet(opToken, type);
    else this.parseValue(opToken, type);
  }

  private readOperator(): string | undefined {
    if (is(this.token, 'strict')) {
      this.advance();
      if (!is(this.token, 'wildcard')) fail(this.token, `expected "wildcard" after "strict", found ${describe(this.token)}`);
      this.advance();
      return 'wildcard';
    }
    const op = this.token.kind === 'word' || this.token.kind === 'punct' ? OPERATORS.get(this.token.text) : undefined;
    if (op !== undefined) this.advance();
    return op;
  }

  private parseOperand(): Operand {
    const t = this.token;
    if (t.kind !== 'word' || KEYWORDS.has(t.text) || !/^[A-Za-z_]/.test(t.text)) {
      fail(t, `expected a field or function, found ${describe(t)}`);
    }
    this.advance();
    if (is(this.token, '(')) return this.parseCall(t);
    const type = FIELDS.get(t.text);
    if (type === undefined) fail(t, `unknown field ${quote(t.text)}`);
    if (!this.fields.includes(t.text)) this.fields.push(t.text);
    return this.parseIndexes({ type, label: t.text, token: t });
  }

  private parseIndexes(operand: Operand): Operand {
    while (is(this.token, '[')) {
      const open = this.advance();
      const key = this.token;
      let label: string;
      if (operand.type === 'map' && key.kind === 'string') {
        label = JSON.stringify(key.text);
      } else if (operand.type === 'array' && key.kind === 'word' && /^[0-9]+$/.test(key.text)) {
        label = key.text;
      } else if (operand.type === 'array' && is(key, '*')) {
        // Unpacking yields one result per element, which only any()/all() can fold back into a boolean.
        if (this.insideAnyOrAll === 0) fail(key, '[*] can only be used inside any() or all()');
        label = '*';
      } else if (operand.type === 'map') {
        fail(key, `expected a string key in ${quote(`${operand.label}[...]`)}, found ${describe(key)}`);
      } else if (operand.type === 'array') {
        fail(key, `expected an index or * in ${quote(`${operand.label}[...]`)}, found ${describe(key)}`);
      } else {
        fail(open, `${quote(operand.label)} is ${TYPE_NAMES[operand.type]} and cannot be indexed`);
      }
      this.advance();
      this.close(open, ']');
      operand = {
        type: operand.type === 'map' ? 'array' : 'string',
        label: `${operand.label}[${label}]`,
        token: operand.token,
      };
    }
    return operand;
  }

  private parseCall(name: Token): Operand {
    const open = this.advance();
    if (name.text === 'any' || name.text === 'all') {
      this.nested(open, () => {
        this.insideAnyOrAll++;
        this.parseOr();
        this.insideAnyOrAll--;
      });
      this.close(open, ')');
      return { type: 'bool', label: `${name.text}(...)`, token: name };
    }

    const spec = FUNCTIONS.get(name.text);
    if (spec === undefined) fail(name, `unknown function ${quote(name.text)}`);
    const argument = this.nested(open, () => this.parseOperand());
    if (!spec.accepts.includes(argument.type)) {
      fail(argument.token, `${name.text}() does not accept ${TYPE_NAMES[argument.type]} argument`);
    }
    if (spec.literalArgument) {
      if (!is(this.token, ',')) fail(this.token, `expected "," in ${name.text}(), found ${describe(this.token)}`);
      this.advance();
      if (this.token.kind !== 'string') {
        fail(this.token, `${name.text}() needs a string as its second argument, found ${describe(this.token)}`);
      }
      this.advance();
    }
    this.close(open, ')');
    return { type: spec.returns, label: `${name.text}(${argument.label})`, token: name };
  }

  private parseValue(op: Token, type: 'string' | 'int' | 'ip' | 'bool'): void {
    const t = this.token;
    if (t.kind === 'end' || is(t, ')', ...LOGICAL)) fail(op, `missing value after ${quote(op.text)}`);
    const fits =
      type === 'string'
        ? t.kind === 'string'
        : t.kind === 'word' &&
          (type === 'int'
            ? INTEGER.test(t.text)
            : type === 'ip'
              ? isIpOrCidr(t.text, false)
              : t.text === 'true' || t.text === 'false');
    if (!fits) fail(t, `expected ${TYPE_NAMES[type]} after ${quote(op.text)}, found ${describe(t)}`);
    this.advance();
  }

  private parseSet(op: Token, type: 'string' | 'int' | 'ip' | 'bool'): void {
    const open = this.token;
    if (open.kind === 'end') fail(op, `missing set after ${quote(op.text)}`);
    if (open.kind === 'list') fail(open, `named lists such as ${quote(open.text)} are not supported; "in" needs a set like {...}`);
    if (!is(open, '{')) fail(open, `"in" needs a set like {...}, found ${describe(open)}`);
    this.advance();

    const expected =
      type === 'string' ? 'strings' : type === 'int' ? 'integers or ranges' : 'IP addresses or CIDRs';
    let count = 0;
    while (!is(this.token, '}')) {
      const t = this.token;
      if (t.kind === 'end') fail(open, 'unbalanced braces: "{" is never closed');
      if (is(t, ',')) fail(t, 'set values are separated by spaces, not commas');
      const range = t.kind === 'word' ? RANGE.exec(t.text) : null;
      const fits =
        type === 'string'
          ? t.kind === 'string'
          : t.kind === 'word' &&
            (type === 'int' ? INTEGER.test(t.text) || range !== null : type === 'ip' && isIpOrCidr(t.text, true));
      if (!fits) fail(t, `expected ${expected} in the set, found ${describe(t)}`);
      if (range && Number(range[1]) > Number(range[2])) fail(t, `range ${quote(t.text)} ends before it starts`);
      this.advance();
      count++;
    }
    if (count === 0) fail(open, 'empty set');
    this.advance();
  }

  private close(open: Token, closer: ')' | ']'): void {
    if (is(this.token, closer)) {
      this.advance();
      return;
    }
    if (this.token.kind === 'end') {
      const what = closer === ')' ? 'parentheses' : 'brackets';
      fail(open, `unbalanced ${what}: ${quote(open.text)} is never closed`);
    }
    fail(this.token, `expected ${quote(closer)}, found ${describe(this.token)}`);
  }

  private nested<T>(at: Token, parse: () => T): T {
    if (++this.depth > MAX_NESTING) fail(at, `expression is nested more than ${MAX_NESTING} levels deep`);
    const result = parse();
    this.depth--;
    return result;
  }
}

export function checkExpression(expression: string): ExpressionCheck {
  const chars = [...expression];
  const failure = (line: number, col: number, reason: string): ExpressionCheck =>
    ({ ok: false, message: `Filter parsing error (${line}:${col}): ${reason}` });
  if (chars.length > MAX_EXPRESSION_CHARACTERS) {
    return failure(1, 1, `expression is longer than ${MAX_EXPRESSION_CHARACTERS} characters`);
  }
  if (/^[ \t\r\n]*$/.test(expression)) return failure(1, 1, 'expression is empty');
  try {
    const parser = new Parser(new Lexer(chars));
    parser.parse();
    return { ok: true, fields: parser.fields, usesRegex: parser.usesRegex };
  } catch (error) {
    if (error instanceof ParseError) return failure(error.line, error.col, error.message);
    throw error;
  }
}
