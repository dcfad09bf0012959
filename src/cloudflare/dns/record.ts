/**
 * A DNS record as the checks read it (`GET /zones/{id}/dns_records`): the fields they use, without
 * the raw JSON (the bulk of a stored row), as the snapshot keeps them in columns.
 */
export interface DnsRecordFields {
  id: string;
  type: string | null;
  name: string | null;
  /** As served: null when the API sent none (a CAA record may come with `data` only). */
  content: string | null;
  /**
   * The record's structured `data` as served (CAA `{flags, tag, value}`), for a record served
   * without content, whose meaning is then there only; null for a record with content (its
   * content says it, and a zone's million records need not carry both) or without data.
   */
  data: Record<string, unknown> | null;
  proxied: boolean | null;
  ttl: number | null;
}
