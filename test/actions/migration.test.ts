/**
 * The migration logic against the emulator's tests' organisation (test/support/case-dataset.ts): what a plan reads and concludes
 * for each of the dataset's migration cases, the refusals, each row of the spec's state table,
 * and the audit log of the writes. Read-only suites share an emulator; every test that writes
 * gets its own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assessZones,
  confirmStates,
  executeMigration,
  gatherFacts,
  migrateAssessed,
  parseAdjustedConfig,
  planMigration,
  prepareMigration,
  refusalsFor,
  type ManagedRulesConfig,
  type MigrationFacts,
  type MigrationPlan,
} from '../../src/actions/migration/index.js';
import { ActionLog, listActions } from '../../src/actions/log.js';
import { resolveZone, zonesInScope } from '../../src/actions/zones.js';
import type { ApiClient } from '../../src/api/client.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { UsageError } from '../../src/common/errors.js';
import { createRedactor } from '../../src/common/redact.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { caseDataset } from '../support/case-dataset.js';
import { clientFor } from '../support/client.js';
import { emulatorPerDescribe, emulatorsClosedAfterEach, get, TOKEN, zoneId } from '../support/http.js';
import { thrownBy } from '../support/errors.js';

const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';
const MIGRATION_REFUSED = 10600;

const clients: ApiClient[] = [];
const dbs: Db[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const d of dbs.splice(0)) d.close();
});

/** Unpaced: pacing is tested elsewhere. */
function client(emu: RunningEmulator): ApiClient {
  const c = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000 });
  clients.push(c);
  return c;
}

function auditLog(): { db: Db; log: ActionLog } {
  const db = openSnapshot(join(mkdtempSync(join(tmpdir(), 'zw-migration-')), 'zonewarden.db'));
  dbs.push(db);
  return { db, log: new ActionLog(db, createRedactor([TOKEN])) };
}

async function planFor(emu: RunningEmulator, name: string): Promise<MigrationPlan> {
  const c = client(emu);
  return planMigration(await gatherFacts(c, await resolveZone(c, name)));
}

async function status(emu: RunningEmulator, name: string): Promise<{ migration_state: string; old_waf_status: string; new_waf_status: string }> {
  return (await get(emu, `/zones/${zoneId(emu, name)}/waf_migration/status`)).json.result;
}

const writeRoutes = (emu: RunningEmulator): string[] => Object.keys(emu.stats().requests.byRoute).filter((k) => !k.startsWith('GET '));

