/**
 * `zonewarden migrate plan|apply` in-process against the emulator: the command parses its argv
 * as the CLI does and runs with a fake terminal, so the tests see stdout, stderr, the exit code,
 * the emulator's request counters and the database the command leaves behind.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listActions } from '../../src/actions/log.js';
import { commandHelp, type Command } from '../../src/cli/command.js';
import { migrateCommand } from '../../src/cli/commands/migrate.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { latestScanOfScope } from '../../src/snapshot/scan-choice.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, get, TOKEN, zoneId } from '../support/http.js';
import { runInProcess, writesTo } from '../support/in-process.js';

const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';
const PUT_ENTRYPOINT = 'PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint';
/** Unpaced: the default budget spaces requests 300 ms apart. */
const FAST = ['--budget', '1000000', '--budget-window', '1'];

/** The CLI in-process, as `zonewarden migrate ...` runs, unpaced. */
function migrate(emu: RunningEmulator, cwd: string, argv: string[]) {
  return runInProcess(['migrate', ...argv, ...FAST], { ZONEWARDEN_BASE_URL: emu.url, ZONEWARDEN_API_TOKEN: TOKEN }, cwd);
}

const workdir = (): string => mkdtempSync(join(tmpdir(), 'zw-migrate-'));

async function state(emu: RunningEmulator, name: string): Promise<string> {
  return (await get(emu, `/zones/${zoneId(emu, name)}/waf_migration/status`)).json.result.migration_state;
}

/** The audit log and the latest scan's view of one zone's migration, from the database the command wrote. */
function database(cwd: string, emu: RunningEmulator, name: string) {
  const db = openSnapshot(join(cwd, 'zw.db'));
  try {
    const actions = listActions(db);
    const scanId = latestScanOfScope(db, ['complete', 'incomplete']);
    const status = scanId === null ? null : new SnapshotReader(db, scanId).zoneObject(zoneId(emu, name), 'migration_status');
    const scanned = status?.known ? (JSON.parse(status.items[0]!.raw) as { migration_state: string }).migration_state : null;
    return { actions, scanId, scanned };
  } finally {
    db.close();
  }
}

