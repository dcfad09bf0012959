/**
 * Texts gathered into writes of about 64 KB. Reports and listings can hold 100,000s of findings:
 * they are never built as one string, and one write per line would cost more than the lines.
 */
export function chunkedWriter(write: (text: string) => void): { push: (text: string) => void; flush: () => void } {
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (pending.length) write(pending.join(''));
    pending = [];
    size = 0;
  };
  return {
    push: (text) => {
      pending.push(text);
      size += text.length;
      if (size >= 65_536) flush();
    },
    flush,
  };
}
