import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { emulatorsClosedAfterEach, get, raw, zoneId } from '../support/http.js';
import { runInProcess, writeCommand, writesTo } from '../support/in-process.js';

/** `zonewarden firewall create` against the demo organisation: each test gets a fresh emulator. */

const start = emulatorsClosedAfterEach();

const setup = (emu: RunningEmulator, config?: unknown) => writeCommand(emu, ['firewall', 'create'], config);

/** The error line: informational lines (the rescan) come before it. */
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';


async function rulesOf(emu: RunningEmulator, zone: string): Promise<Array<{ id: string; action: string; filter: { id: string; expression: string } }>> {
  return (await get(emu, `/zones/${zoneId(emu, zone)}/firewall/rules?per_page=100`)).json.result;
}

describe('zonewarden firewall create', () => {
  it('is a dry run without --yes: it says what it would create and writes nothing', async () => {
    const emu = await start();
    const { run, actions } = setup(emu);
    const r = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.7', '--action', 'block', '--description', 'scraper');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'zone northwind.example (pro plan): 16 firewall rule(s) of 20 allowed',
        'would create a filter: ip.src eq 198.51.100.7',
        'would create a rule: action block, "scraper"',
        'dry run: nothing was written; add --yes to create it',
        '',
      ].join('\n'),
    );
    expect(writesTo(emu)).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('creates the filter, then the rule that references it, logs both and rescans the zone', async () => {
    const emu = await start();
    const { run, actions, db } = setup(emu);
    const r = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.7', '--action', 'challenge', '--priority', '5', '--yes');
    expect(r.stderr).toMatch(/rescanned 1 zone\(s\) into scan 1 \(complete\)/);
    expect(r.code).toBe(0);
    expect(Object.keys(emu.stats().requests.byRoute).filter((k) => k.startsWith('POST'))).toEqual(['POST /zones/{zone_id}/filters', 'POST /zones/{zone_id}/firewall/rules']);
    const created = (await rulesOf(emu, 'northwind.example')).find((x) => x.filter.expression === 'ip.src eq 198.51.100.7');
    expect(created).toMatchObject({ action: 'challenge', priority: 5 });
    expect(r.stdout).toContain(`created rule ${created?.id} with filter ${created?.filter.id} on northwind.example`);
    expect(actions().map((a) => [a.action, a.outcome, a.target.id, a.zone?.name])).toEqual([
      ['filter.create', 'ok', created?.filter.id, 'northwind.example'],
      ['rule.create', 'ok', created?.id, 'northwind.example'],
    ]);
    const handle = openSnapshot(db);
    try {
      const reader = new SnapshotReader(handle, 1);
      expect(reader.scan.scope.zones).toEqual(['northwind.example']);
      const rules = reader.firewallRules(zoneId(emu, 'northwind.example'));
      expect(rules.known && rules.items.map((x) => x.id)).toContain(created?.id);
    } finally {
      handle.close();
    }
    // Running it again finds the rule in place and writes nothing more.
    const again = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.7', '--action', 'challenge', '--yes');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`rule ${created?.id} already runs this expression with action challenge: nothing to do`);
    expect(actions()).toHaveLength(2);
  });

  it('refuses before writing: a zone at its quota, an expression over 4,096 characters, an unknown action', async () => {
    const emu = await start();
    const { run, actions } = setup(emu);
    const full = await run('--zone', 'tinkerer.test', '--expression', 'ip.src eq 192.0.2.1', '--action', 'block', '--yes');
    expect(full.code).toBe(2);
    expect(full.stderr).toBe('zonewarden firewall: tinkerer.test has 5 firewall rules, the free plan\'s quota of 5: delete or merge a rule first (nothing was written)\n');
    const long = await run('--zone', 'northwind.example', '--expression', `http.request.uri.path eq "/${'x'.repeat(4069)}"`, '--action', 'block', '--yes');
    expect(long.code).toBe(2);
    expect(long.stderr).toBe("zonewarden firewall: the expression is 4,097 characters, over the rules language's limit of 4,096: split it over several rules\n");
    const action = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 192.0.2.1', '--action', 'drop', '--yes');
    expect(action.stderr).toMatch(/^zonewarden firewall: --action drop is not a firewall rule action; use one of block, challenge/);
    const missing = await run('--zone', 'northwind.example', '--action', 'block');
    expect(missing.stderr).toBe("zonewarden firewall: --expression is required; see 'zonewarden firewall --help'\n");
    expect(writesTo(emu)).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('keeps the filter when the quota refuses the rule, says so, and finishes with it on the next run', async () => {
    const emu = await start();
    // A quota setting above the plan's lets the pre-check pass, so the API's refusal is what stops it.
    const { run, actions, db } = setup(emu, { rules: { 'firewall-rule-quota': { options: { quotas: { free: 10 } } } } });
    const args = ['--zone', 'tinkerer.test', '--expression', 'ip.src eq 203.0.113.99', '--action', 'block', '--yes'];
    const refused = await run(...args);
    expect(refused.code).toBe(2);
    const filters = (await get(emu, `/zones/${zoneId(emu, 'tinkerer.test')}/filters?per_page=100`)).json.result as Array<{ id: string; expression: string }>;
    const kept = filters.find((f) => f.expression === 'ip.src eq 203.0.113.99');
    expect(kept).toBeDefined();
    expect(lastLine(refused.stderr)).toMatch(new RegExp(`^zonewarden firewall: the filter ${kept?.id} is in place but the rule was refused: .*quota.*The filter is kept: fix the cause and run the same command again to finish with it$`));
    expect(refused.stderr).toMatch(/^rescanned 1 zone\(s\) into scan 1/);
    expect(actions().map((a) => [a.action, a.outcome, a.apiCodes])).toEqual([
      ['filter.create', 'ok', []],
      ['rule.create', 'failed', [10019]],
    ]);
    // Make room, then run the very same command: the kept filter is reused.
    const victim = (await rulesOf(emu, 'tinkerer.test'))[0]!;
    expect((await raw(emu, 'DELETE', `/zones/${zoneId(emu, 'tinkerer.test')}/firewall/rules/${victim.id}`)).status).toBe(200);
    const finished = await run(...args);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain(`reusing filter ${kept?.id}`);
    expect((await rulesOf(emu, 'tinkerer.test')).filter((x) => x.filter.id === kept?.id)).toHaveLength(1);
    expect(actions().slice(2).map((a) => [a.action, a.outcome, a.detail['filterReused']])).toEqual([['rule.create', 'ok', true]]);

    // `zonewarden log` reads the same record back, newest first.
    const log = await runInProcess(['log', '--db', db], {}, '/');
    expect(log.code).toBe(0);
    expect(log.stdout.trimEnd().split('\n').map((l) => l.replace(/^\S+ {2}/, ''))).toEqual([
      expect.stringMatching(/^ok {6}firewall create: rule\.create firewall_rule \w+ on tinkerer\.test$/),
      expect.stringMatching(/^failed {2}firewall create: rule\.create firewall_rule \(none\) on tinkerer\.test HTTP 400 codes 10019: .*quota/),
      expect.stringMatching(/^ok {6}firewall create: filter\.create filter \w+ on tinkerer\.test$/),
    ]);
  });

  it('keeps the filter when the plan lacks a feature the expression needs', async () => {
    const emu = await start();
    const { run, actions } = setup(emu);
    const r = await run('--zone', 'pet-photos.example.org', '--expression', 'http.request.uri.path matches "^/wp-"', '--action', 'block', '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the filter \w+ is in place but the rule was refused: .*not_entitled/);
    expect(actions().map((a) => [a.action, a.outcome, a.apiCodes])).toEqual([
      ['filter.create', 'ok', []],
      ['rule.create', 'failed', [10020]],
    ]);
  });

  it('--emergency creates filter and rule in one call; after a quota refusal it names the filter left behind', async () => {
    const emu = await start();
    const { run, actions } = setup(emu, { rules: { 'firewall-rule-quota': { options: { quotas: { free: 10 } } } } });
    const ok = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.8', '--action', 'block', '--emergency', '--yes');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/created rule \w+ with its filter inline on northwind\.example/);
    expect(Object.keys(emu.stats().requests.byRoute).filter((k) => k.startsWith('POST'))).toEqual(['POST /zones/{zone_id}/firewall/rules']);
    const refused = await run('--zone', 'tinkerer.test', '--expression', 'ip.src eq 203.0.113.50', '--action', 'block', '--emergency', '--yes');
    expect(refused.code).toBe(2);
    expect(lastLine(refused.stderr)).toMatch(/^zonewarden firewall: the rule was refused: .*quota.* The filter (\w+) was created without its rule and is kept: run the same command again to finish with it\.$/);
    const orphan = /The filter (\w+) was created/.exec(refused.stderr)?.[1];
    expect(actions().map((a) => [a.action, a.outcome, a.detail['orphanFilterId'] ?? null])).toEqual([
      ['rule.create', 'ok', null],
      ['rule.create', 'failed', orphan],
    ]);
  });
});
