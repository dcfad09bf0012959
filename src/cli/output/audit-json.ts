import type { AuditResult } from '../../policy/audit.js';
import type { Finding } from '../../policy/findings.js';

/** The audit as JSON for other tools; `schema` changes only with a new version number. */
export const AUDIT_JSON_SCHEMA = 'zonewarden.audit/1';

/**
 * Writes the audit as one JSON document, the findings last and one per line: written in chunks,
 * so that 100,000s of findings never become one string in memory, and easy to grep or diff.
 */
export function writeAuditJson(result: AuditResult, findings: Iterable<Finding>, options: { failOn: string; exitCode: number }, write: (text: string) => void): void {
  const head = JSON.stringify(
    {
      schema: AUDIT_JSON_SCHEMA,
      scan: { id: result.scan.id, startedAt: result.scan.startedAt, finishedAt: result.scan.finishedAt, status: result.scan.status },
      zones: result.zones,
      rules: result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity ?? r.rule.meta.severity, options: r.options })),
      failOn: options.failOn,
      exitCode: options.exitCode,
      counts: result.counts,
      waivers: result.waivers,
      errors: result.errors,
    },
    null,
    2,
  );
  write(`${head.slice(0, -2)},\n  "findings": [`);
  let n = 0;
  let chunk: string[] = [];
  for (const f of findings) {
    chunk.push(`${n++ === 0 ? '' : ','}\n    ${JSON.stringify(f)}`);
    if (chunk.length === 1000) {
      write(chunk.join(''));
      chunk = [];
    }
  }
  write(chunk.join(''));
  write(`${n ? '\n  ' : ''}]\n}\n`);
}
