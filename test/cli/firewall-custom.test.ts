import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, get, raw, TOKEN, zoneId } from '../support/http.js';
import { runInProcess, writeCommand, writesTo } from '../support/in-process.js';

/**
 * `zonewarden firewall create`: a WAF custom rule through the rulesets API (vendor docs: WAF,
 * "Create custom rules via API"; "Firewall rules upgrade": the firewall rules and filters APIs are
 * no longer supported since 2025-06-15). Today's API is the emulator's `retired` era.
 */

const start = emulatorsClosedAfterEach();
const today = () => start({ dataset: caseDataset(), apiEra: 'retired' });
const setup = (emu: RunningEmulator, config?: unknown) => writeCommand(emu, ['firewall', 'create'], config);
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

interface Rule {
  id: string;
  ref: string;
  action: string;
  expression: string;
  enabled: boolean;
  description: string;
  action_parameters?: Record<string, unknown>;
}

async function customRules(emu: RunningEmulator, zone: string): Promise<{ status: number; id?: string; version?: string; rules: Rule[] }> {
  const r = await get(emu, `/zones/${zoneId(emu, zone)}/rulesets/phases/http_request_firewall_custom/entrypoint`);
  return r.status === 200 ? { status: 200, ...r.json.result } : { status: r.status, rules: [] };
}

const BLOCK = ['--zone', 'northwind.example', '--expression', 'ip.src eq 198.51.100.77', '--action', 'block', '--description', 'scraper'];