describe('migrate plan', () => {
  const start = emulatorsClosedAfterEach();

  // spec: Managed-rules migration (check, config), Migration mapping rules (rules 2 and 3); vendor
  // guide: bypass rules and the vendor package's rule overrides are carried, OWASP overrides are not.
  it('shows blockers, the OWASP preview, validation mode, what is carried and lost and the configuration, with GET requests only', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['plan', '--zone', 'acme-bank.example', '--db', 'zw.db']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('blockers:\n  - not compatible: 2 URI-based override(s)');
    expect(r.stdout).toContain("after the migration: the OWASP core rule set runs at paranoia level PL2, score threshold Medium (40 or higher), action block (from the migration's configuration)");
    expect(r.stdout).toContain('validation mode available (Enterprise)');
    expect(r.stdout).toMatch(/firewall rules carried: 1 bypass rule of the previous managed rules \(of \d+ firewall rules;[^\n]*\n {2}- "Let the weekly scanner past the WAF" [0-9a-f]{32}, \d+ bytes/);
    expect(r.stdout).toContain('OWASP overrides lost (the migration does not carry overrides of the previous core rule set):\n  - group OWASP XSS Attacks: 1 rule changed from the default; off now: Cross-site Scripting (XSS) Attack: document.cookie (958001)');
    expect(r.stdout).toContain('vendor rule overrides carried into the new configuration: 2 (SQLi - Comment sequence in the query string (100002) simulate');
    expect(r.stdout).not.toContain('WordPress');
    expect(r.stdout).toMatch(/resulting configuration "default" \(3 rule\(s\), from GET waf_migration\/config\):\n {2}1\. skip \(enabled\)/);
    expect(r.stdout).toContain('next: remove the blockers above');
    // A hostile override description from the API reaches the terminal inert.
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u001b\u202e]/);
    expect(writesTo(emu)).toEqual([]);
    expect(existsSync(join(cwd, 'zw.db'))).toBe(false);
  });

  it('says what a Business zone lacks and what to run next', async () => {
    const emu = await start({ dataset: caseDataset() });
    const r = await migrate(emu, workdir(), ['plan', '--zone', zoneId(emu, 'northwind-shop.example')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('blockers: none');
    expect(r.stdout).toContain('the OWASP core rule set runs at paranoia level PL1, score threshold Medium (40 or higher), action block');
    expect(r.stdout).toContain('OWASP overrides lost: none');
    expect(r.stdout).toContain('no validation mode on the business plan: enabling the new managed rules disables the previous ones at once');
    expect(r.stdout).toContain('next: zonewarden migrate apply --zone northwind-shop.example --mode pending');
  });

  it('counts only the bypass rules: 201 of them block acme-payments, its 99 block rules do not', async () => {
    const emu = await start({ dataset: caseDataset() });
    const r = await migrate(emu, workdir(), ['plan', '--zone', 'acme-payments.example']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('201 firewall rules bypass the previous managed rules and are to be migrated, more than the 200');
    expect(r.stdout).toContain('firewall rules carried: 201 bypass rules of the previous managed rules (of 300 firewall rules;');
    expect(r.stdout).toContain('  - and 181 more (--format json lists them all)');
  });

  it('says sensitivity off deploys the OWASP rule set disabled, and state default has not started', async () => {
    const emu = await start({ dataset: caseDataset() });
    const r = await migrate(emu, workdir(), ['plan', '--zone', 'northwind.example']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('state: default (not started, as start)');
    expect(r.stdout).toContain("after the migration: the OWASP core rule set is deployed disabled (from the migration's configuration)");
  });

  it('says a migrated zone has nothing left to plan, and exits 0', async () => {
    const emu = await start({ dataset: caseDataset() });
    const r = await migrate(emu, workdir(), ['plan', '--zone', 'acme-careers.example']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('already migrated (state complete)');
    expect(r.stdout).not.toContain('blockers');
  });

  it('prints JSON whose config, edited, is what apply --config sends', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const plan = await migrate(emu, cwd, ['plan', '--zone', 'acme-cards.example', '--format', 'json']);
    expect(plan.code).toBe(0);
    const json = JSON.parse(plan.stdout);
    expect(json).toMatchObject({ schema: 'zonewarden.migration-plan/2', stage: 'start', blockers: [], validationMode: { available: true }, owasp: { source: 'config', paranoiaLevel: 'PL1' } });
    expect(json.firewallRules.bypass).toHaveLength(2);
    expect(json.overrides.lost.map((g: { group: { name: string } }) => g.group.name)).toEqual(['OWASP Bad Robots']);
    const config = json.config as { name: string; rules: Array<Record<string, unknown> & { action_parameters: { id: string } }> };
    const adjusted = { ...config, rules: config.rules.map((r) => (r.action_parameters.id === OWASP_RULESET ? { ...r, enabled: false } : r)) };
    writeFileSync(join(cwd, 'managed.json'), JSON.stringify(adjusted));

    const r = await migrate(emu, cwd, ['apply', '--zone', 'acme-cards.example', '--mode', 'validation', '--config', 'managed.json', '--db', 'zw.db', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('from your file');
    const entrypoint = (await get(emu, `/zones/${zoneId(emu, 'acme-cards.example')}/rulesets/phases/http_request_firewall_managed/entrypoint`)).json.result;
    const owasp = (entrypoint.rules as Array<{ enabled: boolean; action_parameters?: { id?: string } }>).find((x) => x.action_parameters?.id === OWASP_RULESET);
    expect(owasp?.enabled).toBe(false);
    expect(database(cwd, emu, 'acme-cards.example').actions[0]!.detail).toMatchObject({ configSource: 'file' });
  });
});

describe('migrate apply, one zone', () => {
  const start = emulatorsClosedAfterEach();

  it('without --yes shows the PUT and the warning, writes nothing and exits 0', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--zone', 'acme-cards.example', '--mode', 'validation', '--db', 'zw.db']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`would send PUT /zones/${zoneId(emu, 'acme-cards.example')}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=validation&phase_two=1`);
    expect(r.stdout).toContain('body: configuration "default" with 4 rule(s), from GET waf_migration/config');
    expect(r.stdout).toContain('dry run: nothing was written; add --yes to migrate');
    expect(r.stderr).toMatch(/^warning: migrating acme-cards\.example to the new managed rules is irreversible/m);
    expect(r.stdout).toContain('lost: rule overrides in 1 OWASP group not migrated; zonewarden migrate plan lists them; 1 vendor rule override carried');
    expect(writesTo(emu)).toEqual([]);
    expect(existsSync(join(cwd, 'zw.db'))).toBe(false);
    expect(await state(emu, 'acme-cards.example')).toBe('start');
  });

  it('with --yes migrates, says requested, confirms from the status, records the write and rescans the zone', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--zone', 'acme-cards.example', '--mode', 'validation', '--db', 'zw.db', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('requested: the API took the PUT (HTTP 200)');
    expect(r.stdout).toContain('acme-cards.example is in validation mode');
    expect(r.stdout).toContain('finish with zonewarden migrate apply --zone acme-cards.example --mode pending --yes');
    expect(r.stderr).toContain('irreversible');
    expect(emu.stats().requests.byRoute[PUT_ENTRYPOINT]).toBe(1);
    expect(await state(emu, 'acme-cards.example')).toBe('validation');
    const { actions, scanId, scanned } = database(cwd, emu, 'acme-cards.example');
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ command: 'migrate apply', action: 'migration.validation', target: { type: 'zone', name: 'acme-cards.example' }, outcome: 'ok', httpStatus: 200 });
    expect(scanId).not.toBeNull();
    expect(scanned).toBe('validation');

    const finish = await migrate(emu, cwd, ['apply', '--zone', 'acme-cards.example', '--mode', 'pending', '--db', 'zw.db', '--yes']);
    expect(finish.code).toBe(0);
    expect(finish.stdout).toContain('from the entry point validation mode runs');
    expect(finish.stdout).toContain('acme-cards.example has migrated: the new managed rules run');
    expect(await state(emu, 'acme-cards.example')).toBe('complete');
    expect(database(cwd, emu, 'acme-cards.example')).toMatchObject({ scanned: 'complete' });
  });

  it.each([
    ['northwind-shop.example', 'validation', 'validation mode is for Enterprise zones only and northwind-shop.example is on the business plan: use --mode pending'],
    ['acme-bank.example', 'pending', 'not compatible: 2 URI-based override(s) of the previous managed rules block it until deleted'],
    ['acme-payments.example', 'pending', '201 firewall rules bypass the previous managed rules and are to be migrated, more than the 200 the migration carries'],
    ['acme-payments.example', 'validation', 'bypass rule expression(s) to migrate longer than 4,096 bytes of UTF-8'],
    ['northwind-staging.example', 'pending', 'has every rule disabled, which would leave the zone with no managed rules'],
    ['acme-loans.example', 'validation', 'acme-loans.example is already in validation mode: use --mode pending'],
    ['acme-careers.example', 'pending', 'acme-careers.example has already migrated (state complete); the migration is irreversible'],
  ])('refuses %s with --mode %s before any write, in one line', async (name, mode, why) => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--zone', name, '--mode', mode, '--db', 'zw.db', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`zonewarden migrate: will not migrate ${name}, nothing was written: `);
    expect(r.stderr).toContain(why);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(writesTo(emu)).toEqual([]);
    expect(database(cwd, emu, name).actions).toEqual([]);
  });

  // spec: States and transitions (validation mode -> new version only, no condition): the check and
  // its limits were passed on entering validation mode.
  it('finishes a zone in validation mode although its bypass rule is over 4 KB', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--zone', 'acme-loans.example', '--mode', 'pending', '--db', 'zw.db', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('acme-loans.example has migrated');
    expect(await state(emu, 'acme-loans.example')).toBe('complete');
  });

  it('records the API\'s refusal of an adjusted configuration and exits 2', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    writeFileSync(join(cwd, 'bad.json'), JSON.stringify({ name: 'default', rules: [{ action: 'explode', expression: 'true', enabled: true }] }));
    const r = await migrate(emu, cwd, ['apply', '--zone', 'northwind.example', '--mode', 'pending', '--config', 'bad.json', '--db', 'zw.db', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/zonewarden migrate: the API refused the migration of northwind\.example: PUT .*HTTP 400.*\(recorded in the audit log\)/);
    expect(await state(emu, 'northwind.example')).toBe('default');
    const [row] = database(cwd, emu, 'northwind.example').actions;
    expect(row).toMatchObject({ action: 'migration.pending', outcome: 'failed', httpStatus: 400 });
    expect(row!.apiCodes.length).toBeGreaterThan(0);
  });

  it('prints the dry run as JSON', async () => {
    const emu = await start({ dataset: caseDataset() });
    const r = await migrate(emu, workdir(), ['apply', '--zone', 'northwind.example', '--mode', 'pending', '--format', 'json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ schema: 'zonewarden.migration-apply/2', mode: 'pending', dryRun: true, counts: { 'would migrate': 1 } });
    expect(json.zones[0].request).toMatchObject({ method: 'PUT', query: { waf_migration: 'pending', phase_two: '1' }, rules: 2, configSource: 'config' });
  });
});

