/**
 * Just enough of the DNS message format (RFC 1035 4.1) for a loopback server that answers one
 * question: the question read from a query, and an answer written for it.
 */

export const RCODE = { noError: 0, serverFailure: 2, nameError: 3, refused: 5 } as const;
export const TYPE: Readonly<Record<string, number>> = { A: 1, NS: 2, CNAME: 5, MX: 15, TXT: 16, AAAA: 28, SRV: 33 };

export interface Question {
  id: number;
  /** Lower case, without the final dot. */
  name: string;
  type: number;
  /** The question section as it came, echoed in the answer. */
  raw: Buffer;
  recursionDesired: boolean;
}

/** A record of an answer: `value` an address for A/AAAA, a host name for CNAME/NS, `pref host` for MX. */
export interface AnswerRecord {
  type: 'A' | 'AAAA' | 'CNAME' | 'NS' | 'MX';
  value: string;
}

export function readQuestion(msg: Buffer): Question | null {
  if (msg.length < 12 || msg.readUInt16BE(4) < 1) return null;
  const labels: string[] = [];
  let at = 12;
  while (at < msg.length) {
    const len = msg[at]!;
    if (len === 0) break;
    if (len > 63 || at + 1 + len > msg.length) return null;
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('latin1'));
    at += 1 + len;
  }
  if (at + 5 > msg.length) return null;
  const type = msg.readUInt16BE(at + 1);
  return { id: msg.readUInt16BE(0), name: labels.join('.').toLowerCase(), type, raw: msg.subarray(12, at + 5), recursionDesired: (msg[2]! & 0x01) === 1 };
}

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'latin1')])), Buffer.from([0])]);
}

function rdata(r: AnswerRecord): Buffer {
  switch (r.type) {
    case 'A':
      return Buffer.from(r.value.split('.').map(Number));
    case 'AAAA': {
      const [head, tail = ''] = r.value.split('::');
      const h = head ? head.split(':') : [];
      const t = tail ? tail.split(':') : [];
      const groups = r.value.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
      const out = Buffer.alloc(16);
      groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
      return out;
    }
    case 'MX': {
      const [pref, host] = r.value.split(/\s+/);
      const out = Buffer.alloc(2);
      out.writeUInt16BE(Number(pref));
      return Buffer.concat([out, encodeName(host ?? '')]);
    }
    default:
      return encodeName(r.value);
  }
}

/** The answer to a question: its id, the question echoed, the records under the question's name (pointer 0xC00C). */
export function writeAnswer(q: Question, rcode: number, records: readonly AnswerRecord[] = []): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(q.id, 0);
  // QR, AA, RD as asked, RA; the response code in the low bits.
  header.writeUInt16BE(0x8000 | 0x0400 | (q.recursionDesired ? 0x0100 : 0) | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((r) => {
    const data = rdata(r);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0);
    fixed.writeUInt16BE(TYPE[r.type]!, 2);
    fixed.writeUInt16BE(1, 4);
    fixed.writeUInt32BE(300, 6);
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  return Buffer.concat([header, q.raw, ...answers]);
}
