import { afterEach } from 'vitest';
import { startDnsServer, type RunningDnsServer } from '../../src/emulator/dns/server.js';
import type { AnswerRecord } from '../../src/emulator/dns/wire.js';

/**
 * A real DNS server over UDP on 127.0.0.1 (a free port), answering from a table: a name listed
 * answers its records of the type asked (NOERROR with none: NODATA), a name set to `servfail`
 * answers SERVFAIL, one set to `silent` never answers, and every other name is NXDOMAIN. Tests of
 * DNS resolution ask it, never the internet. Names are compared in lower case without the final dot.
 */
export type TableEntry = readonly AnswerRecord[] | 'servfail' | 'silent';

export interface TableDnsServer extends RunningDnsServer {
  /** Sets (or replaces) a name's entry. */
  set(name: string, entry: TableEntry): void;
}

export async function startTableDnsServer(table: Record<string, TableEntry> = {}): Promise<TableDnsServer> {
  const entries = new Map<string, TableEntry>();
  const key = (name: string) => name.toLowerCase().replace(/\.$/, '');
  for (const [name, entry] of Object.entries(table)) entries.set(key(name), entry);
  const server = await startDnsServer((q) => {
    const entry = entries.get(q.name);
    if (entry === undefined) return { rcode: 'nxdomain' };
    if (entry === 'servfail') return { rcode: 'servfail' };
    if (entry === 'silent') return { rcode: 'silent' };
    // A CNAME at the name answers any type (RFC 1034 3.6.2); else the records of the type asked.
    const cname = entry.filter((r) => r.type === 'CNAME');
    const asked = entry.filter((r) => TYPE_OF[r.type] === q.type);
    return { rcode: 'noerror', records: asked.length ? asked : cname };
  });
  return { ...server, close: () => server.close(), set: (name, entry) => void entries.set(key(name), entry) };
}

const TYPE_OF: Record<AnswerRecord['type'], number> = { A: 1, NS: 2, CNAME: 5, MX: 15, AAAA: 28 };

/** Table servers started by a test, closed after it. */
export function dnsServersClosedAfterEach(): (table?: Record<string, TableEntry>) => Promise<TableDnsServer> {
  const started: TableDnsServer[] = [];
  afterEach(async () => {
    for (const s of started.splice(0)) await s.close();
  });
  return async (table = {}) => {
    const s = await startTableDnsServer(table);
    started.push(s);
    return s;
  };
}
