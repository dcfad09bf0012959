import Database from 'better-sqlite3';
import { LIST_ENDPOINTS } from '../src/api/endpoints.js';
import { SCAN_REF_BASE } from '../src/snapshot/scan-ref.js';

/**
 * The fewest requests that could read what a scan read: for every list, its items divided by the
 * endpoint's largest page, rounded up (at least one call: an empty list still has to be asked),
 * plus one call per single object and per zone setting; a partition carried forward from an
 * earlier scan costs none. Worked out from the scan's own coverage record, so it counts
 * the lists zonewarden reads (zones per account, WAF groups and rules per package).
 */
export interface Minimum {
  lists: number;
  listCalls: number;
  singles: number;
  minimum: number;
}

const LIST_PAGE: Record<string, number> = {
  accounts: LIST_ENDPOINTS.accounts.maxPerPage,
  zones: LIST_ENDPOINTS.zones.maxPerPage,
  dns_records: LIST_ENDPOINTS.dnsRecords.maxPerPage,
  certificate_packs: LIST_ENDPOINTS.certificatePacks.maxPerPage,
  firewall_rules: LIST_ENDPOINTS.firewallRules.maxPerPage,
  filters: LIST_ENDPOINTS.filters.maxPerPage,
  waf_packages: LIST_ENDPOINTS.wafPackages.maxPerPage,
  waf_overrides: LIST_ENDPOINTS.wafOverrides.maxPerPage,
  // The zone's rulesets list, cursor-paged at 50 (vendor's API reference: list zone rulesets).
  rulesets: 50,
  // account-member-no-2fa: each account's members, once per account (its own partition), 50 a page.
  account_members: LIST_ENDPOINTS.accountMembers.maxPerPage,
};
/** One list per WAF package. */
const PER_PACKAGE: Record<string, { table: string; page: number }> = {
  waf_groups: { table: 'waf_groups', page: LIST_ENDPOINTS.wafGroups.maxPerPage },
  waf_rules: { table: 'waf_rules', page: LIST_ENDPOINTS.wafRules.maxPerPage },
};
/**
 * Objects read with one call each: the invites list is not paginated. An entry point the zone's
 * rulesets list shows absent is recorded with no page: it costs no call.
 */
const SINGLES = new Set([
  'invites',
  'migration_status',
  'migration_check',
  'migration_config',
  'entrypoint',
  'dnssec',
  'universal_ssl',
  'custom_entrypoint',
  // bot-fight-mode-off: GET /zones/{id}/bot_management, one object every zone has, on every plan.
  'bot_management',
  // origin-pulls-off: GET /zones/{id}/origin_tls_client_auth/settings, one `{enabled}` object per zone.
  'origin_pulls',
  // rate-limiting-missing: the http_ratelimit phase entry point, asked only where the rulesets list shows it.
  'ratelimit_entrypoint',
  // client-side-security-off: GET /zones/{id}/page_shield, one object per zone.
  'page_shield',
  // security-txt-missing: GET /zones/{id}/security-center/securitytxt, one object per zone.
  'security_txt',
  // client-side-script-alert-missing: GET /accounts/{id}/alerting/v3/policies, served whole, once per account.
  'notification_policies',
]);
/** Entry points asked only where the zone's rulesets list shows them: recorded with no page (no call) where it does not. */
const LISTED_ENTRYPOINTS = new Set(['entrypoint', 'custom_entrypoint', 'ratelimit_entrypoint']);
/**
 * The partition's pages are its calls: one call per setting; and the vendor's insights, asked at
 * the largest page with the open ones only (the resolved the API still serves are not stored, so
 * the stored items undercount the pages).
 */
const PER_CALL = new Set(['zone_settings', 'security_insights']);

export function minimumRequests(dbPath: string, scanId: number): Minimum {
  const db = new Database(dbPath, { readonly: true });
  try {
    const ref = SCAN_REF_BASE + scanId;
    const rows = db
      .prepare("SELECT kind, scope_id, endpoint, items, pages FROM coverage WHERE ? BETWEEN first_scan AND last_scan AND state != 'skipped' AND data_scan IS NULL")
      .all(ref) as Array<{ kind: string; scope_id: string; endpoint: string; items: number; pages: number }>;
    const perPackage = (table: string, zone: string, page: number): { lists: number; calls: number } => {
      const packages = db.prepare('SELECT item_id FROM waf_packages WHERE zone_id = ? AND ? BETWEEN first_scan AND last_scan').all(zone, ref) as Array<{ item_id: string }>;
      const count = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE zone_id = ? AND package_id = ? AND ? BETWEEN first_scan AND last_scan`);
      let calls = 0;
      for (const p of packages) calls += Math.max(1, Math.ceil((count.get(zone, p.item_id, ref) as { n: number }).n / page));
      return { lists: packages.length, calls };
    };
    let lists = 0;
    let listCalls = 0;
    let singles = 0;
    // The account's managed entry point is kept with each of its zones but read once per account.
    const accountOf = db.prepare('SELECT account_id FROM zones WHERE zone_id = ? AND ? BETWEEN first_scan AND last_scan');
    const accounts = new Set<string>();
    for (const r of rows) {
      if (r.endpoint === 'account_entrypoint') accounts.add((accountOf.get(r.scope_id, ref) as { account_id: string | null } | undefined)?.account_id ?? r.scope_id);
      else if (SINGLES.has(r.endpoint)) singles += LISTED_ENTRYPOINTS.has(r.endpoint) && r.pages === 0 ? 0 : 1;
      else if (PER_CALL.has(r.endpoint)) singles += r.pages;
      else if (r.endpoint in LIST_PAGE) {
        lists++;
        listCalls += Math.max(1, Math.ceil(r.items / LIST_PAGE[r.endpoint]!));
      } else if (r.endpoint in PER_PACKAGE) {
        const { table, page } = PER_PACKAGE[r.endpoint]!;
        const m = perPackage(table, r.scope_id, page);
        lists += m.lists;
        listCalls += m.calls;
      }
      // The zone's own record comes with the zone list: no call of its own. The DNS target
      // resolutions (dns_targets, dns-dangling-target) are asked of DNS, never of the API: no call either.
    }
    singles += accounts.size;
    return { lists, listCalls, singles, minimum: listCalls + singles };
  } finally {
    db.close();
  }
}
