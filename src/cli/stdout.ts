import { writeSync } from 'node:fs';

/**
 * Standard output written synchronously, waiting while a pipe is full. Node's process.stdout queues in memory what a
 * pipe cannot take at once, and a synchronous loop (an audit's 200,000 findings as JSON) never lets it drain: piped,
 * the audit of 5 huge zones peaked at 464 MiB instead of 279. Once the reader has gone (EPIPE: `zonewarden audit |
 * head`), the rest is dropped, as other command-line tools do.
 */

let readerGone = false;
const pause = new Int32Array(new SharedArrayBuffer(4));

export function writeStdout(text: string): void {
  if (readerGone || text === '') return;
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written, bytes.length - written);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A non-blocking pipe that is full: wait a little for the reader.
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 2);
      else if (code === 'EPIPE') {
        readerGone = true;
        return;
      } else throw err;
    }
  }
}
