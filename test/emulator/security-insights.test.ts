/**
 * The emulator's Security Insights: the list in the vendor's documented shape and paging, the
 * counts by class, severity and type, and a model of the vendor's scanner with its documented
 * method and limits, computed from the emulator's own state.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { executeManaged } from '../../src/emulator/datasets/compose.js';
import { MANAGED_RULESET_ID } from '../../src/emulator/waf-mapping.js';
import { emulatorsClosedAfterEach, get, raw, zoneId } from '../support/http.js';

const emulator = emulatorsClosedAfterEach();

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Enterprise',
      type: 'enterprise',
      // Deploys the managed ruleset to deployed-at-account.example only.
      managed_rules: [executeManaged({ expression: 'cf.zone.name eq "deployed-at-account.example"' })],
      zones: [
        { name: 'deployed-at-account.example', plan: 'enterprise', created_on: 'now-100d', migration: { state: 'none' }, security: { managed_rules: [] } },
        { name: 'log-mode.example', plan: 'enterprise', created_on: 'now-100d', migration: { state: 'none' }, security: { managed_rules: [executeManaged({ action_parameters: { id: MANAGED_RULESET_ID, overrides: { action: 'log' } } })] } },
        { name: 'legacy.example', plan: 'enterprise', created_on: 'now-100d' },
      ],
    },
    {
      name: 'Small',
      zones: [
        // Created 10 days ago, on Free: the vendor scanned it 3 days ago (every 7 days from its creation).
        { name: 'free.example', plan: 'free', created_on: 'now-10d', security: { settings: { always_use_https: 'on' }, settings_modified_on: { always_use_https: 'now-1d' } } },
      ],
    },
  ],
};

interface Issue {
  id: string;
  issue_class: string;
  issue_type: string;
  severity: string;
  subject: string;
  status: string;
  dismissed: boolean;
  timestamp: string;
  payload: { zone_tag: string; detection_method: string };
}

const accountOf = (emu: Awaited<ReturnType<typeof emulator>>, name: string) => emu.org.state.accounts.find((a) => a.name === name)!.id;

async function list(emu: Awaited<ReturnType<typeof emulator>>, account: string, query = ''): Promise<{ count: number; page: number; per_page: number; issues: Issue[] }> {
  const r = await get(emu, `/accounts/${account}/security-center/insights${query}`);
  expect(r.status).toBe(200);
  return r.json.result;
}

describe("the emulator's Security Insights", () => {
  it('serves {count, page, per_page, issues[]} with page paging, 25 a page by default, 100 at most', async () => {
    const emu = await emulator({ dataset });
    const account = accountOf(emu, 'Enterprise');
    const all = await list(emu, account, '?per_page=100');
    // vendor's API reference: security center insights, list: result {count, page, per_page, issues}.
    expect(Object.keys(all).sort()).toEqual(['count', 'issues', 'page', 'per_page']);
    expect(all.count).toBe(all.issues.length);
    expect((await list(emu, account)).per_page).toBe(25);
    const first = await list(emu, account, '?per_page=2&page=1');
    const second = await list(emu, account, '?per_page=2&page=2');
    expect(first.issues.map((i) => i.id)).toEqual(all.issues.slice(0, 2).map((i) => i.id));
    expect(second.issues.map((i) => i.id)).toEqual(all.issues.slice(2, 4).map((i) => i.id));
    expect((await get(emu, `/accounts/${account}/security-center/insights?per_page=101`)).status).toBe(400);
    const issue = all.issues[0]!;
    // vendor's API reference: an issue's fields.
    expect(Object.keys(issue).sort()).toEqual(['dismissed', 'id', 'issue_class', 'issue_type', 'payload', 'resolve_link', 'resolve_text', 'severity', 'since', 'status', 'subject', 'timestamp', 'user_classification']);
    expect(['Low', 'Moderate', 'Critical']).toContain(issue.severity);
  });

  it('counts by class, severity and type as [{count, value}]', async () => {
    const emu = await emulator({ dataset });
    const account = accountOf(emu, 'Enterprise');
    const all = await list(emu, account, '?per_page=100');
    for (const [path, key] of [['class', 'issue_class'], ['severity', 'severity'], ['type', 'issue_type']] as const) {
      const counts = (await get(emu, `/accounts/${account}/security-center/insights/${path}`)).json.result as Array<{ count: number; value: string }>;
      expect(counts.reduce((n, c) => n + c.count, 0)).toBe(all.count);
      for (const c of counts) expect(all.issues.filter((i) => i[key] === c.value)).toHaveLength(c.count);
    }
  });

  it("misses the account's deployment and counts log mode as deployed, as the vendor says its scanner does", async () => {
    const emu = await emulator({ dataset });
    const all = await list(emu, accountOf(emu, 'Enterprise'), '?per_page=100');
    const waf = all.issues.filter((i) => i.issue_class === 'waf_not_enabled').map((i) => i.subject);
    // vendor docs: Security Insights, known limitations: account-level managed rules may go unseen.
    expect(waf).toContain('deployed-at-account.example');
    // vendor docs: Security Insights, known limitations: a managed ruleset in log mode counts as deployed.
    expect(waf).not.toContain('log-mode.example');
    // A zone still on the previous managed rules is told to upgrade instead.
    expect(all.issues.filter((i) => i.issue_class === 'managed_rules_old').map((i) => i.subject)).toEqual(['legacy.example']);
    expect(all.issues.find((i) => i.subject === 'legacy.example')!.payload.zone_tag).toBe(zoneId(emu, 'legacy.example'));
  });

  it('sees a setting as it was at its last scan, and lets a dismissed insight be filtered out', async () => {
    const emu = await emulator({ dataset });
    const account = accountOf(emu, 'Small');
    const all = await list(emu, account, '?per_page=100');
    // vendor docs: Security Insights, how it works: Free zones every 7 days; HTTPS was enforced a day ago, after the last scan (3 days ago).
    const https = all.issues.find((i) => i.issue_class === 'always_https_not_enabled')!;
    expect(https).toBeDefined();
    expect(Date.parse(https.timestamp)).toBeLessThan(Date.now() - 2 * 86_400_000);
    expect((await raw(emu, 'PUT', `/accounts/${account}/security-center/insights/${https.id}/dismiss`, { body: { dismiss: true } })).status).toBe(200);
    const open = await list(emu, account, '?dismissed=false&per_page=100');
    expect(open.issues.map((i) => i.id)).not.toContain(https.id);
    expect(open.count).toBe(all.count - 1);
    // Five days later (day 15 from creation) the vendor has scanned again (day 14) and sees HTTPS enforced.
    emu.org.clock.advance(5 * 86_400_000);
    expect((await list(emu, account, '?per_page=100')).issues.map((i) => i.issue_class)).not.toContain('always_https_not_enabled');
  });
});
