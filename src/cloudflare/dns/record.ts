/** A DNS record as the checks read it (`GET /zones/{id}/dns_records`): its columns, without the bulky raw JSON. */
export interface DnsRecordFields {
  id: string;
  type: string | null;
  name: string | null;
  /** As served: null when the API sent none (a CAA record may come with `data` only). */
  content: string | null;
  /** The structured `data` (CAA `{flags, tag, value}`) of a record served without content; else null (no need for both). */
  data: Record<string, unknown> | null;
  proxied: boolean | null;
  ttl: number | null;
}