// Vendor: the switch can take up to an hour to show; the emulator's --migration-delay models it.
describe('migrate apply, waiting for the API to say so', () => {
  const start = emulatorsClosedAfterEach();

  it('says requested, not migrated, when the status has not changed within --wait, and exits 0', async () => {
    const emu = await start({ dataset: caseDataset(), migrationDelaySeconds: 3600 });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--zone', 'northwind-shop.example', '--mode', 'pending', '--db', 'zw.db', '--yes', '--wait', '0']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('requested: the API took the PUT (HTTP 200)');
    expect(r.stdout).toContain('northwind-shop.example: the status still says start after 0 s; the switch can take up to an hour to show');
    expect(r.stdout).not.toContain('has migrated');
    expect(database(cwd, emu, 'northwind-shop.example').actions).toMatchObject([{ action: 'migration.pending', outcome: 'ok' }]);
  });

  it('reads the status until it shows the new state, then says it has migrated', async () => {
    const emu = await start({ dataset: caseDataset(), migrationDelaySeconds: 1 });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--zone', 'northwind-shop.example', '--mode', 'pending', '--db', 'zw.db', '--yes', '--wait', '30', '--format', 'json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.zones[0]).toMatchObject({ outcome: 'migrated' });
    expect(emu.stats().requests.byRoute['GET /zones/{zone_id}/waf_migration/status']).toBeGreaterThan(2);
    expect(database(cwd, emu, 'northwind-shop.example').scanned).toBe('complete');
  });

  it('lists the zones written but not yet shown as requested in --all-eligible', async () => {
    const emu = await start({ dataset: caseDataset(), migrationDelaySeconds: 3600 });
    const r = await migrate(emu, workdir(), ['apply', '--all-eligible', '--zone', 'northwind-shop.example', '--mode', 'pending', '--db', 'zw.db', '--yes', '--wait', '0']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').find((l) => l.startsWith('northwind-shop.example'))).toMatch(/requested +northwind-shop\.example: the status still says start/);
    expect(r.stdout).toContain('1 zone(s) requested whose status did not show the new state within --wait');
  });
});

