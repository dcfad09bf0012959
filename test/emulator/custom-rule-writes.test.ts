import { describe, expect, it } from 'vitest';
import { emulatorsClosedAfterEach, get, raw, zoneId } from '../support/http.js';
import type { RunningEmulator } from '../../src/emulator/server.js';

/**
 * The custom rules' writes (phase `http_request_firewall_custom`), as the vendor documents them:
 * WAF, "Create custom rules via API" (add a rule to the entry point, or create the entry point with
 * it); ruleset engine, "Add a rule to a ruleset" (the answer is the whole ruleset, a new version)
 * and "Change the order of a rule in a ruleset" (position index / before / after); custom rules
 * availability (rules per plan, the log action Enterprise only, regex Business and up).
 */

const start = emulatorsClosedAfterEach();
const ENTRYPOINT = (emu: RunningEmulator, zone: string) => `/zones/${zoneId(emu, zone)}/rulesets/phases/http_request_firewall_custom/entrypoint`;

async function entrypoint(emu: RunningEmulator, zone: string) {
  return (await get(emu, ENTRYPOINT(emu, zone))).json.result as { id: string; version: string; last_updated: string; rules: Array<{ id: string; ref: string; version: string; expression: string; action: string; enabled: boolean; description: string }> };
}

const addTo = async (emu: RunningEmulator, zone: string, body: unknown) => {
  const ruleset = await entrypoint(emu, zone);
  return raw(emu, 'POST', `/zones/${zoneId(emu, zone)}/rulesets/${ruleset.id}/rules`, { body });
};

