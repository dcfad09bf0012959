/**
 * What a verdict points at, and how accounts and zones are named beside it. In a module of its own
 * because the rule contract (rule.ts), the findings (findings.ts) and the zone's view (zone-view.ts)
 * all speak of them, and the view must not depend on the contract that hands it to the rules.
 */

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