describe('a plan', () => {
  const emu = emulatorPerDescribe({ dataset: caseDataset() });

  // spec: Managed-rules migration (GET waf_migration/config gives the equivalent configuration): the
  // preview is read from it. Vendor guide: sensitivity off deploys the OWASP ruleset disabled.
  it.each([
    ['acme-bank.example', true, 'PL2', 'Medium (40 or higher)', 'block'],
    ['acme-cards.example', true, 'PL1', 'High (25 or higher)', 'log'],
    ['northwind-shop.example', true, 'PL1', 'Medium (40 or higher)', 'block'],
    ['northwind.example', false, 'PL2', 'Medium (40 or higher)', 'challenge'],
  ])("previews %s from the migration's configuration", async (name, enabled, pl, threshold, action) => {
    const plan = await planFor(emu(), name);
    expect(plan.owasp).toMatchObject({ known: true, source: 'config', enabled, paranoiaLevel: pl, scoreThreshold: threshold, action });
    expect(plan.owasp.text).toContain(enabled ? `paranoia level ${pl}, score threshold ${threshold}, action ${action}` : 'deployed disabled');
  });

  it('names the URI-based overrides that make a zone incompatible, paused ones included', async () => {
    const plan = await planFor(emu(), 'acme-bank.example');
    expect(plan.compatible).toBe(false);
    expect(plan.blockers).toHaveLength(1);
    expect(plan.blockers[0]!.kind).toBe('incompatible');
    expect(plan.blockers[0]!.message).toContain('2 URI-based override(s)');
    expect(plan.blockers[0]!.message).toContain('acme-bank.example/statements/export*');
    expect(plan.blockers[0]!.message).toContain('[paused]');
  });

  // spec: Errors rule 7, Limits ("more than 200 firewall rules to migrate"); vendor guide: only the
  // bypass rules of the previous managed rules are migrated.
  it('blocks more than 200 bypass rules to migrate, and does not count the other firewall rules', async () => {
    const over = await planFor(emu(), 'acme-payments.example');
    expect(over.firewallRules.count).toBe(300);
    expect(over.firewallRules.bypass).toHaveLength(201);
    expect(over.blockers.map((b) => b.kind)).toEqual(['incompatible', 'too-many-rules', 'expression-too-long']);
    // spec: Errors rule 7: the check refuses it for the limits, not for URI-based overrides (it has none).
    expect(over.blockers[0]!.message).toContain('which has no URI-based overrides; its bypass rules are past the limits below');
    expect(over.blockers[1]!.message).toContain('201 firewall rules bypass the previous managed rules');
    const cards = await planFor(emu(), 'acme-cards.example');
    expect(cards.firewallRules.count).toBe(200);
    expect(cards.firewallRules.bypass.map((r) => r.bytes)).toEqual([4095, 4096]);
    expect(cards.blockers).toEqual([]);
  });

  it('measures the bypass rules in bytes of UTF-8, as the 4 KB limit counts them', async () => {
    const payments = await planFor(emu(), 'acme-payments.example');
    expect(payments.firewallRules.longExpressions).toHaveLength(1);
    expect(payments.firewallRules.longExpressions[0]!.bytes).toBe(4097);
    expect(payments.firewallRules.longExpressions[0]!.characters).toBeLessThan(4096);
    // acme-cards' bypass rules are at the limit, not over it.
    expect((await planFor(emu(), 'acme-cards.example')).firewallRules.longExpressions).toEqual([]);
  });

  // spec: States and transitions (validation mode -> new version only has no condition).
  it('holds a zone in validation mode to no eligibility check: it is past them', async () => {
    const loans = await planFor(emu(), 'acme-loans.example');
    expect(loans.stage).toBe('validation');
    expect(loans.firewallRules.bypass.map((r) => r.bytes)).toEqual([4097]);
    expect(loans.blockers).toEqual([]);
  });

  // spec: Migration mapping rules, rule 2; vendor guide: the vendor package's rule overrides are carried.
  it('lists the OWASP overrides the migration drops and the vendor rule overrides it carries', async () => {
    const bank = await planFor(emu(), 'acme-bank.example');
    if (!bank.overrides.known) throw new Error('overrides not read');
    expect(bank.overrides.lost.map((g) => [g.group.name, g.changedRules, g.rulesOff.map((r) => r.id)])).toEqual([['OWASP XSS Attacks', 1, ['958001']]]);
    expect(bank.overrides.carried.map((r) => [r.id, r.mode, r.defaultMode])).toEqual([
      ['100002', 'simulate', 'block'],
      ['100008', 'disable', 'block'],
    ]);
    const shop = await planFor(emu(), 'northwind-shop.example');
    expect(shop.overrides.known && shop.overrides.lost).toEqual([]);
    expect(shop.overrides.known && shop.overrides.carried.map((r) => r.id)).toEqual(['100006']);
  });

  it('offers validation mode on Enterprise zones only', async () => {
    expect((await planFor(emu(), 'acme-cards.example')).validationMode.available).toBe(true);
    const shop = await planFor(emu(), 'northwind-shop.example');
    expect(shop.validationMode.available).toBe(false);
    expect(shop.validationMode.text).toContain('business plan');
    expect(shop.validationMode.text).toContain('disables the previous ones at once');
  });

  it('takes the configuration from GET waf_migration/config, or from the entry point validation mode runs', async () => {
    const cards = await planFor(emu(), 'acme-cards.example');
    expect(cards.configSource).toBe('config');
    expect(cards.config?.rules.some((r) => (r['action_parameters'] as { id?: string }).id === OWASP_RULESET)).toBe(true);
    const loans = await planFor(emu(), 'acme-loans.example');
    expect(loans.configSource).toBe('entrypoint');
    expect(loans.config!.rules.length).toBeGreaterThan(0);
    // Server-managed fields stay out of the body that will be PUT back.
    for (const rule of loans.config!.rules) {
      expect(rule).not.toHaveProperty('version');
      expect(rule).not.toHaveProperty('last_updated');
    }
  });

  it('stops at the status of a migrated zone: the previous managed rules are gone', async () => {
    const c = client(emu());
    const zone = await resolveZone(c, 'acme-careers.example');
    emu().resetStats();
    const plan = planMigration(await gatherFacts(c, zone));
    expect(plan.stage).toBe('complete');
    expect(plan.blockers).toEqual([]);
    expect(Object.keys(emu().stats().requests.byRoute)).toEqual(['GET /zones/{zone_id}/waf_migration/status']);
  });

  it('sends GET requests only', async () => {
    emu().resetStats();
    for (const name of ['acme-bank.example', 'acme-cards.example', 'acme-loans.example', 'northwind-shop.example']) await planFor(emu(), name);
    expect(emu().stats().requests.total).toBeGreaterThan(0);
    expect(writeRoutes(emu())).toEqual([]);
  });
});