describe('adding a custom rule to the entry point', () => {
  // vendor docs: add a rule to a ruleset: appended by default; the answer is the complete ruleset, a new version.
  it('appends it, answers the whole ruleset one version on, and the GET and the rulesets list agree', async () => {
    const emu = await start();
    const before = await entrypoint(emu, 'northwind.example');
    emu.org.clock.advance(60_000);
    const answer = await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 203.0.113.7', description: 'scraper', ref: 'ticket-1' });
    expect(answer.status).toBe(200);
    const after = answer.json.result;
    expect(after.version).toBe(String(Number(before.version) + 1));
    expect(after.last_updated).not.toBe(before.last_updated);
    expect(after.rules).toHaveLength(before.rules.length + 1);
    const added = after.rules.at(-1);
    expect(added).toMatchObject({ action: 'block', expression: 'ip.src eq 203.0.113.7', description: 'scraper', ref: 'ticket-1', enabled: true, version: '1' });
    expect(added.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await entrypoint(emu, 'northwind.example')).toEqual(after);
    const listed = (await get(emu, `/zones/${zoneId(emu, 'northwind.example')}/rulesets`)).json.result.find((r: { id: string }) => r.id === before.id);
    expect(listed).toMatchObject({ version: after.version, last_updated: after.last_updated });
  });

  it('a rule without a ref gets its id as ref; disabled when asked', async () => {
    const emu = await start();
    const answer = await addTo(emu, 'northwind.example', { action: 'managed_challenge', expression: 'ip.src eq 203.0.113.8', enabled: false });
    const added = answer.json.result.rules.at(-1);
    expect(added.ref).toBe(added.id);
    expect(added.enabled).toBe(false);
  });

  // vendor docs: change the order of a rule: index from 1; before/after a rule id; "" means first (before) or last (after).
  it('places it where position says: index, before or after a rule, first and last', async () => {
    const emu = await start();
    const rules = (await entrypoint(emu, 'northwind.example')).rules;
    const third = rules[2]!.id;
    const place = async (position: unknown, n: number) => {
      const answer = await addTo(emu, 'northwind.example', { action: 'block', expression: `ip.src eq 203.0.113.${n}`, position });
      expect(answer.status).toBe(200);
      return (answer.json.result.rules as Array<{ expression: string }>).findIndex((r) => r.expression === `ip.src eq 203.0.113.${n}`);
    };
    expect(await place({ before: third }, 1)).toBe(2);
    expect(await place({ after: third }, 2)).toBe(4);
    expect(await place({ before: '' }, 3)).toBe(0);
    const total = (await entrypoint(emu, 'northwind.example')).rules.length;
    expect(total).toBe(20);
    const full = await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 203.0.113.4', position: { index: 2 } });
    expect(full.status).toBe(400);
  });

  it('refuses a position naming a rule the ruleset does not have, or two positions at once', async () => {
    const emu = await start();
    const unknown = await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 203.0.113.9', position: { after: 'f'.repeat(32) } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/position/after' } });
    const both = await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 203.0.113.9', position: { index: 1, after: '' } });
    expect(both.status).toBe(400);
  });

  // vendor docs: custom rules availability: Free 5 rules; log all plans but Enterprise no; regex Business and Enterprise.
  it('refuses what the plan does not allow, and the rule that goes over its quota; nothing changes', async () => {
    const emu = await start();
    const before = await entrypoint(emu, 'fabrikam-trails.example');
    expect(before.rules).toHaveLength(3);
    const log = await addTo(emu, 'fabrikam-trails.example', { action: 'log', expression: 'ip.src eq 192.0.2.1' });
    expect(log.status).toBe(400);
    expect(log.json.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/action' } });
    expect(log.json.errors[0].message).toMatch(/log action needs an Enterprise plan/);
    const regex = await addTo(emu, 'fabrikam-trails.example', { action: 'block', expression: 'http.request.uri.path matches "^/wp-"' });
    expect(regex.status).toBe(400);
    expect(regex.json.errors[0].message).toMatch(/matches operator \(regular expressions\) needs a Business or Enterprise plan/);
    expect((await addTo(emu, 'fabrikam-trails.example', { action: 'block', expression: 'ip.src eq 192.0.2.4' })).status).toBe(200);
    expect((await addTo(emu, 'fabrikam-trails.example', { action: 'block', expression: 'ip.src eq 192.0.2.5' })).status).toBe(200);
    const over = await addTo(emu, 'fabrikam-trails.example', { action: 'block', expression: 'ip.src eq 192.0.2.6' });
    expect(over.status).toBe(400);
    expect(over.json.errors[0].message).toBe("'6' is not a valid value for rules because exceeded maximum number of rules in the phase http_request_firewall_custom: 6 out of 5 (the free plan)");
    const after = await entrypoint(emu, 'fabrikam-trails.example');
    expect(after.rules).toHaveLength(5);
    expect(after.version).toBe(String(Number(before.version) + 2));
    // Enterprise may log, Business may use regex.
    expect((await addTo(emu, 'contoso-records.example', { action: 'log', expression: 'ip.src eq 192.0.2.1' })).status).toBe(200);
    expect((await addTo(emu, 'northwind-shop.example', { action: 'block', expression: 'http.request.uri.path matches "^/wp-"' })).status).toBe(200);
  });

  // vendor docs: rules language, maximum expression length 4,096 characters; invalid expressions are refused.
  it('checks the expression, the action and skip parameters, and a ref already in use', async () => {
    const emu = await start();
    const long = await addTo(emu, 'northwind.example', { action: 'block', expression: `http.request.uri.path eq "/${'x'.repeat(4069)}"` });
    expect(long.status).toBe(400);
    expect(long.json.errors[0].message).toMatch(/expression is longer than 4096 characters/);
    const broken = await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq' });
    expect(broken.json.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/expression' } });
    expect(broken.json.errors[0].message).toMatch(/Filter parsing error/);
    const allow = await addTo(emu, 'northwind.example', { action: 'allow', expression: 'ip.src eq 192.0.2.1' });
    expect(allow.json.errors[0].message).toMatch(/takes block, challenge, js_challenge, managed_challenge, log, skip/);
    const skip = await addTo(emu, 'northwind.example', { action: 'skip', expression: 'ip.src eq 192.0.2.1' });
    expect(skip.json.errors[0].source.pointer).toBe('/action_parameters');
    const phases = await addTo(emu, 'northwind.example', { action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: { phases: ['http_request_firewall_managed'], products: ['waf'], ruleset: 'current' } });
    expect(phases.status).toBe(200);
    const ref = (await entrypoint(emu, 'northwind.example')).rules[0]!.ref;
    const taken = await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 192.0.2.2', ref });
    expect(taken.status).toBe(400);
    expect(taken.json.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/ref' } });
  });

  it('answers 404 code 10003 for a ruleset the zone does not have', async () => {
    const emu = await start();
    const answer = await raw(emu, 'POST', `/zones/${zoneId(emu, 'northwind.example')}/rulesets/${'a'.repeat(32)}/rules`, { body: { action: 'block', expression: 'ip.src eq 192.0.2.1' } });
    expect(answer.status).toBe(404);
    expect(answer.json.errors[0].code).toBe(10003);
  });
});

describe('putting the entry point', () => {
  // vendor docs: create custom rules via API: a zone without the entry point creates it with its rules.
  it('creates the entry point of a zone without one, version 1, and it is listed', async () => {
    const emu = await start();
    expect((await get(emu, ENTRYPOINT(emu, 'weekend-hack.test'))).status).toBe(404);
    const answer = await raw(emu, 'PUT', ENTRYPOINT(emu, 'weekend-hack.test'), { body: { rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.9', description: 'first', ref: 'r1' }] } });
    expect(answer.status).toBe(200);
    expect(answer.json.result).toMatchObject({ phase: 'http_request_firewall_custom', kind: 'zone', version: '1', rules: [{ ref: 'r1', version: '1', enabled: true }] });
    expect((await entrypoint(emu, 'weekend-hack.test')).id).toBe(answer.json.result.id);
    const listed = (await get(emu, `/zones/${zoneId(emu, 'weekend-hack.test')}/rulesets`)).json.result as Array<{ phase: string; kind: string }>;
    expect(listed.filter((r) => r.kind === 'zone').map((r) => r.phase)).toContain('http_request_firewall_custom');
  });

  it('keeps the rules it names by id and drops the others; refuses ids it does not have and too many rules', async () => {
    const emu = await start();
    const before = await entrypoint(emu, 'fabrikam-trails.example');
    const keep = before.rules[1]!;
    const answer = await raw(emu, 'PUT', ENTRYPOINT(emu, 'fabrikam-trails.example'), { body: { rules: [keep, { action: 'block', expression: 'ip.src eq 192.0.2.10' }] } });
    expect(answer.status).toBe(200);
    expect(answer.json.result.rules[0]).toEqual(keep);
    expect(answer.json.result.rules).toHaveLength(2);
    const stranger = await raw(emu, 'PUT', ENTRYPOINT(emu, 'fabrikam-trails.example'), { body: { rules: [{ id: 'f'.repeat(32), action: 'block', expression: 'ip.src eq 192.0.2.1' }] } });
    expect(stranger.json.errors[0].source.pointer).toBe('/rules/0/id');
    const six = Array.from({ length: 6 }, (_, i) => ({ action: 'block', expression: `ip.src eq 192.0.2.${i + 20}` }));
    expect((await raw(emu, 'PUT', ENTRYPOINT(emu, 'fabrikam-trails.example'), { body: { rules: six } })).status).toBe(400);
  });
});

describe('creating the entry point (POST /zones/{zone_id}/rulesets)', () => {
  const create = (emu: RunningEmulator, zone: string, rules: unknown[]) =>
    raw(emu, 'POST', `/zones/${zoneId(emu, zone)}/rulesets`, { body: { name: 'default', kind: 'zone', phase: 'http_request_firewall_custom', rules } });

  // vendor docs: create a ruleset (name, kind "zone", phase: a phase entry point at the zone level).
  it('creates the entry point of a zone without one, version 1, listed and in the audit log', async () => {
    const emu = await start();
    const size = emu.org.audit.size;
    const answer = await create(emu, 'weekend-hack.test', [{ action: 'block', expression: 'ip.src eq 192.0.2.9', ref: 'r1' }]);
    expect(answer.status).toBe(200);
    expect(answer.json.result).toMatchObject({ name: 'default', phase: 'http_request_firewall_custom', kind: 'zone', version: '1', rules: [{ ref: 'r1', version: '1', enabled: true }] });
    expect((await entrypoint(emu, 'weekend-hack.test')).id).toBe(answer.json.result.id);
    const entries = emu.org.audit.all().slice(size);
    expect(entries.map((e) => [e.zone?.name, e.resource.product, e.action.type, e.raw.method])).toEqual([['weekend-hack.test', 'rulesets', 'create', 'POST']]);
  });

  // wild (terraform-provider-cloudflare issues, 2021-2025): a second zone ruleset for a phase answers 400, code 20217,
  // "'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ...", pointer /kind;
  // vendor docs ("About phases"): each phase has at most one entry point ruleset per zone.
  it('refuses a second entry point for the phase, and leaves the first and its rules as they were', async () => {
    const emu = await start();
    const before = await entrypoint(emu, 'northwind.example');
    const answer = await create(emu, 'northwind.example', [{ action: 'block', expression: 'ip.src eq 192.0.2.9' }]);
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { code: 20217, message: "'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase http_request_firewall_custom", source: { pointer: '/kind' } },
    ]);
    expect(await entrypoint(emu, 'northwind.example')).toEqual(before);
  });

  it('checks the rules as a PUT does, and needs a name', async () => {
    const emu = await start();
    const bad = await create(emu, 'weekend-hack.test', [{ action: 'block', expression: 'ip.src eq' }]);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].source.pointer).toBe('/rules/0/expression');
    const nameless = await raw(emu, 'POST', `/zones/${zoneId(emu, 'weekend-hack.test')}/rulesets`, { body: { kind: 'zone', phase: 'http_request_firewall_custom' } });
    expect(nameless.json.errors[0].source.pointer).toBe('/name');
    expect((await get(emu, ENTRYPOINT(emu, 'weekend-hack.test'))).status).toBe(404);
  });
});

