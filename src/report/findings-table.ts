import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { label } from '../drift/words.js';
import { resourceText, type Finding } from '../policy/findings.js';
import { printable } from '../common/printable.js';

/**
 * The HTML report's findings for the page script (templates/report.js): JSON `{columns, rows}`,
 * gzipped and base64-encoded. Streamed from the database cursor through gzip, so a 150,000-finding
 * report never holds their 50 MB of JSON, only the compressed few megabytes.
 */

export const FINDING_COLUMNS = ['status', 'severity', 'category', 'rule', 'account', 'zone', 'resource', 'message', 'zoneId', 'firstSeen', 'readOn'] as const;

export interface FindingsTable {
  blob: string;
}

/** Rows per piece handed to gzip: large enough to compress well, small enough to stay small. */
const ROWS_PER_PIECE = 500;

/** `firstSeen`: the start of a failure's unbroken run (ISO); `readOn`: when a carried zone was last read in full (ISO), else ''. */
export async function findingsTable(findings: Iterable<Finding>, firstSeen?: (f: Finding) => string, readOn?: (zoneId: string) => string): Promise<FindingsTable> {
  function* pieces(): Generator<string> {
    yield `{"columns":${JSON.stringify(FINDING_COLUMNS)},"rows":[`;
    let piece: string[] = [];
    let first = true;
    for (const f of findings) {
      // Shown as text in the page: bidirectional and invisible characters as visible escapes. The zone id
      // is the filter's key (never shown), so it stays as the API gave it.
      const shown = [f.account?.name ?? '', f.zone?.name ?? '', resourceText(f.resource, label), f.message].map(printable);
      piece.push(JSON.stringify([f.status, f.severity, f.category, f.rule, ...shown, f.zone?.id ?? '', firstSeen?.(f) ?? '', f.zone && readOn ? readOn(f.zone.id) : '']));
      if (piece.length === ROWS_PER_PIECE) {
        yield `${first ? '' : ','}${piece.join(',')}`;
        first = false;
        piece = [];
      }
    }
    if (piece.length) yield `${first ? '' : ','}${piece.join(',')}`;
    yield ']}';
  }
  const gzip = createGzip();
  const compressed: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = once(gzip, 'end');
  for (const piece of pieces()) if (!gzip.write(piece)) await once(gzip, 'drain');
  gzip.end();
  await ended;
  return { blob: Buffer.concat(compressed).toString('base64') };
}