describe('refusals', () => {
  const emu = emulatorPerDescribe({ dataset: caseDataset() });

  it('refuses a migrated zone in either mode', async () => {
    const plan = await planFor(emu(), 'acme-careers.example');
    for (const mode of ['validation', 'pending'] as const) {
      expect(refusalsFor(plan, mode)).toEqual(['acme-careers.example has already migrated (state complete); the migration is irreversible and there is nothing left to do']);
    }
  });

  it('refuses validation mode off Enterprise, naming the plan, and allows pending', async () => {
    const plan = await planFor(emu(), 'northwind-shop.example');
    const [reason, ...more] = refusalsFor(plan, 'validation');
    expect(more).toEqual([]);
    expect(reason).toContain('Enterprise zones only');
    expect(reason).toContain('business plan');
    expect(reason).toContain('--mode pending');
    expect(refusalsFor(plan, 'pending')).toEqual([]);
  });

  it('refuses validation mode for a zone already in it, and lets it finish although its bypass rule is over 4 KB', async () => {
    const plan = await planFor(emu(), 'acme-loans.example');
    expect(refusalsFor(plan, 'validation')).toEqual(['acme-loans.example is already in validation mode: use --mode pending to finish the migration']);
    expect(refusalsFor(plan, 'pending')).toEqual([]);
  });

  // spec: States and transitions: the zone stays protected by one of the versions throughout.
  it('refuses a configuration with every rule disabled, from the API or from the user', async () => {
    const plan = await planFor(emu(), 'northwind-shop.example');
    const off = { ...plan.config!, rules: plan.config!.rules.map((r) => ({ ...r, enabled: false })) };
    expect(refusalsFor(plan, 'pending', off).join('\n')).toContain('in your file for northwind-shop.example has every rule disabled');
    expect(refusalsFor({ ...plan, config: off }, 'pending').join('\n')).toContain('has every rule disabled');
    const staging = await planFor(emu(), 'northwind-staging.example');
    expect(refusalsFor(staging, 'pending').join('\n')).toContain('every rule disabled');
  });

  it('refuses an incompatible zone and one over the rule limit in both modes', async () => {
    for (const [name, text] of [
      ['acme-bank.example', 'URI-based override'],
      ['acme-payments.example', "201 firewall rules bypass the previous managed rules and are to be migrated, more than the 200 the migration carries"],
    ] as const) {
      const plan = await planFor(emu(), name);
      for (const mode of ['validation', 'pending'] as const) expect(refusalsFor(plan, mode).join('\n')).toContain(text);
    }
  });

  it('refuses what it could not verify: a silent compatibility check, unread firewall rules, an unknown state', async () => {
    const base = await gatherFacts(client(emu()), await resolveZone(client(emu()), 'acme-cards.example'));
    const variants: Array<[Partial<MigrationFacts>, string]> = [
      [{ compatible: null }, 'the compatibility check did not say'],
      [{ firewallRules: { known: false, reason: 'HTTP 500' } }, 'the firewall rules could not be read'],
      [{ state: 'paused-by-support' }, 'migration state "paused-by-support"'],
    ];
    for (const [change, text] of variants) {
      const plan = planMigration({ ...base, ...change });
      expect(refusalsFor(plan, 'pending').join('\n')).toContain(text);
    }
    // `default` is how the wild API says a zone has not started.
    expect(refusalsFor(planMigration({ ...base, state: 'default' }), 'validation')).toEqual([]);
  });

  it('decides before writing: a refused zone gets no request', async () => {
    emu().resetStats();
    const c = client(emu());
    const prepared = await prepareMigration(c, await resolveZone(c, 'acme-bank.example'), 'validation');
    expect(prepared.request).toBeNull();
    expect(prepared.refusals.length).toBeGreaterThan(0);
    expect(writeRoutes(emu())).toEqual([]);
  });
});

