import { describe, expect, it } from 'vitest';
import { createFirewallRule, retirementNote } from '../../src/actions/firewall.js';
import { ApiGoneError, ApiRequestError } from '../../src/api/errors.js';
import type { FirewallPlan } from '../../src/actions/firewall-plan.js';
import { ActionLog, listActions } from '../../src/actions/log.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { clientFor } from '../support/client.js';
import { emulatorsClosedAfterEach, get, raw, zoneId } from '../support/http.js';

/**
 * The duplicate-filter answer (400, code 10102, meta.id = the existing filter): a filter that
 * appears between the pre-check and the write, or an inline create repeated, reuses that filter.
 */

const start = emulatorsClosedAfterEach();
const EXPRESSION = 'ip.src eq 198.51.100.200';

describe('creating a rule over an existing filter the pre-check did not see', () => {
  it.each([false, true])('reuses the filter named by the duplicate answer (emergency: %s)', async (emergency) => {
    const emu = await start();
    const zone = { id: zoneId(emu, 'northwind.example'), name: 'northwind.example', plan: 'pro', accountId: null };
    const made = await raw(emu, 'POST', `/zones/${zone.id}/filters`, { body: [{ expression: EXPRESSION }] });
    const existing = made.json.result[0].id as string;
    const db = openSnapshot(':memory:');
    const client = clientFor(emu);
    try {
      const plan: FirewallPlan = { zone, request: { expression: EXPRESSION, action: 'block' }, existingFilterId: null, existingRuleId: null, pausedRuleId: null, knownFilterIds: new Set(), rules: 16, quota: 20 };
      const result = await createFirewallRule(client, new ActionLog(db, (s) => s), plan, { emergency });
      expect(result).toMatchObject({ filterId: existing, filterReused: true });
      const rules = (await get(emu, `/zones/${zone.id}/firewall/rules?per_page=100`)).json.result as Array<{ id: string; filter: { id: string } }>;
      expect(rules.find((r) => r.id === result.ruleId)?.filter.id).toBe(existing);
      // The refused duplicate is logged with its code and the filter it pointed to, then the rule.
      expect(listActions(db).reverse().map((a) => [a.action, a.outcome, a.apiCodes, a.detail['reusedFilterId'] ?? a.detail['filterId']])).toEqual([
        [emergency ? 'rule.create' : 'filter.create', 'failed', [10102], existing],
        ['rule.create', 'ok', [], existing],
      ]);
      const filters = (await get(emu, `/zones/${zone.id}/filters?per_page=100`)).json.result as Array<{ expression: string }>;
      expect(filters.filter((f) => f.expression === EXPRESSION)).toHaveLength(1);
    } finally {
      await client.close();
      db.close();
    }
  });
});

describe('a paused filter named by the duplicate answer', () => {
  it.each([false, true])('is never reused: the rule is refused and nothing is written (emergency: %s)', async (emergency) => {
    const emu = await start();
    const zone = { id: zoneId(emu, 'northwind.example'), name: 'northwind.example', plan: 'pro', accountId: null };
    const made = await raw(emu, 'POST', `/zones/${zone.id}/filters`, { body: [{ expression: EXPRESSION, paused: true }] });
    const paused = made.json.result[0].id as string;
    const db = openSnapshot(':memory:');
    const client = clientFor(emu);
    try {
      const plan: FirewallPlan = { zone, request: { expression: EXPRESSION, action: 'block' }, existingFilterId: null, existingRuleId: null, pausedRuleId: null, knownFilterIds: new Set(), rules: 16, quota: 20 };
      await expect(createFirewallRule(client, new ActionLog(db, (s) => s), plan, { emergency })).rejects.toThrow(
        `the API named filter ${paused} as having this expression, and it is paused, so a rule on it would never match: unpause or delete it, then run the command again (nothing was written)`,
      );
      const rules = (await get(emu, `/zones/${zone.id}/firewall/rules?per_page=100`)).json.result as Array<{ filter: { id: string } }>;
      expect(rules.filter((r) => r.filter.id === paused)).toEqual([]);
    } finally {
      await client.close();
      db.close();
    }
  });
});

// wild: 10020 "firewallrules.api.maintenance_mode" once the writes are shut off; vendor SDK: retired endpoints answer 410 Gone.
describe('the refusal of an API that retired firewall rules', () => {
  it('is named, with the retirement date and the default way, for the maintenance-mode answer and for 410 Gone; not for other refusals', () => {
    const fields = { route: 'POST /zones/{id}/filters', status: 400 };
    const maintenance = new ApiRequestError('POST /zones/x/filters: HTTP 400 code 10020: firewallrules.api.maintenance_mode: no longer accepts changes', { ...fields, apiErrors: [{ code: 10020, message: 'firewallrules.api.maintenance_mode' }] });
    const gone = new ApiGoneError('GET /zones/x/filters: HTTP 410', { ...fields, status: 410 });
    const entitlement = new ApiRequestError('POST /zones/x/firewall/rules: HTTP 400 code 10020: firewallrules.api.not_entitled: log needs Enterprise', { ...fields, apiErrors: [{ code: 10020, message: 'firewallrules.api.not_entitled' }] });
    for (const err of [maintenance, gone]) expect(retirementNote(err)).toMatch(/retired firewall rules and the filters API on 2025-06-15 .* without --legacy/);
    expect(retirementNote(entitlement)).toBe('');
  });
});
