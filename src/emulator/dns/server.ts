import { createSocket } from 'node:dgram';
import { RCODE, readQuestion, writeAnswer, type AnswerRecord, type Question } from './wire.js';

/** A loopback DNS server over UDP answering each question from a function (silent: never answers); it asks no other server. */

export type DnsReply = { rcode: 'noerror'; records?: readonly AnswerRecord[] } | { rcode: 'nxdomain' } | { rcode: 'servfail' } | { rcode: 'silent' };

export interface RunningDnsServer {
  /** `127.0.0.1:PORT`, as --resolver takes it. */
  readonly address: string;
  readonly port: number;
  /** Questions received, by name (lower case), in order. */
  readonly questions: string[];
  close(): Promise<void>;
}

export async function startDnsServer(answer: (q: Question) => DnsReply, options: { unref?: boolean } = {}): Promise<RunningDnsServer> {
  const socket = createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (msg, from) => {
    const q = readQuestion(msg);
    if (!q) return;
    questions.push(q.name);
    let reply: DnsReply;
    try {
      reply = answer(q);
    } catch {
      reply = { rcode: 'servfail' };
    }
    if (reply.rcode === 'silent') return;
    const rcode = reply.rcode === 'nxdomain' ? RCODE.nameError : reply.rcode === 'servfail' ? RCODE.serverFailure : RCODE.noError;
    socket.send(writeAnswer(q, rcode, reply.rcode === 'noerror' ? (reply.records ?? []) : []), from.port, from.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  // A server kept for the whole process (the tests' shared one) must not keep it alive.
  if (options.unref) socket.unref();
  const port = socket.address().port;
  let closed = false;
  return {
    address: `127.0.0.1:${port}`,
    port,
    questions,
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        socket.close(() => resolve());
      }),
  };
}
