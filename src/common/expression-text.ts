/**
 * A rules-language expression split into code and string literals, for questions asked without
 * parsing it: whitespace inside a string counts, and an operator named inside one is data.
 * Strings are `"..."` with backslash escapes, and raw strings `r"..."` / `r#"..."#` without.
 */
export interface Segment {
  text: string;
  quoted: boolean;
}

export function segments(expression: string): Segment[] {
  const out: Segment[] = [];
  let code = '';
  let i = 0;
  const flush = () => {
    if (code !== '') out.push({ text: code, quoted: false });
    code = '';
  };
  while (i < expression.length) {
    const raw = /^r(#*)"/.exec(expression.slice(i, i + 260));
    const prev = i > 0 ? expression[i - 1]! : ' ';
    if (raw && !/[\w.]/.test(prev)) {
      const close = `"${raw[1]}`;
      const end = expression.indexOf(close, i + raw[0].length);
      const stop = end === -1 ? expression.length : end + close.length;
      flush();
      out.push({ text: expression.slice(i, stop), quoted: true });
      i = stop;
    } else if (expression[i] === '"') {
      let j = i + 1;
      while (j < expression.length && expression[j] !== '"') j += expression[j] === '\\' ? 2 : 1;
      const stop = Math.min(j + 1, expression.length);
      flush();
      out.push({ text: expression.slice(i, stop), quoted: true });
      i = stop;
    } else {
      code += expression[i];
      i++;
    }
  }
  flush();
  return out;
}

/** The expression with runs of whitespace between tokens made one space, and strings left exactly as written. */
export function normaliseExpression(expression: string): string {
  return segments(expression)
    .map((s) => (s.quoted ? s.text : s.text.replace(/\s+/g, ' ')))
    .join('')
    .trim();
}

/** Whether the expression uses a regular expression (the `matches` operator, or `~`), outside strings. */
export function usesRegex(expression: string): boolean {
  return segments(expression).some((s) => !s.quoted && /\bmatches\b|~/.test(s.text));
}
