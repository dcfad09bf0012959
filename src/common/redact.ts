/**
 * The one place that removes credentials from text: every log line, error message and output
 * passes through a redactor built from the secrets in the environment.
 */
export type Redact = (text: string) => string;

export const REDACTED = '[redacted]';

/** Values shorter than this are not replaced: they would match ordinary text. */
const MIN_SECRET_LENGTH = 4;

export function createRedactor(values: readonly string[]): Redact {
  const secrets = [...new Set(values.filter((v) => v.length >= MIN_SECRET_LENGTH))]
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length)
    .flatMap((v) => [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)])
    .filter((v, i, all) => all.indexOf(v) === i);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
}
