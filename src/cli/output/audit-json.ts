import type { AuditResult } from '../../policy/audit.js';

/** The audit as JSON for other tools; `schema` changes only with a new version number. */
export const AUDIT_JSON_SCHEMA = 'zonewarden.audit/1';

export function auditJson(result: AuditResult, options: { passes: boolean; failOn: string; exitCode: number }): string {
  return `${JSON.stringify(
    {
      schema: AUDIT_JSON_SCHEMA,
      scan: { id: result.scan.id, startedAt: result.scan.startedAt, finishedAt: result.scan.finishedAt, status: result.scan.status },
      zones: result.zones,
      rules: result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity ?? r.rule.meta.severity, options: r.options })),
      failOn: options.failOn,
      exitCode: options.exitCode,
      counts: result.counts,
      findings: result.findings.filter((f) => options.passes || f.status !== 'pass'),
      waivers: result.waivers,
      errors: result.errors,
    },
    null,
    2,
  )}\n`;
}