describe('zonewarden firewall create (a WAF custom rule)', () => {
  it('is a dry run without --yes: it says what it would add, and writes nothing', async () => {
    const emu = await today();
    const { run, actions } = setup(emu);
    const before = await customRules(emu, 'northwind.example');
    const r = await run(...BLOCK);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('zone northwind.example (pro plan): 17 custom rule(s) of 20 allowed');
    expect(lines[1]).toMatch(new RegExp(`^would add a custom rule to entry point ${before.id} \\(last\\): action block, "scraper", ref zonewarden-[0-9a-f]{20}$`));
    expect(lines.slice(2)).toEqual(['expression: ip.src eq 198.51.100.77', 'dry run: nothing was written; add --yes to create it']);
    expect(writesTo(emu)).toEqual([]);
    expect(actions()).toEqual([]);
    expect(await customRules(emu, 'northwind.example')).toEqual(before);
  });

  it('--yes against today\'s API adds one custom rule to the entry point, logs it, rescans; run again it is a no-op', async () => {
    const emu = await today();
    const { run, actions, db } = setup(emu);
    const before = await customRules(emu, 'northwind.example');
    const r = await run(...BLOCK, '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(writesTo(emu)).toEqual(['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules']);
    const after = await customRules(emu, 'northwind.example');
    expect(after.version).toBe(String(Number(before.version) + 1));
    const added = after.rules.filter((x) => x.expression === 'ip.src eq 198.51.100.77');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ action: 'block', enabled: true, description: 'scraper', ref: expect.stringMatching(/^zonewarden-[0-9a-f]{20}$/) });
    expect(after.rules.at(-1)).toEqual(added[0]);
    expect(r.stdout).toContain(`created custom rule ${added[0]!.id} on northwind.example: entry point ${after.id}, version ${after.version}`);
    expect(r.stderr).toMatch(/rescanned 1 zone\(s\) into scan 1 \(complete\)/);
    expect(actions().map((a) => [a.action, a.outcome, a.target.type, a.target.id, a.detail['ref']])).toEqual([['custom_rule.create', 'ok', 'custom_rule', added[0]!.id, added[0]!.ref]]);
    // The rescan stored the new rule.
    const handle = openSnapshot(db);
    try {
      const stored = new SnapshotReader(handle, 1).zoneObject(zoneId(emu, 'northwind.example'), 'custom_entrypoint');
      expect(stored.known).toBe(true);
      const ruleset = JSON.parse(stored.known ? stored.items[0]!.raw : '{}') as { rules: Rule[] };
      expect(ruleset.rules.map((x) => x.id)).toContain(added[0]!.id);
    } finally {
      handle.close();
    }
    const writes = emu.stats().requests.byRoute['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules'];
    const again = await run(...BLOCK, '--yes');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`custom rule ${added[0]!.id} already runs this expression with action block: nothing to do`);
    expect(emu.stats().requests.byRoute['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules']).toBe(writes);
    expect(actions()).toHaveLength(1);
    // `zonewarden log` shows the write.
    const log = await runInProcess(['log', '--db', db], {}, '/');
    expect(log.stdout).toMatch(new RegExp(`ok {6}firewall create: custom_rule\\.create custom_rule ${added[0]!.id} "scraper" on northwind\\.example`));
  });

  // vendor docs: create custom rules via API: a zone without the entry point gets it created with the rule.
  it('creates the entry point with the rule on a zone that has none', async () => {
    const emu = await today();
    const { run } = setup(emu);
    expect((await customRules(emu, 'weekend-hack.test')).status).toBe(404);
    const r = await run('--zone', 'weekend-hack.test', '--expression', 'http.request.uri.path eq "/xmlrpc.php"', '--action', 'managed_challenge', '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("creating the zone's custom rules entry point with the rule: action managed_challenge");
    // vendor docs: create a ruleset (kind zone, the phase): unlike a PUT of the entry point, it never replaces rules.
    expect(writesTo(emu)).toEqual(['POST /zones/{zone_id}/rulesets']);
    const after = await customRules(emu, 'weekend-hack.test');
    expect(after.rules.map((x) => [x.action, x.expression])).toEqual([['managed_challenge', 'http.request.uri.path eq "/xmlrpc.php"']]);
    expect(r.stdout).toContain(`entry point ${after.id} (created), version 1`);
  });

  it('a disabled rule that does the same does not count: it is named and an enabled one is created; --disabled is a no-op then', async () => {
    const emu = await today();
    const { run } = setup(emu);
    const r1 = await run(...BLOCK, '--disabled', '--yes');
    expect(r1.code, r1.stderr).toBe(0);
    const disabled = (await customRules(emu, 'northwind.example')).rules.find((x) => x.expression === 'ip.src eq 198.51.100.77')!;
    expect(disabled.enabled).toBe(false);
    const r2 = await run(...BLOCK, '--yes');
    expect(r2.stdout).toContain(`custom rule ${disabled.id} does the same but is disabled, so it does not count: creating an enabled rule`);
    const same = (await customRules(emu, 'northwind.example')).rules.filter((x) => x.expression === 'ip.src eq 198.51.100.77');
    expect(same.map((x) => x.enabled)).toEqual([false, true]);
    expect(same[0]!.ref).not.toBe(same[1]!.ref);
    const r3 = await run(...BLOCK, '--disabled', '--yes');
    expect(r3.stdout).toMatch(/already runs this expression with action block: nothing to do/);
  });

  // vendor docs: change the order of a rule in a ruleset (position before / after a rule id; "" first).
  it('puts the rule where --position says: first, before or after a rule named by id or ref', async () => {
    const emu = await today();
    const { run } = setup(emu);
    const rules = (await customRules(emu, 'northwind.example')).rules;
    const place = async (position: string, n: number) => {
      const r = await run('--zone', 'northwind.example', '--expression', `ip.src eq 203.0.113.${n}`, '--action', 'block', '--position', position, '--yes');
      expect(r.code, r.stderr).toBe(0);
      return (await customRules(emu, 'northwind.example')).rules.findIndex((x) => x.expression === `ip.src eq 203.0.113.${n}`);
    };
    const unknown = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 203.0.113.9', '--action', 'block', '--position', 'after:no-such-rule', '--yes');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `zonewarden firewall: --position after:no-such-rule: northwind.example has no custom rule with that id or ref; list them with zonewarden api /zones/${zoneId(emu, 'northwind.example')}/rulesets/phases/http_request_firewall_custom/entrypoint (nothing was written)\n`,
    );
    expect(await place(`before:${rules[3]!.id}`, 1)).toBe(3);
    expect(await place(`after:${rules[5]!.ref}`, 2)).toBe(7);
    expect(await place('first', 3)).toBe(0);
    const bad = await run(...BLOCK, '--position', 'middle');
    expect(bad.stderr).toMatch(/--position middle is not a position; use first, last, before:RULE or after:RULE/);
  });

  // vendor docs: custom rules, available skip options (ruleset current, phases, products).
  it('writes a skip rule with what it skips as action_parameters', async () => {
    const emu = await today();
    const { run } = setup(emu);
    const r = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 192.0.2.10', '--action', 'skip', '--skip', 'http_request_firewall_managed,waf', '--skip', 'current', '--yes');
    expect(r.code, r.stderr).toBe(0);
    const rule = (await customRules(emu, 'northwind.example')).rules.find((x) => x.expression === 'ip.src eq 192.0.2.10');
    expect(rule?.action_parameters).toEqual({ ruleset: 'current', phases: ['http_request_firewall_managed'], products: ['waf'] });
    // A rule written elsewhere with the same skip options in another order (and other spacing) is the same rule: nothing to do.
    const entry = await customRules(emu, 'northwind.example');
    const other = { action: 'skip', expression: 'ip.src eq  192.0.2.12', action_parameters: { products: ['uaBlock', 'waf'], phases: ['http_ratelimit'] } };
    expect((await raw(emu, 'POST', `/zones/${zoneId(emu, 'northwind.example')}/rulesets/${entry.id}/rules`, { body: other })).status).toBe(200);
    const same = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 192.0.2.12', '--action', 'skip', '--skip', 'http_ratelimit,waf,uaBlock', '--yes');
    expect(same.stdout).toMatch(/already runs this expression with action skip: nothing to do/);
    const missing = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 192.0.2.11', '--action', 'skip');
    expect(missing.stderr).toMatch(/^zonewarden firewall: --action skip needs --skip, what it skips/);
    const stray = await run(...BLOCK, '--skip', 'waf');
    expect(stray.stderr).toBe('zonewarden firewall: --skip applies to --action skip only; drop it for --action block\n');
  });

  // vendor docs: custom rules availability: Free 5 rules, log Enterprise only, regex Business and Enterprise; rules language: 4,096 characters.
  it('refuses before writing: the quota, an expression over 4,096 characters, regex on Free, log below Enterprise, allow', async () => {
    const emu = await today();
    const { run, actions } = setup(emu);
    for (const n of [4, 5]) expect((await run('--zone', 'fabrikam-trails.example', '--expression', `ip.src eq 192.0.2.${n}`, '--action', 'block', '--yes')).code).toBe(0);
    const writes = writesTo(emu);
    const full = await run('--zone', 'fabrikam-trails.example', '--expression', 'ip.src eq 192.0.2.6', '--action', 'block', '--yes');
    expect(full.code).toBe(2);
    expect(full.stderr).toBe("zonewarden firewall: fabrikam-trails.example has 5 custom rules, the free plan's quota of 5: delete or merge a rule first (nothing was written)\n");
    const long = await run('--zone', 'northwind.example', '--expression', `http.request.uri.path eq "/${'x'.repeat(4069)}"`, '--action', 'block', '--yes');
    expect(long.stderr).toBe("zonewarden firewall: the expression is 4,097 characters, over the rules language's limit of 4,096: split it over several rules\n");
    const regex = await run('--zone', 'pet-photos.example.org', '--expression', 'http.request.uri.path matches "^/wp-"', '--action', 'block', '--yes');
    expect(regex.stderr).toMatch(/^zonewarden firewall: the expression uses a regular expression \(matches or ~\), which needs a Business or Enterprise plan, and pet-photos\.example\.org is on the free plan/);
    const log = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 192.0.2.1', '--action', 'log', '--yes');
    expect(log.stderr).toBe('zonewarden firewall: --action log is available on Enterprise zones only and northwind.example is on the pro plan: use another action, e.g. managed_challenge (nothing was written)\n');
    const allow = await run('--zone', 'northwind.example', '--expression', 'ip.src eq 192.0.2.1', '--action', 'allow', '--yes');
    expect(allow.stderr).toMatch(/^zonewarden firewall: --action allow is not a custom rule action; use one of block, managed_challenge, js_challenge, challenge, log, skip/);
    expect(writesTo(emu)).toEqual(writes);
    expect(actions()).toHaveLength(2);
  });

  it('when the API refuses the rule (its quota, below a configured one), says so and writes nothing', async () => {
    const emu = await today();
    const { run, actions } = setup(emu, { rules: { 'custom-rules-quota': { options: { quotas: { free: 10 } } } } });
    for (const n of [4, 5]) expect((await run('--zone', 'fabrikam-trails.example', '--expression', `ip.src eq 192.0.2.${n}`, '--action', 'block', '--yes')).code).toBe(0);
    const reads = { ...emu.stats().requests.byRoute };
    const refused = await run('--zone', 'fabrikam-trails.example', '--expression', 'ip.src eq 192.0.2.6', '--action', 'block', '--yes');
    expect(refused.code).toBe(2);
    // A refusal changed nothing: the zone is not rescanned (its requests are the zone, the entry point and the refused write).
    const spent = Object.entries(emu.stats().requests.byRoute).filter(([route, n]) => n !== (reads[route] ?? 0)).map(([route]) => route).sort();
    expect(spent).toEqual(['GET /zones', 'GET /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint', 'POST /zones/{zone_id}/rulesets/{ruleset_id}/rules']);
    expect(refused.stdout).not.toContain('rescanned');
    expect(lastLine(refused.stderr)).toMatch(/^zonewarden firewall: the custom rule was refused: .*exceeded maximum number of rules in the phase http_request_firewall_custom: 6 out of 5.* \(nothing was written\)$/);
    expect((await customRules(emu, 'fabrikam-trails.example')).rules).toHaveLength(5);
    expect(actions().map((a) => [a.outcome, a.apiCodes])).toEqual([['ok', []], ['ok', []], ['failed', [20217]]]);
  });
});

