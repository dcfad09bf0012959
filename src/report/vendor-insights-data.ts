import { VENDOR_INSIGHT_TYPES } from '../cloudflare/security-insights/insight-types.js';
import { accountDeployments } from '../policy/checks/managed-phase-view.js';
import { best } from '../cloudflare/rulesets/managed-phase.js';
import { MANAGED_RULESET_ID } from '../cloudflare/waf-migration/config.js';
import { auditFindings } from '../audit/store.js';
import { ZoneView } from '../policy/zone-view.js';
import type { Db } from '../snapshot/db.js';
import type { SnapshotReader, ZoneRow } from '../snapshot/reader.js';
import type { ReportData } from './report-data.js';
import { pairInsights, type AccountSide, type SideBySide, type ZoneFinding, type ZoneSide } from './vendor-insights.js';
import { parseIssue, type VendorIssue } from '../cloudflare/security-insights/issue.js';

/**
 * Gathers the side-by-side's inputs from a stored scan and audit (vendor-insights.ts decides): each
 * account's open insights, the findings of mapped rules, and for flagged zones what the snapshot dates
 * and whether the account deploys the managed ruleset. Null when the scan read no account's insights.
 */

/** vendor docs: Security Insights, known limitations: no account view above 10,000 zones. */
const ACCOUNT_VIEW_ZONE_LIMIT = 10_000;

/** Every rule an insight type maps to: only their findings are read. */
const MAPPED_RULES = new Set(VENDOR_INSIGHT_TYPES.flatMap((t) => t.rules));

export function sideBySideOf(db: Db, reader: SnapshotReader, data: Pick<ReportData, 'audit' | 'view'>): SideBySide | null {
  const zones = data.view.zones;
  const byAccount = new Map<string, number>();
  for (const z of reader.zones()) if (z.accountId !== null) byAccount.set(z.accountId, (byAccount.get(z.accountId) ?? 0) + 1);
  const inView = new Set(zones.map((z) => z.accountId));
  const accounts: AccountSide[] = [];
  const issues: VendorIssue[] = [];
  const names = accountNames(reader);
  for (const [accountId, total] of byAccount) {
    if (!inView.has(accountId)) continue;
    const coverage = reader.coverageOf('account', accountId, 'security_insights');
    const base = { id: accountId, name: names.get(accountId) ?? null, zones: total };
    if (!coverage) {
      accounts.push({ ...base, state: 'not-read', reason: 'not read by this scan' });
      continue;
    }
    const read = reader.accountObjects(accountId, 'security_insights');
    if (!read.known) {
      accounts.push({ ...base, state: read.state === 'denied' ? 'denied' : read.state === 'not-read' ? 'not-read' : 'failed', reason: read.reason });
      continue;
    }
    if (total > ACCOUNT_VIEW_ZONE_LIMIT) {
      accounts.push({ ...base, state: 'too-large', reason: `the vendor gives no account view above ${ACCOUNT_VIEW_ZONE_LIMIT.toLocaleString('en-US')} zones` });
      continue;
    }
    accounts.push({ ...base, state: 'read', reason: null });
    for (const row of read.items) {
      const issue = parseIssue(row.raw, accountId);
      if (issue) issues.push(issue);
    }
  }
  if (accounts.every((a) => a.state === 'not-read')) return null;
  const findings = findingsByZone(db, data.audit.auditId);
  const flagged = new Set(issues.map((i) => i.zoneId));
  const sides: ZoneSide[] = zones.map((z) => ({
    id: z.id,
    name: z.name,
    accountId: z.accountId,
    plan: z.plan,
    findings: findings.get(z.id) ?? [],
    // Asked only of zones the vendor flags: the grounds of a difference are read where one can be.
    managedAtAccount: flagged.has(z.id) ? managedAtAccount(reader, z) : null,
    changed: flagged.has(z.id) ? datedChanges(reader, z.id) : [],
  }));
  return pairInsights({ issues, accounts, zones: sides, rulesRan: new Set(data.audit.rules.map((r) => r.id)) });
}

function accountNames(reader: SnapshotReader): Map<string, string> {
  const read = reader.accounts();
  return new Map(read.known ? read.items.filter((a) => a.name !== null).map((a) => [a.id, a.name as string]) : []);
}

function findingsByZone(db: Db, auditId: number): Map<string, ZoneFinding[]> {
  const byZone = new Map<string, ZoneFinding[]>();
  for (const f of auditFindings(db, auditId)) {
    if (!f.zone || !MAPPED_RULES.has(f.rule)) continue;
    const list = byZone.get(f.zone.id) ?? [];
    list.push({ rule: f.rule, status: f.status as ZoneFinding['status'], severity: f.severity, resourceName: f.resource.type === 'zone' ? f.zone.name : (f.resource.name ?? f.resource.id), message: f.message, messageId: f.messageId });
    byZone.set(f.zone.id, list);
  }
  return byZone;
}

/** The account-level rule that deploys the managed ruleset to the zone and runs (as managed-ruleset-not-deployed reads it), if one does. */
function managedAtAccount(reader: SnapshotReader, zone: ZoneRow): string | null {
  const view = new ZoneView(reader, zone, null);
  const found = accountDeployments(view, { name: zone.name, plan: zone.plan }, MANAGED_RULESET_ID);
  if (!found.known) return null;
  const deployment = best(found.items);
  return deployment?.outcome.kind === 'runs' ? deployment.rule.description || deployment.rule.id : null;
}

/** What the API dates of the zone's configuration: each setting's modified_on, the managed entry point's last_updated. */
function datedChanges(reader: SnapshotReader, zoneId: string): Array<{ what: string; at: string }> {
  const items = (partition: 'zone_settings' | 'entrypoint') => {
    const read = reader.zoneObject(zoneId, partition);
    return read.known ? read.items.map((row) => JSON.parse(row.raw) as Record<string, unknown>) : [];
  };
  const settings = items('zone_settings').filter(
    (s) => typeof s['id'] === 'string' && typeof s['modified_on'] === 'string' && s['modified_on'] !== '',
  );
  const entrypoints = items('entrypoint').filter((e) => typeof e['last_updated'] === 'string');
  return [
    ...settings.map((s) => ({ what: `setting ${s['id'] as string}`, at: s['modified_on'] as string })),
    ...entrypoints.map((e) => ({ what: 'the managed rules entry point', at: e['last_updated'] as string })),
  ];
}
