import { insightTypeOf, VENDOR_INSIGHT_TYPES, type VendorInsightType } from '../cloudflare/security-insights/insight-types.js';
import type { VendorIssue } from '../cloudflare/security-insights/issue.js';

export type { VendorIssue };

/**
 * The vendor's scanner (Security Insights) side by side with zonewarden: each open insight paired with
 * zonewarden's verdict on the same zone and resource, for every insight type a rule that ran judges
 * (src/cloudflare/security-insights/insight-types.ts), and each zonewarden failure the vendor does not
 * flag. Pure: vendor-insights-data.ts gathers. The vendor's documented limits decide the grounds:
 * - vendor docs: Security Insights, known limitations: account-level managed rules can go unseen;
 * - vendor docs: Security Insights, known limitations: a managed ruleset in log mode counts as deployed;
 * - vendor docs: Security Insights, how it works: a scan every 7 days (Free), 3 (Pro, Business) or daily (Enterprise);
 * - vendor docs: Security Insights, known limitations: no account view above 10,000 zones.
 */

/** A zonewarden finding of a mapped rule, as the pairing needs it. */
export interface ZoneFinding {
  rule: string;
  status: 'fail' | 'unknown' | 'waived';
  severity: string;
  /** The resource's name (a DNS record's, say); the zone's own for the zone. */
  resourceName: string | null;
  message: string;
  messageId: string | null;
}

/** What the snapshot says of a zone, for the grounds of a difference. */
export interface ZoneSide {
  id: string;
  name: string;
  accountId: string | null;
  plan: string | null;
  findings: ZoneFinding[];
  /** The account-level rule that deploys the managed ruleset to the zone and runs, if one does (its description or id). */
  managedAtAccount: string | null;
  /** What of the zone's configuration the API dates (a setting's modified_on, an entry point's last_updated), by name. */
  changed: ReadonlyArray<{ what: string; at: string }>;
}

/** How the vendor's view of an account was read. */
export interface AccountSide {
  id: string;
  name: string | null;
  /** `too-large`: over 10,000 zones, the vendor gives no account view. */
  state: 'read' | 'denied' | 'failed' | 'not-read' | 'too-large';
  reason: string | null;
  zones: number;
}

export type Verdict = 'fail' | 'waived' | 'unknown' | 'pass';

/** `vendor-older`: the vendor flags what zonewarden passes, and the configuration changed after the vendor's scan. */
export type Agreement = 'agree' | 'vendor-only' | 'vendor-older' | 'zonewarden-only' | 'unknown';

export interface SideBySideRow {
  zone: { id: string; name: string };
  /** The vendor's insight; null for a failure the vendor does not flag. */
  insight: VendorIssue | null;
  type: { issueClass: string | null; name: string };
  /** The zonewarden rules that judge it and ran. */
  rules: string[];
  verdict: Verdict;
  agreement: Agreement;
  why: string;
  /** zonewarden's findings on the same zone and resource (failing, waived or unknown). */
  findings: ZoneFinding[];
}

export interface SideBySide {
  accounts: AccountSide[];
  rows: SideBySideRow[];
  /** Open insights no rule that ran judges (types zonewarden does not audit, or not mapped): the vendor's, listed apart. */
  vendorOnly: Array<{ zone: { id: string; name: string } | null; insight: VendorIssue; name: string; reason: string }>;
  counts: Record<Agreement, number> & { notJudged: number };
}

export interface PairInput {
  issues: readonly VendorIssue[];
  accounts: readonly AccountSide[];
  zones: readonly ZoneSide[];
  /** The rules the audit ran. */
  rulesRan: ReadonlySet<string>;
}

const MANAGED_RULE = 'managed-ruleset-not-deployed';
const SCAN_DAYS: Record<string, number> = { free: 7, pro: 3, business: 3, enterprise: 1 };

const nameOf = (t: VendorInsightType | undefined, issueClass: string | null): string => t?.displayName ?? t?.flags ?? issueClass ?? 'insight';