describe('the account audit log', () => {
  // vendor docs: audit logs record creates and updates through the API; the crawler reads a zone again when an entry names it.
  it('records each write as a rulesets change of the zone', async () => {
    const emu = await start();
    const size = emu.org.audit.size;
    await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 203.0.113.7' });
    await raw(emu, 'PUT', ENTRYPOINT(emu, 'weekend-hack.test'), { body: { rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.9' }] } });
    await addTo(emu, 'northwind.example', { action: 'log', expression: 'ip.src eq 203.0.113.7' });
    const entries = emu.org.audit.all().slice(size);
    expect(entries.map((e) => [e.zone?.name, e.resource.product, e.resource.type, e.action.type, e.raw.method])).toEqual([
      ['northwind.example', 'rulesets', 'ruleset', 'update', 'POST'],
      ['weekend-hack.test', 'rulesets', 'ruleset', 'create', 'PUT'],
    ]);
  });
});

describe('the API eras', () => {
  // wild (a client's report, 2026-06): firewall rules writes answer code 10020 "firewallrules.api.maintenance_mode" once shut off.
  it('today (retired) refuses writes to filters and firewall rules with code 10020 and still serves their reads; custom rules are written', async () => {
    const emu = await start({ apiEra: 'retired' });
    const zone = zoneId(emu, 'northwind.example');
    for (const [method, path, body] of [
      ['POST', `/zones/${zone}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }]],
      ['POST', `/zones/${zone}/firewall/rules`, [{ action: 'block', filter: { expression: 'ip.src eq 192.0.2.1' } }]],
      ['DELETE', `/zones/${zone}/firewall/rules?id=${'a'.repeat(32)}`, undefined],
    ] as const) {
      const answer = await raw(emu, method, path, body === undefined ? {} : { body });
      expect(answer.status).toBe(400);
      expect(answer.json.errors[0].code).toBe(10020);
      expect(answer.json.errors[0].message).toMatch(/^firewallrules\.api\.maintenance_mode/);
    }
    expect((await get(emu, `/zones/${zone}/firewall/rules`)).status).toBe(200);
    expect((await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 192.0.2.1' })).status).toBe(200);
  });

  it('classic still takes them', async () => {
    const emu = await start();
    expect((await raw(emu, 'POST', `/zones/${zoneId(emu, 'northwind.example')}/filters`, { body: [{ expression: 'ip.src eq 192.0.2.1' }] })).status).toBe(200);
  });
});

describe('a lost answer (lostAnswerRoutes)', () => {
  it('carries the write out, then answers the edge 502 page', async () => {
    const emu = await start({ lostAnswerRoutes: ['POST /zones/{zone_id}/rulesets/{ruleset_id}/rules'] });
    const before = (await entrypoint(emu, 'northwind.example')).rules.length;
    const answer = await addTo(emu, 'northwind.example', { action: 'block', expression: 'ip.src eq 203.0.113.70', ref: 'lost-1' });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    const after = await entrypoint(emu, 'northwind.example');
    expect(after.rules).toHaveLength(before + 1);
    expect(after.rules.at(-1)?.ref).toBe('lost-1');
  });
});