describe('the state table', () => {
  const start = emulatorsClosedAfterEach();

  async function migrate(emu: RunningEmulator, name: string, mode: 'validation' | 'pending', log: ActionLog, config?: ManagedRulesConfig) {
    const c = client(emu);
    const prepared = await prepareMigration(c, await resolveZone(c, name), mode, config ? { config, file: 'adjusted.json' } : undefined);
    expect(prepared.refusals).toEqual([]);
    return executeMigration(c, log, prepared.request!, 'migrate apply');
  }

  it('start -> validation mode on an Enterprise zone: both versions run', async () => {
    const emu = await start({ dataset: caseDataset() });
    const { db, log } = auditLog();
    const outcome = await migrate(emu, 'acme-cards.example', 'validation', log);
    expect(outcome).toMatchObject({ ok: true, httpStatus: 200, error: null });
    expect(outcome.request.query).toEqual({ waf_migration: 'validation', phase_two: '1' });
    expect(await status(emu, 'acme-cards.example')).toMatchObject({ migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled' });
    const [row] = listActions(db);
    expect(row).toMatchObject({
      command: 'migrate apply',
      action: 'migration.validation',
      target: { type: 'zone', id: zoneId(emu, 'acme-cards.example'), name: 'acme-cards.example' },
      zone: { id: zoneId(emu, 'acme-cards.example'), name: 'acme-cards.example' },
      outcome: 'ok',
      httpStatus: 200,
      apiCodes: [],
    });
    expect(row!.detail).toMatchObject({ stateBefore: 'start', configSource: 'config', query: { waf_migration: 'validation', phase_two: '1' } });
  });

  it('validation mode -> new version only, keeping the configuration validation mode ran', async () => {
    const emu = await start({ dataset: caseDataset() });
    const { db, log } = auditLog();
    const c = client(emu);
    const cards = await resolveZone(c, 'acme-cards.example');
    // The user's adjustment: the OWASP rule set switched off while validating.
    const derived = planMigration(await gatherFacts(c, cards)).config!;
    const adjusted = { ...derived, rules: derived.rules.map((r) => ((r['action_parameters'] as { id?: string }).id === OWASP_RULESET ? { ...r, enabled: false } : r)) };
    await migrate(emu, 'acme-cards.example', 'validation', log, adjusted);

    const prepared = await prepareMigration(c, cards, 'pending');
    expect(prepared.request?.configSource).toBe('entrypoint');
    const owasp = prepared.request!.body.rules.find((r) => (r['action_parameters'] as { id?: string }).id === OWASP_RULESET);
    expect(owasp?.['enabled']).toBe(false);
    expect((await executeMigration(c, log, prepared.request!, 'migrate apply')).ok).toBe(true);

    expect(await status(emu, 'acme-cards.example')).toMatchObject({ migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled' });
    expect(listActions(db).map((r) => [r.action, r.outcome, r.detail['stateBefore']])).toEqual([
      ['migration.pending', 'ok', 'validation'],
      ['migration.validation', 'ok', 'start'],
    ]);
  });

  it.each(['northwind-shop.example', 'northwind.example', 'acme-cards.example'])('start -> new version only on any plan (%s): the previous version is disabled', async (name) => {
    const emu = await start({ dataset: caseDataset() });
    const { db, log } = auditLog();
    expect((await migrate(emu, name, 'pending', log)).ok).toBe(true);
    expect(await status(emu, name)).toMatchObject({ migration_state: 'complete', old_waf_status: 'disabled' });
    expect(listActions(db)[0]).toMatchObject({ action: 'migration.pending', outcome: 'ok' });
  });

  it('new version only is final: a second migration is refused before any write', async () => {
    const emu = await start({ dataset: caseDataset() });
    const { log } = auditLog();
    await migrate(emu, 'northwind-shop.example', 'pending', log);
    emu.resetStats();
    const c = client(emu);
    const again = await prepareMigration(c, await resolveZone(c, 'northwind-shop.example'), 'pending');
    expect(again.refusals[0]).toContain('already migrated');
    expect(writeRoutes(emu)).toEqual([]);
  });
});

// Vendor: the switch to the new managed rules can take up to an hour to show in the status.
describe('confirming the new state', () => {
  const start = emulatorsClosedAfterEach();
  const noSleep = async () => undefined;

  it('reads the status until it shows the state the PUT asked for', async () => {
    const emu = await start({ dataset: caseDataset(), migrationDelaySeconds: 1 });
    const { log } = auditLog();
    const c = client(emu);
    const zone = await resolveZone(c, 'northwind-shop.example');
    const prepared = await prepareMigration(c, zone, 'pending');
    expect((await executeMigration(c, log, prepared.request!, 'migrate apply')).ok).toBe(true);
    // Read once, at once: the status still says the old state.
    const first = await confirmStates(c, [{ id: zone.id, mode: 'pending' }], { waitMs: 0 });
    expect(first.get(zone.id)).toEqual({ confirmed: false, state: 'start', error: null });
    const later = await confirmStates(c, [{ id: zone.id, mode: 'pending' }], { waitMs: 5000, pollMs: 200 });
    expect(later.get(zone.id)).toEqual({ confirmed: true, state: 'complete', error: null });
  });

  it('gives up at the time limit, reading no more than it needs, and stops on a signal', async () => {
    const emu = await start({ dataset: caseDataset(), migrationDelaySeconds: 3600 });
    const c = client(emu);
    const zone = await resolveZone(c, 'northwind-shop.example');
    const { log } = auditLog();
    await executeMigration(c, log, (await prepareMigration(c, zone, 'pending')).request!, 'migrate apply');
    emu.resetStats();
    const waits: number[] = [];
    const seen = await confirmStates(c, [{ id: zone.id, mode: 'pending' }], { waitMs: 50, pollMs: 10, sleep: async (ms) => void waits.push(ms) });
    expect(seen.get(zone.id)?.confirmed).toBe(false);
    expect(waits.every((ms) => ms <= 50)).toBe(true);
    const stopped = await confirmStates(c, [{ id: zone.id, mode: 'pending' }], { waitMs: 60_000, sleep: noSleep, stopped: () => 'SIGINT' });
    expect(stopped.get(zone.id)).toMatchObject({ confirmed: false, state: 'start' });
  });

  it('keeps a status it cannot read as unconfirmed with the reason', async () => {
    const emu = await start({ dataset: caseDataset(), failRoutes: ['GET /zones/{zone_id}/waf_migration/status'] });
    const c = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
    clients.push(c);
    const id = zoneId(emu, 'northwind-shop.example');
    const seen = await confirmStates(c, [{ id, mode: 'pending' }], { waitMs: 0 });
    expect(seen.get(id)).toMatchObject({ confirmed: false, state: null });
    expect(seen.get(id)?.error).toContain('500');
  });
});

describe('a firewall rule list that stops early', () => {
  const start = emulatorsClosedAfterEach();

  it('leaves the rule count unverified, which refuses the migration, rather than undercounting', async () => {
    const emu = await start({ dataset: caseDataset(), repeatPage: ['GET /zones/{zone_id}/firewall/rules'] });
    const plan = await planFor(emu, 'acme-payments.example');
    expect(plan.firewallRules.count).toBeNull();
    expect(plan.blockers.map((b) => b.kind)).toEqual(['incompatible', 'unverified']);
    expect(refusalsFor(plan, 'pending').join('\n')).toContain('the firewall rules could not be read');
  });
});

describe('the audit log of failed writes', () => {
  const start = emulatorsClosedAfterEach();

  it('records the API\'s refusal with its code when the zone changed after the checks', async () => {
    const emu = await start({ dataset: caseDataset() });
    const { db, log } = auditLog();
    const c = client(emu);
    const prepared = await prepareMigration(c, await resolveZone(c, 'acme-cards.example'), 'validation');
    // Someone finishes the migration in the dashboard between our checks and our write.
    emu.org.state.zones.find((z) => z.name === 'acme-cards.example')!.migration.state = 'complete';
    emu.org.touch();
    const outcome = await executeMigration(c, log, prepared.request!, 'migrate apply');
    expect(outcome).toMatchObject({ ok: false, httpStatus: 400, apiCodes: [MIGRATION_REFUSED] });
    expect(outcome.error).toContain('irreversible');
    const [row] = listActions(db);
    expect(row).toMatchObject({ action: 'migration.validation', outcome: 'failed', httpStatus: 400, apiCodes: [MIGRATION_REFUSED] });
    expect(row!.message).toContain('already migrated');
  });

  it('records a server failure once: a write is not retried', async () => {
    const options: EmulatorOptions = { dataset: caseDataset(), failRoutes: ['PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint'] };
    const emu = await start(options);
    const { db, log } = auditLog();
    const c = client(emu);
    const prepared = await prepareMigration(c, await resolveZone(c, 'northwind.example'), 'pending');
    const outcome = await executeMigration(c, log, prepared.request!, 'migrate apply');
    expect(outcome).toMatchObject({ ok: false, httpStatus: 500 });
    expect(emu.stats().requests.byRoute['PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint']).toBe(1);
    expect(listActions(db)).toHaveLength(1);
    expect(listActions(db)[0]).toMatchObject({ action: 'migration.pending', outcome: 'failed', httpStatus: 500, apiCodes: outcome.apiCodes });
    expect(listActions(db)[0]!.message).toContain('HTTP 500');
  });
});

describe('an adjusted configuration file', () => {
  const good = { name: 'default', rules: [{ action: 'execute', expression: 'true', enabled: true, action_parameters: { id: OWASP_RULESET } }] };

  it('is taken as it is when it has a name and rules', () => {
    expect(parseAdjustedConfig(JSON.stringify(good), 'f.json')).toEqual(good);
  });

  it.each([
    ['text that is not JSON', '{not json', 'f.json is not valid JSON'],
    ['an array', '[]', 'f.json must hold a managed-rules configuration'],
    ['a whole plan', JSON.stringify({ schema: 'zonewarden.migration-plan/2', config: good }), 'holds a whole plan: save only its "config" object'],
    ['no name', JSON.stringify({ rules: good.rules }), '"name" must be a non-empty string'],
    ['rules that are no array', JSON.stringify({ name: 'default', rules: {} }), '"rules" must be an array'],
    ['no rules', JSON.stringify({ name: 'default', rules: [] }), '"rules" is empty'],
    ['a rule that is no object', JSON.stringify({ name: 'default', rules: [good.rules[0], 'execute'] }), 'rules[1] must be an object'],
    ['a rule without an action', JSON.stringify({ name: 'default', rules: [{ expression: 'true' }] }), 'rules[0] needs "action" and "expression" strings'],
  ])('refuses %s, in one line', (_what, text, message) => {
    const err = thrownBy(() => parseAdjustedConfig(text, 'f.json'), UsageError);
    expect(err.message).toContain(message);
    expect(err.message).not.toContain('\n');
  });
});

describe('many zones', () => {
  const start = emulatorsClosedAfterEach();

  it('finds the zones in scope: every visible zone, an account\'s, or named ones within the accounts', async () => {
    const emu = await start({ dataset: caseDataset() });
    const c = client(emu);
    const visible = (await get(emu, '/zones?per_page=50')).json.result_info.total_count as number;
    expect(await zonesInScope(c, { accounts: [], zones: [] })).toHaveLength(visible);
    const acme = emu.org.state.zones.find((z) => z.name === 'acme-bank.example')!.accountId;
    const acmeZones = emu.org.state.zones.filter((z) => z.accountId === acme).map((z) => z.name).sort();
    expect((await zonesInScope(c, { accounts: [acme], zones: [] })).map((z) => z.name)).toEqual(acmeZones);
    const named = await zonesInScope(c, { accounts: [acme], zones: ['acme-cards.example', zoneId(emu, 'northwind.example')] });
    expect(named.map((z) => z.name)).toEqual(['acme-cards.example']);
  });

  it('assesses every zone, then writes only the eligible ones, one row each', async () => {
    const emu = await start({ dataset: caseDataset() });
    const { db, log } = auditLog();
    const c = client(emu);
    const zones = await zonesInScope(c, { accounts: [], zones: [] });
    const assessed = await assessZones(c, zones, 'validation', 4);
    expect(assessed.filter((r) => r.outcome === 'would migrate').map((r) => r.zone.name)).toEqual(['acme-cards.example']);
    const reason = (name: string) => assessed.find((r) => r.zone.name === name)!.reason;
    expect(reason('northwind-shop.example')).toContain('Enterprise zones only');
    expect(reason('acme-careers.example')).toContain('already migrated');
    expect(reason('acme-bank.example')).toContain('URI-based override');
    expect(writeRoutes(emu)).toEqual([]);

    const done = await migrateAssessed(c, log, assessed, 'migrate apply', () => null);
    // Written, not yet confirmed: only the status says a zone has migrated.
    expect(done.filter((r) => r.outcome === 'requested').map((r) => r.zone.name)).toEqual(['acme-cards.example']);
    expect(done.filter((r) => r.outcome === 'skipped')).toHaveLength(zones.length - 1);
    expect(listActions(db).map((r) => r.target.name)).toEqual(['acme-cards.example']);
  });

  it('attempts no further write once stopped', async () => {
    const emu = await start({ dataset: caseDataset() });
    const { db, log } = auditLog();
    const c = client(emu);
    const zones = await zonesInScope(c, { accounts: [], zones: ['northwind.example', 'northwind-shop.example'] });
    const assessed = await assessZones(c, zones, 'pending', 2);
    const done = await migrateAssessed(c, log, assessed, 'migrate apply', () => 'SIGINT');
    expect(done.map((r) => r.outcome)).toEqual(['not attempted', 'not attempted']);
    expect(done[0]!.reason).toContain('SIGINT');
    expect(listActions(db)).toEqual([]);
    expect(writeRoutes(emu)).toEqual([]);
  });

  it('makes a zone that cannot be read an error row, not the end of the run', async () => {
    const emu = await start({ dataset: caseDataset(), failRoutes: ['GET /zones/{zone_id}/waf_migration/check'] });
    const c = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
    clients.push(c);
    const zones = await zonesInScope(c, { accounts: [], zones: ['northwind.example', 'acme-careers.example'] });
    const rows = await assessZones(c, zones, 'pending', 2);
    // The migrated zone needs no check, so only the other fails.
    expect(rows.map((r) => [r.zone.name, r.outcome])).toEqual([
      ['acme-careers.example', 'skipped'],
      ['northwind.example', 'error'],
    ]);
    expect(rows[1]!.httpStatus).toBe(500);
  });
});
