import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { GENERATED_RULE_SETTINGS } from '../../bench/dataset-config.js';
import { RULES } from '../../rules/index.js';
import { declaredReadsOf, type DeclaredReads } from '../../src/api/endpoints.js';
import { createRedactor } from '../../src/common/redact.js';
import { runScan, type RunScanOptions, type ScanOutcome } from '../../src/crawler/run-scan.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { recordAudit, runAudit } from '../../src/audit/audit.js';
import type { Finding } from '../../src/policy/findings.js';
import { auditFindings } from '../../src/audit/store.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { clientFor, recordingLogger } from './client.js';
import { TEST_RESOLVER } from './cli.js';
import { TOKEN } from './http.js';

/**
 * Nights against the emulator, for the tests of issue 30's guarantee: a scan read on from the last
 * one (or read in full), the findings of an audit of it, and everything a scan holds of each zone,
 * to compare an incremental night with a full scan of the same state.
 */

/** What the whole catalogue reads beyond the lists. */
export const READS = declaredReadsOf(RULES.map((r) => r.meta.reads));
export const AUDIT_RULES = activeRules(loadCatalogue(RULES), GENERATED_RULE_SETTINGS);
// The managed rules rule judging Free zones too (its documented `plans` option): the entry points a Free zone's migration state decides are then judged.
const ALL_PLANS_RULES = activeRules(loadCatalogue(RULES), { ...GENERATED_RULE_SETTINGS, 'managed-ruleset-not-deployed': { options: { plans: ['free', 'pro', 'business', 'enterprise'] } } });

/** Opens a new snapshot for each call, closed after each test. */
export function snapshotsClosedAfterEach(): () => Db {
  const dbs: Db[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) db.close();
  });
  return () => {
    const db = openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-incremental-')), 'zonewarden.db'));
    dbs.push(db);
    return db;
  };
}

export interface Night {
  outcome: ScanOutcome;
  requests: number;
  byRoute: Record<string, number>;
}

/** One scan, read on from the last (incremental) or in full; `extra` overrides runScan's options (scope, signal, client...). */
export async function scanNight(
  emu: RunningEmulator,
  db: Db,
  mode: 'incremental' | 'full',
  fullEvery = 7,
  logger = recordingLogger(),
  reads: DeclaredReads = READS,
  extra: Partial<RunScanOptions> = {},
): Promise<Night> {
  const before = emu.stats().requests;
  const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
  try {
    const outcome = await runScan({
      db,
      client,
      scope: { accounts: [], zones: [] },
      concurrency: 4,
      logger,
      redact: createRedactor([TOKEN]),
      reads,
      // dns-dangling-target's resolutions, through the emulators' loopback DNS world as the CLI's are in tests: no API request.
      resolver: { server: TEST_RESOLVER },
      repairPauseMs: 0,
      incremental: { full: mode === 'full', fullEvery },
      ...extra,
    });
    const after = emu.stats().requests;
    const byRoute: Record<string, number> = {};
    for (const [route, n] of Object.entries(after.byRoute)) {
      const d = n - (before.byRoute[route] ?? 0);
      if (d > 0) byRoute[route] = d;
    }
    return { outcome, requests: after.total - before.total, byRoute };
  } finally {
    await client.close();
  }
}

export const line = (f: Finding) => JSON.stringify([f.rule, f.zone?.id ?? null, f.resource, f.status, f.severity, f.message]);

/** The findings of an audit of a scan, as comparable lines (rule, zone, resource, status, severity, message). */
export function findings(db: Db, scanId: number): string[] {
  return runAudit(new SnapshotReader(db, scanId), AUDIT_RULES).findings.map(line).sort();
}

/** The same with Free zones judged by managed-ruleset-not-deployed. */
export function allPlansFindings(db: Db, scanId: number): string[] {
  return runAudit(new SnapshotReader(db, scanId), ALL_PLANS_RULES).findings.map(line).sort();
}

/** The findings of the audit a night stores (recordAudit), read back from the database. */
export function storedFindings(db: Db, scanId: number): { lines: string[] } {
  const result = recordAudit(db, new SnapshotReader(db, scanId), AUDIT_RULES);
  return { lines: [...auditFindings(db, result.stored!.auditId)].map(line).sort() };
}

// Issue 31's reads too: the bot and origin pulls settings, the rate limiting entry point and the DNS target resolutions.
export const OBJECTS = [
  'migration_status', 'migration_check', 'migration_config', 'entrypoint', 'zone_settings', 'dnssec', 'universal_ssl', 'custom_entrypoint', 'account_entrypoint',
  'bot_management', 'origin_pulls', 'ratelimit_entrypoint', 'dns_targets',
] as const;

/** Everything a scan holds of each zone, as the reader gives it to the rules: what a carried partition must equal. */
export function zoneData(db: Db, scanId: number): Record<string, unknown> {
  const reader = new SnapshotReader(db, scanId);
  const out: Record<string, unknown> = {};
  const shown = (r: { known: true; items: Array<{ id: string; raw?: string }> } | { known: false; state: string }) =>
    r.known ? r.items.map((i) => [i.id, i.raw ?? null]).sort() : `not known: ${r.state}`;
  for (const z of reader.zones()) {
    out[z.name] = {
      zone: z.raw,
      dns: shown(reader.dnsRecords(z.id)),
      packs: shown(reader.certificatePacks(z.id)),
      firewall: shown(reader.firewallRules(z.id)),
      filters: shown(reader.filters(z.id)),
      waf: [reader.wafPackages(z.id), reader.wafGroups(z.id), reader.wafRules(z.id), reader.wafOverrides(z.id)].map(shown),
      objects: OBJECTS.map((e) => shown(reader.zoneObject(z.id, e))),
    };
  }
  return out;
}