export function pairInsights(input: PairInput): SideBySide {
  const zones = new Map(input.zones.map((z) => [z.id, z]));
  const viewed = new Set(input.accounts.filter((a) => a.state === 'read').map((a) => a.id));
  const rows: SideBySideRow[] = [];
  const vendorOnly: SideBySide['vendorOnly'] = [];
  /** Findings paired with an insight already, so that they are not listed again as zonewarden's alone. */
  const paired = new Set<ZoneFinding>();
  for (const issue of input.issues) {
    const zone = issue.zoneId ? zones.get(issue.zoneId) : undefined;
    const type = insightTypeOf(issue.issueClass);
    const rules = (type?.rules ?? []).filter((r) => input.rulesRan.has(r));
    const name = nameOf(type, issue.issueClass);
    if (rules.length === 0 || !zone) {
      // An insight of a zone outside this report's view is not this report's; an account-level one is listed apart.
      if (issue.zoneId && !zone) continue;
      const reason = !type
        ? 'an insight type no public source names: not mapped to any zonewarden rule'
        : type.rules.length === 0
          ? (type.reason ?? 'no zonewarden rule judges it')
          : `the rules that judge it (${type.rules.join(', ')}) did not run in this audit`;
      vendorOnly.push({ zone: zone ? { id: zone.id, name: zone.name } : null, insight: issue, name, reason });
      continue;
    }
    const findings = sameResource(zone, rules, issue.subject);
    for (const f of findings) paired.add(f);
    const verdict = verdictOf(findings);
    const row = { zone: { id: zone.id, name: zone.name }, insight: issue, type: { issueClass: issue.issueClass, name }, rules, verdict, findings };
    if (verdict === 'fail' || verdict === 'waived') rows.push({ ...row, agreement: 'agree', why: verdict === 'waived' ? 'both flag it; zonewarden\'s finding is waived' : 'both flag it' });
    else if (verdict === 'unknown') rows.push({ ...row, agreement: 'unknown', why: `zonewarden could not judge it: ${findings.find((f) => f.status === 'unknown')?.message ?? 'unknown'}` });
    else rows.push({ ...row, ...vendorFlagsPass(issue, zone, rules, type) });
  }
  for (const zone of input.zones) {
    if (zone.accountId === null || !viewed.has(zone.accountId)) continue;
    for (const f of zone.findings) {
      if (f.status !== 'fail' || paired.has(f) || !input.rulesRan.has(f.rule)) continue;
      const type = typeJudgedBy(f.rule);
      if (!type) continue;
      const named = { issueClass: type.issueClass, name: nameOf(type, type.issueClass) };
      const why = zonewardenOnlyWhy(f, type);
      const row = { zone: { id: zone.id, name: zone.name }, insight: null, type: named, rules: [f.rule], verdict: 'fail' as const };
      rows.push({ ...row, agreement: 'zonewarden-only', why, findings: [f] });
    }
  }
  const counts = { agree: 0, 'vendor-only': 0, 'vendor-older': 0, 'zonewarden-only': 0, unknown: 0, notJudged: vendorOnly.length };
  for (const r of rows) counts[r.agreement]++;
  return { accounts: [...input.accounts], rows, vendorOnly, counts };
}

/** The zone's findings of these rules about the insight's subject: the zone itself when the subject is the zone's name, else the resource of that name. */
function sameResource(zone: ZoneSide, rules: readonly string[], subject: string | null): ZoneFinding[] {
  const ofRules = zone.findings.filter((f) => rules.includes(f.rule));
  if (subject === null || subject.toLowerCase() === zone.name.toLowerCase()) return ofRules;
  const wanted = subject.toLowerCase();
  return ofRules.filter((f) => (f.resourceName ?? '').toLowerCase() === wanted);
}

/** The worst status of the findings: fail, then waived, then unknown; pass when there are none. */
const verdictOf = (findings: readonly ZoneFinding[]): Verdict =>
  (['fail', 'waived', 'unknown'] as const).find((status) => findings.some((f) => f.status === status)) ?? 'pass';

/** Why the vendor flags what zonewarden passes: a documented limit of the vendor's, a change since its scan, or zonewarden's own reading. */
function vendorFlagsPass(issue: VendorIssue, zone: ZoneSide, rules: readonly string[], type: VendorInsightType | undefined): { agreement: Agreement; why: string } {
  // vendor docs: known limitations: account-level managed rules can go unseen.
  if (rules.includes(MANAGED_RULE) && zone.managedAtAccount !== null) {
    return { agreement: 'vendor-only', why: `the managed ruleset is deployed at the account level (rule "${zone.managedAtAccount}"), which the vendor's scanner does not see` };
  }
  const at = issue.timestamp ? Date.parse(issue.timestamp) : NaN;
  const since = Number.isFinite(at) ? zone.changed.filter((c) => Date.parse(c.at) > at) : [];
  if (since.length > 0) {
    const days = zone.plan ? SCAN_DAYS[zone.plan] : undefined;
    const next = days ? `; it rescans ${days === 1 ? 'daily' : `every ${days} days`} on the ${zone.plan} plan` : '';
    return { agreement: 'vendor-older', why: `the vendor's insight is from its scan of ${issue.timestamp}, before ${since.map((c) => `${c.what} changed (${c.at})`).join(', ')}; zonewarden read the configuration since and passes it${next}` };
  }
  const partly = type?.coverage === 'partial' && type.reason ? `; zonewarden judges it in part: ${type.reason}` : '';
  return { agreement: 'vendor-only', why: `zonewarden passes it (${rules.join(', ')})${partly}${type?.differs ? `; zonewarden ${type.differs}` : ''}` };
}

/** The documented insight type a rule's failure would be flagged by: only then is the vendor's silence a difference. */
function typeJudgedBy(rule: string): VendorInsightType | undefined {
  return VENDOR_INSIGHT_TYPES.find((t) => t.documented && t.issueClass !== null && t.rules.includes(rule));
}

function zonewardenOnlyWhy(f: ZoneFinding, type: VendorInsightType): string {
  // vendor docs: known limitations: a managed ruleset in log mode still counts as deployed.
  if (f.rule === MANAGED_RULE && f.messageId === 'logOnly') return 'the managed ruleset runs in log mode, which the vendor counts as deployed';
  return `the vendor does not flag it${type.differs ? `; zonewarden ${type.differs}` : ''}`;
}