describe('migrate apply --all-eligible', () => {
  const start = emulatorsClosedAfterEach();

  it('dry run: a table of every zone in scope, nothing written', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--all-eligible', '--mode', 'validation', '--db', 'zw.db']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^zone +plan +outcome +reason$/);
    expect(lines.find((l) => l.startsWith('acme-cards.example'))).toMatch(/enterprise +would migrate +to validation mode/);
    expect(lines.find((l) => l.startsWith('northwind-shop.example'))).toMatch(/business +skipped +validation mode is for Enterprise zones only/);
    expect(lines.find((l) => l.startsWith('acme-careers.example'))).toMatch(/skipped +acme-careers\.example has already migrated/);
    expect(r.stdout).toContain('dry run: nothing was written; add --yes to migrate the 1 eligible zone(s)');
    expect(r.stderr).toContain('warning: migrating 1 zone(s) to the new managed rules is irreversible');
    expect(writesTo(emu)).toEqual([]);
    expect(existsSync(join(cwd, 'zw.db'))).toBe(false);
  });

  it('migrates the eligible zones of an account, records each write and rescans them', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    const northwind = emu.org.state.zones.find((z) => z.name === 'northwind.example')!.accountId;
    const r = await migrate(emu, cwd, ['apply', '--all-eligible', '--account', northwind, '--mode', 'pending', '--db', 'zw.db', '--yes']);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').map((l) => l.split(/ {2,}/));
    const migrated = rows.filter((cells) => cells[2] === 'migrated').map((cells) => cells[0]);
    expect(migrated).toEqual(['northwind-shop.example', 'northwind.example']);
    expect(rows.find((cells) => cells[0] === 'northwind-blog.example')?.[2]).toBe('skipped');
    // Its previous managed rules are off, so its configuration has every rule disabled: refused.
    expect(rows.find((cells) => cells[0] === 'northwind-staging.example')?.[2]).toBe('skipped');
    expect(r.stdout).toContain('4 zone(s), mode pending: 2 migrated, 2 skipped');
    for (const name of migrated) expect(await state(emu, name!)).toBe('complete');
    const { actions, scanned } = database(cwd, emu, 'northwind.example');
    expect(actions.map((a) => [a.target.name, a.action, a.outcome]).sort()).toEqual(migrated.map((n) => [n, 'migration.pending', 'ok']));
    expect(scanned).toBe('complete');
  });

  // The step is irreversible for every zone the token can see: the user types how many.
  it('with --mode pending and no --zone or --account, needs --confirm-zones matching the eligible count', async () => {
    const emu = await start({ dataset: caseDataset() });
    const dry = await migrate(emu, workdir(), ['apply', '--all-eligible', '--mode', 'pending']);
    const eligible = Number(/add --yes to migrate the (\d+) eligible zone/.exec(dry.stdout)?.[1]);
    expect(eligible).toBeGreaterThan(1);

    const missing = await migrate(emu, workdir(), ['apply', '--all-eligible', '--mode', 'pending', '--db', 'zw.db', '--yes']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`migrates every zone the token can see, irreversibly (${eligible} eligible now); nothing was written`);
    expect(missing.stderr).toContain(`--confirm-zones ${eligible}`);
    const wrong = await migrate(emu, workdir(), ['apply', '--all-eligible', '--mode', 'pending', '--db', 'zw.db', '--yes', '--confirm-zones', String(eligible + 1)]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`--confirm-zones ${eligible + 1} does not match the ${eligible} zone(s) eligible now`);
    expect(writesTo(emu)).toEqual([]);

    const r = await migrate(emu, workdir(), ['apply', '--all-eligible', '--mode', 'pending', '--db', 'zw.db', '--yes', '--confirm-zones', String(eligible)]);
    expect(r.code).toBe(0);
    expect(emu.stats().requests.byRoute[PUT_ENTRYPOINT]).toBe(eligible);
  });

  it('exits 2 when a write fails, and records the failure', async () => {
    const emu = await start({ dataset: caseDataset(), failRoutes: [PUT_ENTRYPOINT] });
    const cwd = workdir();
    const r = await migrate(emu, cwd, ['apply', '--all-eligible', '--zone', 'northwind.example', '--zone', 'acme-careers.example', '--mode', 'pending', '--db', 'zw.db', '--yes', '--format', 'json']);
    expect(r.code).toBe(2);
    const json = JSON.parse(r.stdout);
    expect(json.zones.map((z: { zone: { name: string }; outcome: string }) => [z.zone.name, z.outcome])).toEqual([
      ['acme-careers.example', 'skipped'],
      ['northwind.example', 'failed'],
    ]);
    expect(json.zones[1].httpStatus).toBe(500);
    expect(database(cwd, emu, 'northwind.example').actions).toMatchObject([{ target: { name: 'northwind.example' }, outcome: 'failed', httpStatus: 500 }]);
  });
});

