/** What a verdict points at, and how accounts and zones are named: shared by rule.ts, findings.ts and zone-view.ts. */

/** What a finding points at. `id` is stable across scans: it feeds the fingerprint. */
export interface ResourceRef {
  type: string;
  id: string;
  name: string | null;
}

/** An account or a zone as a finding names it: its id, and its name when the scan knew it. */
export interface Named {
  id: string;
  name: string | null;
}
