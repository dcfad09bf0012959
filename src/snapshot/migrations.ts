/**
 * The schema as numbered, append-only migrations (PRAGMA user_version: how many ran). Never edit
 * a migration that has shipped: add the next one.
 *
 * Most of a scan is unchanged night after night, so each resource is stored as versions valid over
 * a range of scans [first_scan, last_scan]: an unchanged one only moves its last_scan. Resources
 * are read in partitions (one endpoint of one zone, account or the user); `partitions` keeps each
 * one's last attempt and last complete read, and only a version current at that read is extended.
 * `coverage` says, per partition and scan, what happened; readers trust only partitions it covered.
 */

/** The columns every versioned resource table has, around its own. */
function versioned(table: string, scope: string, columns: string): string {
  return `
    CREATE TABLE ${table} (
      pk INTEGER PRIMARY KEY,
      ${scope} TEXT NOT NULL,
      item_id TEXT NOT NULL,
      hash TEXT NOT NULL,
      first_scan INTEGER NOT NULL,
      last_scan INTEGER NOT NULL,
      ${columns},
      raw TEXT NOT NULL
    );
    CREATE INDEX ${table}_item ON ${table} (${scope}, item_id);`;
}

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE scans (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete', 'aborted')),
    base_url TEXT NOT NULL,
    scope TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL,
    summary TEXT
  );

  CREATE TABLE partitions (
    kind TEXT NOT NULL,
    scope_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    last_attempt_scan INTEGER NOT NULL,
    last_ok_scan INTEGER,
    PRIMARY KEY (kind, scope_id, endpoint)
  ) WITHOUT ROWID;

  CREATE TABLE coverage (
    pk INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    scope_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    hash TEXT NOT NULL,
    first_scan INTEGER NOT NULL,
    last_scan INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('ok', 'failed', 'skipped', 'denied')),
    http_status INTEGER,
    api_code INTEGER,
    error_code TEXT,
    message TEXT,
    pages INTEGER NOT NULL,
    items INTEGER NOT NULL,
    truncated INTEGER NOT NULL
  );
  CREATE INDEX coverage_partition ON coverage (kind, scope_id, endpoint);
  CREATE INDEX coverage_first ON coverage (first_scan);

  ${versioned('accounts', 'scope_id', 'name TEXT, type TEXT')}
  ${versioned('zones', 'zone_id', 'account_id TEXT, name TEXT NOT NULL, status TEXT, paused INTEGER, plan TEXT, type TEXT')}
  CREATE INDEX zones_account ON zones (account_id);
  ${versioned('dns_records', 'zone_id', 'type TEXT, name TEXT, content TEXT, proxied INTEGER, ttl INTEGER')}
  ${versioned('certificate_packs', 'zone_id', 'type TEXT, status TEXT')}
  ${versioned('firewall_rules', 'zone_id', 'action TEXT, paused INTEGER, priority INTEGER, filter_id TEXT, filter_deleted INTEGER')}
  ${versioned('filters', 'zone_id', 'expression TEXT, paused INTEGER')}
  ${versioned('zone_objects', 'zone_id', 'endpoint TEXT NOT NULL')}
  ${versioned('waf_packages', 'zone_id', 'name TEXT, detection_mode TEXT, sensitivity TEXT, action_mode TEXT')}
  ${versioned('waf_groups', 'zone_id', 'package_id TEXT, name TEXT, mode TEXT, modified_rules_count INTEGER')}
  ${versioned('waf_rules', 'zone_id', 'package_id TEXT, group_id TEXT, mode TEXT, default_mode TEXT')}
  ${versioned('waf_overrides', 'zone_id', 'paused INTEGER')}
  ${versioned('invites', 'scope_id', 'status TEXT, organization_id TEXT')}

  CREATE TABLE baselines (
    id INTEGER PRIMARY KEY,
    scan_id INTEGER NOT NULL REFERENCES scans (id),
    accepted_at TEXT NOT NULL,
    note TEXT
  );
  `,
  // 2: audits. One per scan (auditing again replaces it); findings other than passes, which are counts.
  `
  CREATE TABLE audits (
    scan_id INTEGER PRIMARY KEY REFERENCES scans (id) ON DELETE CASCADE,
    evaluated_at TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    rules TEXT NOT NULL,
    counts TEXT NOT NULL,
    errors TEXT NOT NULL,
    waivers TEXT NOT NULL
  );

  CREATE TABLE findings (
    pk INTEGER PRIMARY KEY,
    scan_id INTEGER NOT NULL REFERENCES audits (scan_id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    rule TEXT NOT NULL,
    category TEXT NOT NULL,
    severity TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('fail', 'unknown', 'waived')),
    account_id TEXT,
    account_name TEXT,
    zone_id TEXT,
    zone_name TEXT,
    resource_type TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    resource_name TEXT,
    message TEXT NOT NULL,
    message_id TEXT,
    data TEXT NOT NULL,
    waiver TEXT
  );
  CREATE INDEX findings_scan ON findings (scan_id, fingerprint);
  `,
  // 3: the write commands' audit log: every write to the API, what it aimed at and how it ended.
  `
  CREATE TABLE actions (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    command TEXT NOT NULL,
    action TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT,
    target_name TEXT,
    zone_id TEXT,
    zone_name TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'failed')),
    http_status INTEGER,
    api_codes TEXT NOT NULL,
    message TEXT,
    detail TEXT NOT NULL
  );
  CREATE INDEX actions_at ON actions (at);
  `,
  // 4: drift walks two audits' findings in fingerprint order; an index holding the columns it
  // compares spares it reading every finding's message and data (150 MB at 10,000 zones).
  `
  CREATE INDEX findings_by_fingerprint ON findings (scan_id, fingerprint, status, severity, rule, zone_id);
  DROP INDEX findings_scan;
  `,
  // 5: the nightly job. \`runs\`: every run of \`run\` or \`schedule\`, for status and its log;
  // \`scheduler\`: the one scheduler's cron and next tick, so status can say when the next run is
  // and a restarted scheduler can tell that it missed one; \`notifications\`: each webhook
  // delivery (target by origin only: a webhook URL's path is a secret).
  `
  CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'schedule', 'run-now', 'catch-up')),
    started_at TEXT NOT NULL,
    finished_at TEXT,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    outcome TEXT CHECK (outcome IN ('ok', 'findings', 'incomplete', 'failed', 'aborted')),
    exit_code INTEGER,
    scan_id INTEGER REFERENCES scans (id) ON DELETE SET NULL,
    summary TEXT
  );
  CREATE INDEX runs_started ON runs (started_at);

  CREATE TABLE scheduler (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    cron TEXT NOT NULL,
    timezone TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at TEXT NOT NULL,
    stopped_at TEXT,
    next_run_at TEXT
  );

  CREATE TABLE notifications (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    event TEXT NOT NULL,
    target TEXT NOT NULL,
    at TEXT NOT NULL,
    ok INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    http_status INTEGER,
    error TEXT
  );
  CREATE INDEX notifications_event ON notifications (event, at);
  `,
  // 6: coverage state 'retired': the API answered that an endpoint no longer exists (410 Gone, or
  // its 404 equivalent), a permanent answer that is neither a failure to retry nor a denial to
  // grant. SQLite cannot widen a CHECK in place, so the table is rebuilt with the same rows.
  `
  CREATE TABLE coverage_v6 (
    pk INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    scope_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    hash TEXT NOT NULL,
    first_scan INTEGER NOT NULL,
    last_scan INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('ok', 'failed', 'skipped', 'denied', 'retired')),
    http_status INTEGER,
    api_code INTEGER,
    error_code TEXT,
    message TEXT,
    pages INTEGER NOT NULL,
    items INTEGER NOT NULL,
    truncated INTEGER NOT NULL
  );
  INSERT INTO coverage_v6 SELECT * FROM coverage;
  DROP TABLE coverage;
  ALTER TABLE coverage_v6 RENAME TO coverage;
  CREATE INDEX coverage_partition ON coverage (kind, scope_id, endpoint);
  CREATE INDEX coverage_first ON coverage (first_scan);
  `,
  // 7: an audit's findings are stored as one run of keys in listing order (worst first), so that
  // reading them back (reports, audit output) needs no sort of 200,000 rows; the run's first and
  // last key are kept with the audit. Null in audits stored before, which are still sorted.
  `
  ALTER TABLE audits ADD COLUMN findings_from INTEGER;
  ALTER TABLE audits ADD COLUMN findings_to INTEGER;
  `,
  // 8: incremental scans. A partition a scan did not read again is carried forward: its coverage
  // row names, in data_scan, the scan (as a reference) whose versions hold its data, and no data
  // row is copied or touched. Null: read by the scans of the row's own range. zone_full_reads
  // keeps when each zone was last read in full, which decides whose turn it is. zone_changes records
  // each scan in which anything a zone's checks see changed (a new version, a vanished item, a
  // different outcome of a read): an audit reuses the verdicts of a zone with no change since.
  `
  ALTER TABLE coverage ADD COLUMN data_scan INTEGER;
  CREATE TABLE zone_changes (
    zone_id TEXT NOT NULL,
    scan_ref INTEGER NOT NULL,
    PRIMARY KEY (zone_id, scan_ref)
  ) WITHOUT ROWID;
  CREATE TABLE zone_full_reads (
    zone_id TEXT PRIMARY KEY,
    read_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 9: verdict reuse. An audit keeps, per zone it covers, the counts of its reusable verdicts (zone
  // rules that do not depend on the time) and which audit's findings rows hold them (source_scan:
  // itself when it judged the zone, else the audit that did). An audit of a scan in which a zone is
  // unchanged copies that zone's row and stores none of its findings again; readers of findings
  // follow source_scan (src/audit/reuse-rows.ts). reuse_key: what its verdicts depend on beyond
  // the data (rules and their code, settings, waivers, scope); reused_rules: the rules reused.
  `
  ALTER TABLE audits ADD COLUMN reuse_key TEXT;
  ALTER TABLE audits ADD COLUMN reused_rules TEXT;
  CREATE TABLE audit_zones (
    scan_id INTEGER NOT NULL REFERENCES audits (scan_id) ON DELETE CASCADE,
    zone_id TEXT NOT NULL,
    source_scan INTEGER NOT NULL,
    counts TEXT NOT NULL,
    PRIMARY KEY (scan_id, zone_id)
  ) WITHOUT ROWID;
  CREATE INDEX audit_zones_source ON audit_zones (source_scan, scan_id);
  CREATE INDEX audits_reuse_key ON audits (reuse_key, scan_id);
  `,
  // 10: audits of their own. A scan may have several: its official audit (made by run or schedule,
  // else the first; what reports, drift and notifications read) and trials with other rules,
  // settings or waivers, stored beside it. findings and audit_zones name the audit (audit_id,
  // source_audit); existing audits keep their scan's id, so no findings row is rewritten.
  // judgement: what the verdicts were judged with (src/policy/judgement.ts); trial: null for the
  // official audit, else why; made_by: the command that stored it. The renames carry the foreign
  // keys over to audits (id) before the rebuild (foreign keys are off while migrating: db.ts).
  // other_passes: a zone's passes of rules its tally does not count; account_passes: passes on accounts.
  `
  ALTER TABLE audits RENAME COLUMN scan_id TO id;
  CREATE TABLE audits_v10 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    scan_id INTEGER NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
    evaluated_at TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    rules TEXT NOT NULL,
    counts TEXT NOT NULL,
    errors TEXT NOT NULL,
    waivers TEXT NOT NULL,
    findings_from INTEGER,
    findings_to INTEGER,
    reuse_key TEXT,
    reused_rules TEXT,
    judgement TEXT,
    trial TEXT,
    made_by TEXT NOT NULL DEFAULT 'audit',
    account_passes TEXT
  );
  INSERT INTO audits_v10 (id, scan_id, evaluated_at, tool_version, rules, counts, errors, waivers, findings_from, findings_to, reuse_key, reused_rules)
    SELECT id, id, evaluated_at, tool_version, rules, counts, errors, waivers, findings_from, findings_to, reuse_key, reused_rules FROM audits;
  DROP TABLE audits;
  ALTER TABLE audits_v10 RENAME TO audits;
  CREATE UNIQUE INDEX audits_official ON audits (scan_id) WHERE trial IS NULL;
  CREATE INDEX audits_scan ON audits (scan_id, id);
  CREATE INDEX audits_reuse_key ON audits (reuse_key, scan_id);
  ALTER TABLE findings RENAME COLUMN scan_id TO audit_id;
  ALTER TABLE audit_zones RENAME COLUMN scan_id TO audit_id;
  ALTER TABLE audit_zones RENAME COLUMN source_scan TO source_audit;
  ALTER TABLE audit_zones ADD COLUMN other_passes TEXT;
  `,
  // 11: for verdict reuse (since removed): per zone, the tallied failures and passes and when its
  // verdicts stop holding (holds: null at any time, else {e, h, z}); per audit, tally_total, the sum
  // of every zone's tally. audit_names: the names a judged zone's verdicts looked up, reversed (a
  // name and those under it are one range). Audits stored before have none: the first audit after
  // the upgrade judges every zone. coverage_unread: the few parts a scan could not read, which
  // scan-coverage reports without a pass over every coverage row (200,000 at 10,000 zones).
  // zones_listing: a scan's zones, names and list fields without reading the rows' raw JSON.
  `
  ALTER TABLE audit_zones ADD COLUMN fails INTEGER;
  ALTER TABLE audit_zones ADD COLUMN passes INTEGER;
  ALTER TABLE audit_zones ADD COLUMN holds TEXT;
  ALTER TABLE audits ADD COLUMN tally_total TEXT;
  CREATE TABLE audit_names (
    audit_id INTEGER NOT NULL REFERENCES audits (id) ON DELETE CASCADE,
    rname TEXT NOT NULL,
    zone_id TEXT NOT NULL,
    PRIMARY KEY (audit_id, rname, zone_id)
  ) WITHOUT ROWID;
  CREATE INDEX coverage_unread ON coverage (first_scan, pk) WHERE state IN ('failed', 'denied') OR (state = 'ok' AND truncated = 1);
  CREATE INDEX zones_listing ON zones (last_scan, first_scan, item_id, name, account_id, status, paused, plan, type);
  `,
  // 12: partial re-judging (since removed). zone_changes keeps which endpoint changed ('*' for rows
  // stored before: any), keyed by scan; audit_zones.reads: which rules read which endpoints;
  // findings_by_zone, audit_names_zone: a zone's rows and names in an audit. coverage_zone_rows:
  // which zones a scan read, without a visit to each zone's coverage row.
  `
  CREATE TABLE zone_changes_v12 (
    scan_ref INTEGER NOT NULL,
    zone_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    PRIMARY KEY (scan_ref, zone_id, endpoint)
  ) WITHOUT ROWID;
  INSERT INTO zone_changes_v12 (scan_ref, zone_id, endpoint) SELECT scan_ref, zone_id, '*' FROM zone_changes;
  DROP TABLE zone_changes;
  ALTER TABLE zone_changes_v12 RENAME TO zone_changes;
  ALTER TABLE audit_zones ADD COLUMN reads TEXT;
  CREATE INDEX findings_by_zone ON findings (audit_id, zone_id, rule);
  CREATE INDEX audit_names_zone ON audit_names (audit_id, zone_id);
  CREATE INDEX coverage_zone_rows ON coverage (scope_id, last_scan, first_scan) WHERE kind = 'zone' AND endpoint = 'zone' AND state = 'ok';
  `,
  // 13: DNS records are stored as the API served them. Before, a record served with `data` and no
  // `content` (CAA in the wild) was given the content column of its presentation form
  // (`0 issuewild "example.com"`), a value the API never sent, and the row's hash (of the raw JSON,
  // unchanged) kept that version for good. Its column is emptied; rules read such a record's data
  // from the raw JSON, so an audit judges it as before, and drift (which compares raw) sees nothing.
  `
  UPDATE dns_records SET content = NULL WHERE type = 'CAA' AND content IS NOT NULL AND json_type(raw, '$.content') IS NULL;
  `,
  // 14: objects an account holds (its members, its notification policies, the vendor's insights),
  // one row per item, kept like zone_objects but scoped to the account they belong to.
  `
  ${versioned('account_objects', 'scope_id', 'endpoint TEXT NOT NULL')}
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