describe('usage', () => {
  const start = emulatorsClosedAfterEach();

  it.each([
    [['launch', '--zone', 'a.example'], 'zonewarden migrate: unknown action "launch"; use plan (read only) or apply'],
    [['apply', '--zone', 'a.example'], 'zonewarden migrate: apply needs --mode: validation'],
    [['apply', '--mode', 'pending'], 'zonewarden migrate: name exactly one zone with --zone NAME|ID, or use --all-eligible'],
    [['plan', '--zone', 'a.example', '--zone', 'b.example'], 'zonewarden migrate: name exactly one zone with --zone NAME|ID\n'],
    [['plan', '--zone', 'a.example', '--yes'], 'zonewarden migrate: --yes belongs to migrate apply'],
    [['apply', '--zone', 'a.example', '--mode', 'pending', '--account', 'x'], '--account selects zones for --all-eligible'],
    [['apply', '--all-eligible', '--mode', 'pending', '--config', 'c.json'], '--config is one zone\'s configuration'],
    [['apply', '--zone', 'a.example', '--mode', 'pending', '--confirm-zones', '3'], '--confirm-zones goes with --all-eligible'],
    [['apply', '--zone', 'a.example', '--mode', 'pending', '--wait', '-1'], '--wait'],
    [['apply', '--zone', 'a.example', '--mode', 'later'], '--mode must be one of validation, pending'],
    [['apply', '--zone', 'a.example', '--mode', 'pending', '--config', 'missing.json'], 'cannot read --config missing.json (ENOENT)'],
  ])('%j: one line, exit 2, no request', async (argv, message) => {
    const emu = await start({ dataset: caseDataset() });
    const r = await migrate(emu, workdir(), argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(emu.stats().requests.total).toBe(0);
  });

  it('refuses a malformed --config file before any request', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    writeFileSync(join(cwd, 'managed.json'), '{"name": "default", "rules": [');
    const r = await migrate(emu, cwd, ['apply', '--zone', 'northwind.example', '--mode', 'pending', '--config', 'managed.json', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zonewarden migrate: --config managed\.json is not valid JSON \(.+\)\n$/);
    expect(emu.stats().requests.total).toBe(0);
  });

  it('does not take --config as the zonewarden config file, which it reads from the default place', async () => {
    const emu = await start({ dataset: caseDataset() });
    const cwd = workdir();
    // A zonewarden config file at the default place still applies (here: where the database goes).
    writeFileSync(join(cwd, 'zonewarden.config.json'), JSON.stringify({ db: 'from-config.db' }));
    writeFileSync(join(cwd, 'managed.json'), JSON.stringify({ name: 'default', rules: [{ action: 'execute', expression: 'true', enabled: true, action_parameters: { id: OWASP_RULESET } }] }));
    const r = await migrate(emu, cwd, ['apply', '--zone', 'northwind.example', '--mode', 'pending', '--config', 'managed.json', '--yes']);
    expect(r.code).toBe(0);
    expect(existsSync(join(cwd, 'from-config.db'))).toBe(true);
    expect(commandHelp(migrateCommand as unknown as Command)).toContain('not the zonewarden config file');
  });
});
