import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, get, raw, zoneId } from '../support/http.js';
import { runInProcess, writeCommand, writesTo } from '../support/in-process.js';

/**
 * `zonewarden firewall create --legacy` (the specification's filter and firewall rule calls) against
 * the tests' organisation in the classic era, the API that still takes them: each test gets a fresh
 * emulator. The default, a WAF custom rule, is tested in firewall-custom.test.ts.
 */

const start = emulatorsClosedAfterEach();

const setup = (emu: RunningEmulator, config?: unknown) => writeCommand(emu, ['firewall', 'create', '--legacy'], config);

/** The error line: informational lines (the rescan) come before it. */
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';


async function rulesOf(emu: RunningEmulator, zone: string): Promise<Array<{ id: string; action: string; filter: { id: string; expression: string } }>> {
  return (await get(emu, `/zones/${zoneId(emu, zone)}/firewall/rules?per_page=100`)).json.result;
}

describe('zonewarden firewall create --legacy', () => {
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

  // spec: Endpoints, Firewall rules 3 (deletion in the reverse order) and Errors 5 (the filter may be created while the rule is not).
  it('deletes the filter it created when the quota refuses the rule for good, says so, and the same command works once there is room', async () => {
    const emu = await start();
    // A quota setting above the plan's lets the pre-check pass, so the API's refusal is what stops it.
    const { run, actions, db } = setup(emu, { rules: { 'firewall-rule-quota': { options: { quotas: { free: 10 } } } } });
    const args = ['--zone', 'tinkerer.test', '--expression', 'ip.src eq 203.0.113.99', '--action', 'block', '--yes'];
    const refused = await run(...args);
    expect(refused.code).toBe(2);
    const filtersOf = async () => (await get(emu, `/zones/${zoneId(emu, 'tinkerer.test')}/filters?per_page=100`)).json.result as Array<{ id: string; expression: string }>;
    expect((await filtersOf()).filter((f) => f.expression === 'ip.src eq 203.0.113.99')).toEqual([]);
    const created = actions()[0]?.target.id;
    expect(lastLine(refused.stderr)).toMatch(new RegExp(`^zonewarden firewall: the rule was refused: .*quota.*\\. The filter ${created} this run created was deleted again: nothing is left behind\\.$`));
    expect(refused.stderr).toMatch(/^rescanned 1 zone\(s\) into scan 1/);
    expect(actions().map((a) => [a.action, a.outcome, a.apiCodes, a.target.id])).toEqual([
      ['filter.create', 'ok', [], created],
      ['rule.create', 'failed', [10019], null],
      ['filter.delete', 'ok', [], created],
    ]);
    // Make room, then run the very same command: it creates filter and rule.
    const victim = (await rulesOf(emu, 'tinkerer.test'))[0]!;
    expect((await raw(emu, 'DELETE', `/zones/${zoneId(emu, 'tinkerer.test')}/firewall/rules/${victim.id}`)).status).toBe(200);
    const finished = await run(...args);
    expect(finished.code).toBe(0);
    expect((await rulesOf(emu, 'tinkerer.test')).filter((x) => x.filter.expression === 'ip.src eq 203.0.113.99')).toHaveLength(1);

    // `zonewarden log` reads the same record back, newest first.
    const log = await runInProcess(['log', '--db', db], {}, '/');
    expect(log.code).toBe(0);
    expect(log.stdout.trimEnd().split('\n').map((l) => l.replace(/^\S+ {2}/, '')).slice(2)).toEqual([
      expect.stringMatching(/^ok {6}firewall create: filter\.delete filter \w+ on tinkerer\.test$/),
      expect.stringMatching(/^failed {2}firewall create: rule\.create firewall_rule \(none\) on tinkerer\.test HTTP 400 codes 10019: .*quota/),
      expect.stringMatching(/^ok {6}firewall create: filter\.create filter \w+ on tinkerer\.test$/),
    ]);
  });

  it('names the filter left behind when deleting it fails too', async () => {
    const emu = await start({ dataset: caseDataset(), failRoutes: ['DELETE /zones/{zone_id}/filters/{filter_id}'] });
    const { run, actions } = setup(emu, { rules: { 'firewall-rule-quota': { options: { quotas: { free: 10 } } } } });
    const refused = await run('--zone', 'tinkerer.test', '--expression', 'ip.src eq 203.0.113.98', '--action', 'block', '--yes');
    expect(refused.code).toBe(2);
    const orphan = actions()[0]?.target.id as string;
    expect(lastLine(refused.stderr)).toContain(`Deleting the filter ${orphan} this run created failed too`);
    expect(lastLine(refused.stderr)).toContain(`it is left without a rule; delete it (DELETE /zones/${zoneId(emu, 'tinkerer.test')}/filters/${orphan})`);
    expect(actions().map((a) => [a.action, a.outcome, a.detail['orphanFilterId'] ?? null])).toEqual([
      ['filter.create', 'ok', null],
      ['rule.create', 'failed', null],
      ['filter.delete', 'failed', orphan],
    ]);
  });

  it('keeps the filter when the rule call fails in a way that may pass (a server error), and says the next run finishes with it', async () => {
    const emu = await start({ dataset: caseDataset(), failRoutes: ['POST /zones/{zone_id}/firewall/rules'] });
    const { run, actions } = setup(emu);
    const r = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.9', '--action', 'block', '--yes');
    expect(r.code).toBe(2);
    const kept = actions()[0]?.target.id as string;
    expect(lastLine(r.stderr)).toMatch(new RegExp(`The filter ${kept} is kept: the failure may pass, and running the same command again finishes the job with it\\.$`));
    expect(actions().map((a) => a.action)).toEqual(['filter.create', 'rule.create']);
    const filters = (await get(emu, `/zones/${zoneId(emu, 'northwind.example')}/filters?per_page=100`)).json.result as Array<{ id: string }>;
    expect(filters.map((f) => f.id)).toContain(kept);
  });

  // vendor docs: firewall rules actions. log is Enterprise only; matches (regex) Business and Enterprise only; bypass names its products.
  it('refuses before writing what the plan does not allow: log below Enterprise, regex on Free and Pro, bypass without --products', async () => {
    const emu = await start();
    const { run, actions } = setup(emu);
    const log = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 192.0.2.1', '--action', 'log', '--yes');
    expect(log.code).toBe(2);
    expect(log.stderr).toBe('zonewarden firewall: --action log is available on Enterprise zones only and northwind.example is on the pro plan: use another action, e.g. managed_challenge (nothing was written)\n');
    const regex = await run('--zone', 'pet-photos.example.org', '--expression', 'http.request.uri.path matches "^/wp-"', '--action', 'block', '--yes');
    expect(regex.stderr).toMatch(/^zonewarden firewall: the expression uses a regular expression \(matches or ~\), which needs a Business or Enterprise plan, and pet-photos\.example\.org is on the free plan/);
    const bypass = await run('--zone', 'northwind-shop.example', '--expression', 'ip.src eq 192.0.2.1', '--action', 'bypass', '--yes');
    expect(bypass.stderr).toBe('zonewarden firewall: --action bypass needs --products, the features it skips: some of zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf (e.g. --products waf)\n');
    const stray = await run('--zone', 'northwind-shop.example', '--expression', 'ip.src eq 192.0.2.1', '--action', 'block', '--products', 'waf', '--yes');
    expect(stray.stderr).toBe('zonewarden firewall: --products applies to --action bypass only; drop it for --action block\n');
    const unknown = await run('--zone', 'northwind-shop.example', '--expression', 'ip.src eq 192.0.2.1', '--action', 'bypass', '--products', 'waf,firewall', '--yes');
    expect(unknown.stderr).toMatch(/^zonewarden firewall: --products firewall is not a product a bypass rule can skip/);
    // A regex inside a string is data, and a Business zone may use matches.
    const quoted = await run('--zone', 'pet-photos.example.org', '--expression', 'http.request.uri.path eq "/matches"', '--action', 'block');
    expect(quoted.code).toBe(0);
    expect(writesTo(emu)).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('creates a bypass rule with the products it skips', async () => {
    const emu = await start();
    const { run } = setup(emu);
    const r = await run('--zone', 'northwind-shop.example', '--expression', 'ip.src eq 192.0.2.10', '--action', 'bypass', '--products', 'waf,rateLimit', '--products', 'uaBlock', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('creating a rule: action bypass, skipping waf, rateLimit, uaBlock');
    const rule = (await rulesOf(emu, 'northwind-shop.example')).find((x) => x.filter.expression === 'ip.src eq 192.0.2.10') as unknown as { products: string[] };
    expect(rule.products).toEqual(['waf', 'rateLimit', 'uaBlock']);
  });

  it('never reuses a paused filter: it names it and writes nothing', async () => {
    const emu = await start();
    const { run, actions } = setup(emu);
    const zone = zoneId(emu, 'northwind.example');
    const paused = (await raw(emu, 'POST', `/zones/${zone}/filters`, { body: [{ expression: 'ip.src eq 198.51.100.66', paused: true }] })).json.result[0].id as string;
    const before = writesTo(emu);
    for (const extra of [[], ['--emergency']]) {
      const r = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.66', '--action', 'block', '--yes', ...extra);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `zonewarden firewall: filter ${paused} already has this expression but is paused, so a rule on it would never match: unpause it with PUT /zones/${zone}/filters/${paused} {"paused": false} if those rules may run, or delete it, then run the command again (nothing was written)\n`,
      );
    }
    expect(writesTo(emu)).toEqual(before);
    expect(actions()).toEqual([]);
  });

  it('a paused rule does not already run the expression: an active one is created on the same filter', async () => {
    const emu = await start();
    const { run } = setup(emu, { rules: { 'firewall-rule-quota': { options: { quotas: { pro: 25 } } } } });
    const zone = zoneId(emu, 'northwind.example');
    const filter = (await raw(emu, 'POST', `/zones/${zone}/filters`, { body: [{ expression: 'ip.src eq 198.51.100.67' }] })).json.result[0].id as string;
    const pausedRule = (await raw(emu, 'POST', `/zones/${zone}/firewall/rules`, { body: [{ action: 'block', paused: true, filter: { id: filter } }] })).json.result[0].id as string;
    const r = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.67', '--action', 'block', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`rule ${pausedRule} does the same but is paused, so it does not count: creating an active rule`);
    const active = (await rulesOf(emu, 'northwind.example')).filter((x) => x.filter.id === filter && !(x as unknown as { paused: boolean }).paused);
    expect(active).toHaveLength(1);
  });

  it('--emergency creates filter and rule in one call; after a quota refusal it deletes the filter the call left, found by reading back', async () => {
    const emu = await start();
    const { run, actions } = setup(emu, { rules: { 'firewall-rule-quota': { options: { quotas: { free: 10 } } } } });
    const ok = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.8', '--action', 'block', '--emergency', '--yes');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/created rule \w+ with its filter inline on northwind\.example/);
    expect(Object.keys(emu.stats().requests.byRoute).filter((k) => k.startsWith('POST'))).toEqual(['POST /zones/{zone_id}/firewall/rules']);
    const refused = await run('--zone', 'tinkerer.test', '--expression', 'ip.src eq 203.0.113.50', '--action', 'block', '--emergency', '--yes');
    expect(refused.code).toBe(2);
    expect(lastLine(refused.stderr)).toMatch(/^zonewarden firewall: the rule was refused: .*quota.*\. The filter (\w+) this run created was deleted again: nothing is left behind\.$/);
    const orphan = /The filter (\w+) this run/.exec(refused.stderr)?.[1];
    expect(actions().map((a) => [a.action, a.outcome, a.detail['orphanFilterId'] ?? a.target.id ?? null])).toEqual([
      ['rule.create', 'ok', expect.any(String)],
      ['rule.create', 'failed', orphan],
      ['filter.delete', 'ok', orphan],
    ]);
    const filters = (await get(emu, `/zones/${zoneId(emu, 'tinkerer.test')}/filters?per_page=100`)).json.result as Array<{ expression: string }>;
    expect(filters.filter((f) => f.expression === 'ip.src eq 203.0.113.50')).toEqual([]);
  });
});
