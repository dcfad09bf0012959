import { ApiError } from '../api/errors.js';
import type { Redact } from '../common/redact.js';
import type { Db } from '../snapshot/db.js';

/** The audit log of the write commands: one row per API write, written as it ends, whatever its outcome. */

export interface ActionEntry {
  command: string;
  /** What was done, e.g. `invite.accept`, `filter.create`, `rule.create`, `migration.pending`. */
  action: string;
  target: { type: string; id: string | null; name: string | null };
  zone?: { id: string; name: string } | null;
  outcome: 'ok' | 'failed';
  httpStatus?: number | null;
  apiCodes?: number[];
  message?: string | null;
  detail?: Record<string, unknown>;
}

export interface ActionRow extends Required<Omit<ActionEntry, 'zone'>> {
  id: number;
  at: string;
  zone: { id: string; name: string } | null;
}

export class ActionLog {
  constructor(
    private readonly db: Db,
    private readonly redact: Redact,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private redactOrNull(text: string | null | undefined): string | null {
    return text === undefined || text === null ? null : this.redact(text);
  }

  record(entry: ActionEntry): void {
    this.db
      .prepare(
        `INSERT INTO actions (at, command, action, target_type, target_id, target_name, zone_id, zone_name, outcome, http_status, api_codes, message, detail)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        this.clock().toISOString(),
        entry.command,
        entry.action,
        entry.target.type,
        // Ids and names come from the API or the command line: a credential echoed in one is redacted as everywhere.
        this.redactOrNull(entry.target.id),
        this.redactOrNull(entry.target.name),
        this.redactOrNull(entry.zone?.id),
        this.redactOrNull(entry.zone?.name),
        entry.outcome,
        entry.httpStatus ?? null,
        JSON.stringify(entry.apiCodes ?? []),
        this.redactOrNull(entry.message),
        this.redact(JSON.stringify(entry.detail ?? {})),
      );
  }

  /** Records a failed write from the error the client raised. */
  recordFailure(entry: Omit<ActionEntry, 'outcome' | 'httpStatus' | 'apiCodes' | 'message'>, err: unknown): void {
    this.record({ ...entry, outcome: 'failed', ...failureOf(err) });
  }
}

/** What a failed write's error says: the HTTP status and the API's error codes (when the API answered), and its message. */
export function failureOf(err: unknown): { httpStatus: number | null; apiCodes: number[]; message: string } {
  const api = err instanceof ApiError ? err : null;
  const apiCodes = api ? api.apiErrors.flatMap((e) => (e.code === undefined ? [] : [e.code])) : [];
  return { httpStatus: api?.status ?? null, apiCodes, message: err instanceof Error ? err.message : String(err) };
}

export function listActions(db: Db, limit = 100): ActionRow[] {
  const rows = db.prepare('SELECT * FROM actions ORDER BY id DESC LIMIT ?').all(limit) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    id: r['id'] as number,
    at: r['at'] as string,
    command: r['command'] as string,
    action: r['action'] as string,
    target: { type: r['target_type'] as string, id: r['target_id'] as string | null, name: r['target_name'] as string | null },
    zone: r['zone_id'] === null ? null : { id: r['zone_id'] as string, name: r['zone_name'] as string },
    outcome: r['outcome'] as 'ok' | 'failed',
    httpStatus: r['http_status'] as number | null,
    apiCodes: JSON.parse(r['api_codes'] as string) as number[],
    message: r['message'] as string | null,
    detail: JSON.parse(r['detail'] as string) as Record<string, unknown>,
  }));
}