describe('a token that may not read the custom rules', () => {
  it('is told which permission writing them needs, and nothing is written', async () => {
    const emu = await start({ dataset: caseDataset(), apiEra: 'retired', denyRoutes: ['GET /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint'] });
    const { run } = setup(emu);
    const r = await run(...BLOCK, '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zonewarden firewall: reading the custom rules of northwind\.example was refused \(.*\): writing custom rules needs a token with Zone · Zone WAF · Edit \(nothing was written\)\n$/);
    expect(writesTo(emu)).toEqual([]);
  });
});

/**
 * A proxy in front of the emulator through which a colleague creates the zone's custom rules entry
 * point (with a rule of theirs) right after zonewarden read that it had none.
 */
async function racingColleague(emu: RunningEmulator, zone: string, colleague: Record<string, unknown>): Promise<string> {
  const target = new URL(emu.url);
  const entrypointPath = `${target.pathname}/zones/${zoneId(emu, zone)}/rulesets/phases/http_request_firewall_custom/entrypoint`;
  let raced = false;
  const server = createServer((req, res) => {
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const relay = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
        };
        if (raced || req.method !== 'GET' || req.url !== entrypointPath || answer.statusCode !== 404) return relay();
        raced = true;
        void raw(emu, 'PUT', `/zones/${zoneId(emu, zone)}/rulesets/phases/http_request_firewall_custom/entrypoint`, { body: { rules: [colleague] } }).then(relay);
      });
    });
    req.pipe(upstream);
  });
  proxies.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`;
}

const proxies: Server[] = [];
afterEach(async () => {
  for (const s of proxies.splice(0)) await new Promise((r) => s.close(r));
});

describe('an entry point created by someone else between the read and the write', () => {
  it("keeps the colleague's rule and adds ours to their entry point (a PUT would have replaced it)", async () => {
    const emu = await today();
    const colleague = { action: 'block', expression: 'ip.src eq 192.0.2.66', description: "a colleague's rule", ref: 'colleague-1' };
    const base = await racingColleague(emu, 'weekend-hack.test', colleague);
    const { db } = setup(emu);
    const args = ['--zone', 'weekend-hack.test', '--expression', 'http.request.uri.path eq "/xmlrpc.php"', '--action', 'managed_challenge', '--yes'];
    const r = await runInProcess(['firewall', 'create', '--base-url', base, '--db', db, '--budget', '1000000', ...args], { ZONEWARDEN_API_TOKEN: TOKEN }, '/');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("the zone's http_request_firewall_custom entry point was created by someone else after it was read");
    const after = await customRules(emu, 'weekend-hack.test');
    expect(after.rules.map((x) => [x.ref, x.action, x.expression])).toEqual([
      ['colleague-1', 'block', 'ip.src eq 192.0.2.66'],
      [expect.stringMatching(/^zonewarden-[0-9a-f]{20}$/), 'managed_challenge', 'http.request.uri.path eq "/xmlrpc.php"'],
    ]);
    expect(r.stdout).toContain(`created custom rule ${after.rules[1]!.id} on weekend-hack.test: entry point ${after.id}, version 2`);
  });

  it('plans again when its create failed and the entry point read back is the colleague\'s: their same rule is not doubled', async () => {
    const emu = await start({ dataset: caseDataset(), apiEra: 'retired', failRoutes: ['POST /zones/{zone_id}/rulesets'] });
    const colleague = { action: 'managed_challenge', expression: 'http.request.uri.path eq "/xmlrpc.php"', ref: 'colleague-1' };
    const base = await racingColleague(emu, 'weekend-hack.test', colleague);
    const { db } = setup(emu);
    const args = ['--zone', 'weekend-hack.test', '--expression', 'http.request.uri.path eq "/xmlrpc.php"', '--action', 'managed_challenge', '--yes', '--retries', '0'];
    const r = await runInProcess(['firewall', 'create', '--base-url', base, '--db', db, '--budget', '1000000', ...args], { ZONEWARDEN_API_TOKEN: TOKEN }, '/');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('was created by someone else while the create failed');
    expect(lastLine(r.stdout)).toMatch(/already runs this expression with action managed_challenge: nothing to do$/);
    expect((await customRules(emu, 'weekend-hack.test')).rules.map((x) => x.ref)).toEqual(['colleague-1']);
  });

  it('is a no-op when the colleague created the same rule', async () => {
    const emu = await today();
    const colleague = { action: 'managed_challenge', expression: 'http.request.uri.path eq "/xmlrpc.php"', ref: 'colleague-1' };
    const base = await racingColleague(emu, 'weekend-hack.test', colleague);
    const { db } = setup(emu);
    const args = ['--zone', 'weekend-hack.test', '--expression', 'http.request.uri.path eq "/xmlrpc.php"', '--action', 'managed_challenge', '--yes'];
    const r = await runInProcess(['firewall', 'create', '--base-url', base, '--db', db, '--budget', '1000000', ...args], { ZONEWARDEN_API_TOKEN: TOKEN }, '/');
    expect(r.code, r.stderr).toBe(0);
    expect(lastLine(r.stdout)).toMatch(/already runs this expression with action managed_challenge: nothing to do$/);
    expect((await customRules(emu, 'weekend-hack.test')).rules.map((x) => x.ref)).toEqual(['colleague-1']);
  });
});

describe('a write whose answer is lost', () => {
  it('finds the rule by its ref instead of writing it again, and the next run is a no-op', async () => {
    const emu = await start({ dataset: caseDataset(), apiEra: 'retired', lostAnswerRoutes: ['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules'] });
    const { run, actions } = setup(emu);
    const r = await run(...BLOCK, '--yes');
    expect(r.code, r.stderr).toBe(0);
    const same = (await customRules(emu, 'northwind.example')).rules.filter((x) => x.expression === 'ip.src eq 198.51.100.77');
    expect(same).toHaveLength(1);
    expect(r.stdout).toMatch(new RegExp(`created custom rule ${same[0]!.id} on northwind\\.example: .*\\(its answer was lost: .*HTTP 502.*; found by its ref\\)`));
    expect(emu.stats().requests.byRoute['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules']).toBe(1);
    expect(actions().map((a) => [a.action, a.outcome, a.httpStatus, a.detail['ref']])).toEqual([
      ['custom_rule.create', 'failed', 502, same[0]!.ref],
      ['custom_rule.create', 'ok', null, same[0]!.ref],
    ]);
    const again = await run(...BLOCK, '--yes');
    expect(again.stdout).toContain('nothing to do');
    expect(emu.stats().requests.byRoute['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules']).toBe(1);
  });

  it('finds the entry point it created by the rule\'s ref when the create\'s answer is lost, and creates nothing twice', async () => {
    const emu = await start({ dataset: caseDataset(), apiEra: 'retired', lostAnswerRoutes: ['POST /zones/{zone_id}/rulesets'] });
    const { run } = setup(emu);
    const args = ['--zone', 'weekend-hack.test', '--expression', 'http.request.uri.path eq "/xmlrpc.php"', '--action', 'managed_challenge', '--yes'];
    const r = await run(...args);
    expect(r.code, r.stderr).toBe(0);
    const after = await customRules(emu, 'weekend-hack.test');
    expect(after.rules).toHaveLength(1);
    expect(r.stdout).toMatch(new RegExp(`created custom rule ${after.rules[0]!.id} on weekend-hack\\.test: entry point ${after.id} \\(created\\), version 1 \\(its answer was lost: .*HTTP 502.*; found by its ref\\)`));
    expect(emu.stats().requests.byRoute['POST /zones/{zone_id}/rulesets']).toBe(1);
    expect(writesTo(emu)).toEqual(['POST /zones/{zone_id}/rulesets']);
  });

  it('writes once more when reading back shows the failed write did not land, and stops after that', async () => {
    const emu = await start({ dataset: caseDataset(), apiEra: 'retired', failRoutes: ['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules'] });
    const { run, actions } = setup(emu);
    const r = await run(...BLOCK, '--yes', '--retries', '0');
    expect(r.code).toBe(2);
    expect(lastLine(r.stderr)).toMatch(/^zonewarden firewall: writing the custom rule failed 2 times \(last: .*HTTP 500.*\) and the entry point does not have it \(ref zonewarden-[0-9a-f]{20}\): nothing was written; run the same command again later$/);
    expect(emu.stats().requests.byRoute['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules']).toBe(2);
    expect(actions().map((a) => a.outcome)).toEqual(['failed', 'failed']);
    expect((await customRules(emu, 'northwind.example')).rules.filter((x) => x.expression === 'ip.src eq 198.51.100.77')).toEqual([]);
  });
});

describe('--legacy: the specification\'s filter and firewall rule', () => {
  it('works where the API still takes them (the classic era)', async () => {
    const emu = await start();
    const { run } = setup(emu);
    const r = await run('--legacy', ...BLOCK, '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(writesTo(emu)).toEqual(['POST /zones/{zone_id}/filters', 'POST /zones/{zone_id}/firewall/rules']);
  });

  // wild: firewall rules writes answer 10020 "firewallrules.api.maintenance_mode" once shut off; vendor docs: firewall rules upgrade (2025-06-15).
  it('today: the refusal names the retirement on 2025-06-15 and the default way, and nothing is left behind', async () => {
    const emu = await today();
    const { run, actions } = setup(emu);
    const filters = async () => (await get(emu, `/zones/${zoneId(emu, 'northwind.example')}/filters?per_page=100`)).json.result as unknown[];
    const before = (await filters()).length;
    const r = await run('--legacy', ...BLOCK, '--yes');
    expect(r.code).toBe(2);
    expect(lastLine(r.stderr)).toMatch(/^zonewarden firewall: the filter was refused, nothing was created: .*firewallrules\.api\.maintenance_mode.*\. The vendor retired firewall rules and the filters API on 2025-06-15 \(they were upgraded to WAF custom rules\), and this API no longer takes them: run the same command without --legacy to write a WAF custom rule through the rulesets API\.$/);
    expect((await filters()).length).toBe(before);
    expect(actions().map((a) => [a.action, a.outcome, a.apiCodes])).toEqual([['filter.create', 'failed', [10020]]]);
    const emergency = await run('--legacy', '--emergency', ...BLOCK, '--yes');
    expect(lastLine(emergency.stderr)).toMatch(/2025-06-15 .*without --legacy/);
  });

  it('keeps the options of each way apart', async () => {
    const emu = await today();
    const { run } = setup(emu);
    expect((await run(...BLOCK, '--emergency')).stderr).toBe('zonewarden firewall: --emergency applies to --legacy firewall rules only; add --legacy, or drop it\n');
    expect((await run(...BLOCK, '--priority', '3')).stderr).toBe('zonewarden firewall: --priority applies to --legacy firewall rules only; add --legacy, or drop it\n');
    expect((await run('--legacy', ...BLOCK, '--position', 'first')).stderr).toBe('zonewarden firewall: --position applies to custom rules, not to --legacy firewall rules; drop it\n');
    expect(writesTo(emu)).toEqual([]);
  });
});

describe('the next incremental scan', () => {
  it('reads the zone again: the write is in the account audit log', async () => {
    const emu = await today();
    const { run } = setup(emu);
    const size = emu.org.audit.size;
    expect((await run(...BLOCK, '--yes')).code).toBe(0);
    const entries = emu.org.audit.all().slice(size);
    expect(entries.map((e) => [e.zone?.id, e.resource.product, e.action.type])).toEqual([[zoneId(emu, 'northwind.example'), 'rulesets', 'update']]);
  });
});
