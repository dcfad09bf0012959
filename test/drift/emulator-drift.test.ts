import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriftResult, FindingChange, ResourceChange } from '../../src/drift/index.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/server.js';
import { pendingOrganizationFlags, raw, TOKEN } from '../support/http.js';
import { runInProcess, writeCommand } from '../support/in-process.js';

/**
 * Drift end to end: scans of a real emulator into one database, with the organisation changed in
 * between through the emulator's write API (what people do in the dashboard) and through a
 * changed dataset (what the service does by itself: a renewed certificate, a record added
 * elsewhere), then `zonewarden diff` as users run it.
 */

const HOSTILE = '<img src=x onerror=alert(1)> | **@channel** [x](javascript:y) \u001b[2J\u202e';
const RENEWED_CERT = '7a1c1d52-1f0e-4c61-9d11-0a9d1b0f7c3e';

function organisation(changed: boolean, without: string[] = []): DatasetFile {
  const org: DatasetFile = {
    version: 1,
    accounts: [
      {
        name: 'Drift Corp',
        type: 'enterprise',
        zones: [
          {
            name: 'shop.example',
            plan: 'pro',
            dns_records: [
              { type: 'A', name: '@', content: '203.0.113.10', proxied: true },
              ...(changed ? [{ type: 'A', name: 'new.@', content: '198.51.100.7', proxied: true }] : []),
            ],
            certificate_packs: [
              {
                hosts: ['shop.example', '*.shop.example'],
                certificates: changed ? [{ id: RENEWED_CERT, expires_on: 'now+85d', uploaded_on: 'now-5d' }] : [{ expires_on: 'now+5d', uploaded_on: 'now-85d' }],
              },
            ],
            filters: [
              { ref: 'bots', expression: '(cf.client.bot)' },
              { ref: 'legacy', expression: 'ip.src eq 192.0.2.1' },
            ],
            firewall_rules: [
              { action: 'block', filter: 'bots', description: 'Block bots' },
              { action: 'allow', filter: 'legacy', description: 'Legacy allow' },
            ],
            migration: { state: 'start' },
            // Someone fixed the SSL mode (vendor docs: zone settings: ssl off | flexible | full | strict).
            // ...and someone switched Development Mode on (vendor's API reference, zones: the list's
            // development_mode is 0 if never enabled, seconds left while on).
            security: changed
              ? { settings: { ssl: 'strict', development_mode: 'on' }, settings_modified_on: { ssl: 'now-1h', development_mode: 'now-1h' } }
              : { settings: { ssl: 'flexible' } },
          },
          {
            name: 'api.example',
            plan: 'business',
            waf: { enabled: true, packages: [{ name: 'Cloudflare Managed Ruleset', groups: [{ name: 'Cloudflare Specials' }] }] },
            migration: { state: 'start' },
            // Development Mode on at both scans, as if an hour apart: the list's seconds left go from
            // about 7,200 to about 3,600 (vendor's API reference, zones), the mode stays on.
            security: { settings: { development_mode: 'on' }, settings_modified_on: { development_mode: changed ? 'now-2h' : 'now-1h' } },
          },
        ],
      },
      { name: 'Partner Ltd', member: false, zones: [{ name: 'partner.example', plan: 'free' }] },
    ],
    invites: [{ account: 'Partner Ltd', invited_by: 'owner@partner.example' }],
  };
  for (const account of org.accounts) account.zones = (account.zones ?? []).filter((z) => !without.includes(z.name));
  return org;
}

const dir = mkdtempSync(join(tmpdir(), 'zw-drift-'));
const db = join(dir, 'zonewarden.db');
const env = { ZONEWARDEN_API_TOKEN: TOKEN };
const emulators: RunningEmulator[] = [];

/** Wall-clock time (scans judge certificates against their start), the same for every emulator so their dataset times agree. */
const now = new Date();

async function emulator(changed: boolean, options: EmulatorOptions = {}, without: string[] = []): Promise<RunningEmulator> {
  const emu = await startEmulator({ dataset: organisation(changed, without), now, rateLimit: 0, ipRateLimit: 0, ...options });
  emulators.push(emu);
  return emu;
}

async function scan(emu: RunningEmulator, ...extra: string[]): Promise<number> {
  const r = await runInProcess(['scan', '--base-url', emu.url, '--db', db, '--budget', '1000000', '--quiet', ...extra], env, dir);
  expect(r.code, r.stderr).toBeLessThanOrEqual(3);
  return Number(r.stdout.trim());
}

async function diff(...args: string[]): Promise<{ code: number; result: DriftResult }> {
  const r = await runInProcess(['diff', '--db', db, '--format', 'json', '--quiet', ...args], env, dir);
  expect(r.stdout, r.stderr).not.toBe('');
  return { code: r.code, result: JSON.parse(r.stdout) as DriftResult };
}

const zoneId = async (emu: RunningEmulator, name: string): Promise<string> => (await raw(emu, 'GET', `/zones?name=${name}`)).json.result[0].id as string;
const ruleNamed = async (emu: RunningEmulator, zone: string, description: string) =>
  ((await raw(emu, 'GET', `/zones/${zone}/firewall/rules`)).json.result as Array<{ id: string; description: string; action: string; filter: { id: string } }>).find(
    (r) => r.description === description,
  )!;

const change = (d: DriftResult, c: Partial<ResourceChange>): ResourceChange[] =>
  d.configuration.changes.filter((x) => Object.entries(c).every(([k, v]) => (x as unknown as Record<string, unknown>)[k] === v));
const finding = (d: DriftResult, rule: string, zone: string | null): FindingChange[] =>
  d.findings.changes.filter((f) => f.rule === rule && (zone === null || f.zone?.name === zone));

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('drift between scans of a changing organisation', () => {
  let scans: number[] = [];
  let byDataset: DriftResult;
  let byWrites: { code: number; result: DriftResult };
  let unread: DriftResult;

  beforeAll(async () => {
    const before = await emulator(false);
    const first = await scan(before);
    // The service changed things by itself: a renewed certificate, a new record.
    const after = await emulator(true);
    const second = await scan(after);
    byDataset = (await diff()).result;

    // People changed things through the API (firewall rules, the specification's API: --legacy).
    const shop = await zoneId(after, 'shop.example');
    const created = await writeCommand(after, ['firewall', 'create', '--legacy']).run(
      '--zone', 'shop.example', '--expression', 'http.request.uri.path contains "/wp-admin"', '--action', 'block', '--description', 'No wp-admin', '--yes',
    );
    expect(created.code, created.stderr).toBe(0);
    const legacy = await ruleNamed(after, shop, 'Legacy allow');
    expect((await raw(after, 'DELETE', `/zones/${shop}/firewall/rules/${legacy.id}?delete_filter_if_unused=true`)).status).toBe(200);
    const hostile = await writeCommand(after, ['firewall', 'create', '--legacy']).run(
      '--zone', 'shop.example', '--expression', 'ip.src eq 192.0.2.99', '--action', 'block', '--description', HOSTILE, '--yes',
    );
    expect(hostile.code, hostile.stderr).toBe(0);
    const bots = await ruleNamed(after, shop, 'Block bots');
    const paused = await raw(after, 'PUT', `/zones/${shop}/firewall/rules/${bots.id}`, {
      body: { id: bots.id, action: 'block', description: 'Block bots', paused: true, filter: { id: bots.filter.id } },
    });
    expect(paused.status).toBe(200);
    const migrated = await writeCommand(after, ['migrate', 'apply']).run('--zone', 'api.example', '--mode', 'pending', '--yes');
    expect(migrated.code, migrated.stderr).toBe(0);
    const accepted = await writeCommand(after, ['invites', 'accept']).run('--all', ...(await pendingOrganizationFlags(after)), '--yes');
    expect(accepted.code, accepted.stderr).toBe(0);
    const third = await scan(after);
    byWrites = await diff();

    // The next scan cannot read the firewall rules of any zone.
    const failing = await emulator(true, { failRoutes: ['GET /zones/{zone_id}/firewall/rules'] });
    // No retries, so no repair pass: the reads fail for good, and waiting for them would only slow the test.
    const fourth = await scan(failing, '--retries', '0');
    unread = (await diff('--from', String(third), '--to', String(fourth))).result;
    scans = [first, second, third, fourth];
  });

  it('compares the two latest complete scans by default', () => {
    expect([byDataset.from.id, byDataset.to.id]).toEqual([scans[0], scans[1]]);
    expect([byWrites.result.from.id, byWrites.result.to.id]).toEqual([scans[1], scans[2]]);
  });

  it('shows a renewed certificate as one certificate replaced by another, and its finding as fixed', () => {
    const removed = change(byDataset, { type: 'certificate', change: 'removed' });
    const added = change(byDataset, { type: 'certificate', change: 'added' });
    expect(removed).toHaveLength(1);
    expect(added.map((c) => c.id)).toEqual([RENEWED_CERT]);
    expect(added[0]!.parent?.type).toBe('certificate_pack');
    const pack = change(byDataset, { type: 'certificate_pack', change: 'changed' });
    expect(pack[0]?.fields?.map((f) => f.field)).toEqual(['primary_certificate']);
    const expiry = finding(byDataset, 'certificate-expiry', 'shop.example');
    expect(expiry.map((f) => [f.change, f.resource.id])).toEqual([['fixed', removed[0]!.id]]);
  });

  it('shows nothing else: fields that move on their own are left out', () => {
    const kinds = byDataset.configuration.changes.map((c) => `${c.change} ${c.type}`).sort();
    expect(kinds).toEqual(['added certificate', 'added dns_record', 'changed certificate_pack', 'changed zone', 'changed zone_setting', 'removed certificate']);
  });

  it("shows Development Mode switched on as a change of the zone, and its countdown as none", () => {
    const zones = change(byDataset, { type: 'zone', change: 'changed' });
    expect(zones.map((z) => [z.name, z.fields])).toEqual([['shop.example', [{ field: 'development_mode', before: 'off', after: 'on' }]]]);
    expect(finding(byDataset, 'development-mode-on', 'shop.example').map((f) => f.change)).toEqual(['new']);
    // api.example's seconds left moved (the mode on at both scans): no change, nor a finding's.
    expect(finding(byDataset, 'development-mode-on', 'api.example')).toEqual([]);
  });

  it('shows a changed zone setting field by field, and its finding as fixed', () => {
    const [ssl] = change(byDataset, { type: 'zone_setting', change: 'changed' });
    expect([ssl?.name, ssl?.zone?.name]).toEqual(['ssl', 'shop.example']);
    expect(ssl?.fields).toEqual([{ field: 'value', before: 'flexible', after: 'strict' }]);
    expect(finding(byDataset, 'ssl-mode-insecure', 'shop.example').map((f) => f.change)).toEqual(['fixed']);
  });

  it('shows a new DNS record as added, with its zone', () => {
    const added = change(byDataset, { type: 'dns_record', change: 'added' });
    expect(added.map((c) => [c.name, c.zone?.name])).toEqual([['A new.shop.example', 'shop.example']]);
    expect(byDataset.configuration.counts['dns_record']).toEqual({ added: 1, removed: 0, changed: 0, unknown: 0 });
  });

  it('shows firewall rules and filters added and removed', () => {
    const d = byWrites.result;
    expect(change(d, { type: 'firewall_rule', change: 'added' }).map((c) => c.name)).toEqual([HOSTILE, 'No wp-admin']);
    expect(change(d, { type: 'firewall_rule', change: 'removed' }).map((c) => c.name)).toEqual(['Legacy allow']);
    expect(change(d, { type: 'filter', change: 'added' }).map((c) => c.name)).toEqual([HOSTILE, 'No wp-admin']);
    expect(change(d, { type: 'filter', change: 'removed' })).toHaveLength(1);
  });

  it('shows a paused rule field by field, leaving out modified_on', () => {
    const [rule] = change(byWrites.result, { type: 'firewall_rule', change: 'changed', name: 'Block bots' });
    expect(rule?.fields).toEqual([{ field: 'paused', before: false, after: true }]);
    expect(finding(byWrites.result, 'firewall-rule-inactive', 'shop.example').map((f) => [f.change, f.resource.name])).toEqual([['new', 'Block bots']]);
  });

  it('shows a migrated zone: its status moved, its entry point appeared, its legacy WAF went', () => {
    const d = byWrites.result;
    const [status] = change(d, { type: 'migration_status', change: 'changed' });
    expect(status?.zone?.name).toBe('api.example');
    expect(status?.fields).toContainEqual(expect.objectContaining({ field: 'migration_state', before: 'start', after: 'complete' }));
    expect(change(d, { type: 'ruleset_entrypoint', change: 'added' }).map((c) => c.zone?.name)).toEqual(['api.example']);
    expect(change(d, { type: 'waf_package', change: 'removed' }).map((c) => c.name)).toEqual(['Cloudflare Managed Ruleset']);
    expect(finding(d, 'migration-pending', 'api.example').map((f) => f.change)).toEqual(['fixed']);
  });

  it('shows an accepted invite: the invite changed, and the account and its zone were added', () => {
    const d = byWrites.result;
    const [invite] = change(d, { type: 'invite', change: 'changed' });
    expect(invite?.fields).toContainEqual({ field: 'status', before: 'pending', after: 'accepted' });
    expect(change(d, { type: 'account', change: 'added' }).map((c) => c.name)).toEqual(['Partner Ltd']);
    const [zone] = change(d, { type: 'zone', change: 'added' });
    expect(zone?.name).toBe('partner.example');
    expect(finding(d, 'invite-pending', null).map((f) => f.change)).toEqual(['fixed']);
  });

  it('exits 0, and 1 with --fail-on-drift when anything changed', async () => {
    expect(byWrites.code).toBe(0);
    expect(byWrites.result.changed).toBe(true);
    expect((await diff('--fail-on-drift')).code).toBe(1);
  });

  it('reports what the later scan could not read as unknown, never as removed or fixed', () => {
    expect(unread.configuration.changes.filter((c) => c.type === 'firewall_rule')).toEqual([]);
    const shop = unread.configuration.unknown.find((u) => u.type === 'firewall_rule' && u.zone?.name === 'shop.example');
    expect(shop).toMatchObject({ change: 'unknown', scan: scans[3], state: 'failed' });
    expect(shop!.resources.map((r) => r.name).sort()).toEqual([HOSTILE, 'Block bots', 'No wp-admin'].sort());
    const inactive = finding(unread, 'firewall-rule-inactive', 'shop.example');
    // The paused rule's failure, and the zone's verdict the rule could not give.
    expect(inactive.map((f) => [f.change, f.before, f.after, f.resource.name])).toEqual([
      ['newly-unknown', 'fail', 'unknown', 'Block bots'],
      ['newly-unknown', null, 'unknown', 'shop.example'],
    ]);
    // Nothing on the zones whose firewall rules went unread is fixed, whatever its category. The
    // fourth emulator is a fresh dataset, so Partner Ltd's invite is pending again and its zone is
    // gone from that scan: its findings are fixed because the resource went (docs/diff-json.md), and
    // since hotlink-protection-off (category firewall) judges it, a filter by category alone no longer tells these apart.
    expect(change(unread, { type: 'zone', change: 'removed' }).map((c) => c.name)).toEqual(['partner.example']);
    expect(unread.findings.changes.filter((f) => f.change === 'fixed' && f.zone?.name !== 'partner.example')).toEqual([]);
    expect(unread.partial).toBe(true);
  });

  it('shows a verdict the earlier scan could not give and the later one passes as known again', async () => {
    const { result } = await diff('--from', String(scans[3]), '--to', String(scans[2]));
    const inactive = finding(result, 'firewall-rule-inactive', 'shop.example');
    expect(inactive.map((f) => [f.change, f.before, f.after, f.resource.name])).toEqual([
      ['new', 'unknown', 'fail', 'Block bots'],
      ['known-again', 'unknown', null, 'shop.example'],
    ]);
  });

  it('exits 3 when something could not be compared', async () => {
    expect((await diff('--from', String(scans[2]), '--to', String(scans[3]))).code).toBe(3);
  });

  it('prints hostile API text inertly in text and Markdown, and never the token', async () => {
    const text = await runInProcess(['diff', '--db', db, '--from', String(scans[1]), '--to', String(scans[2])], env, dir);
    expect(text.stdout).toContain('No wp-admin');
    expect(text.stdout).toMatch(/~ firewall rule "Block bots" \(\w+\)\n\s+paused: false -> true\n/);
    const short = await runInProcess(['diff', '--db', db, '--from', String(scans[1]), '--to', String(scans[2]), '--limit', '1'], env, dir);
    expect(short.stdout).toMatch(/\.\.\. and \d+ more \(--limit 0 shows all/);
    expect(text.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);
    expect(text.stdout).toContain('\\u001b[2J');
    const md = await runInProcess(['diff', '--db', db, '--from', String(scans[1]), '--to', String(scans[2]), '--format', 'md'], env, dir);
    expect(md.stdout).toContain('No wp-admin');
    expect(md.stdout).not.toContain('<img');
    expect(md.stdout).not.toContain('@channel');
    expect(md.stdout).toContain('\\](javascript');
    expect(md.stdout).not.toMatch(/(?<!\\)\]\(javascript/);
    for (const row of md.stdout.split('\n').filter((l) => l.startsWith('| added |'))) expect(row.split(/(?<!\\)\|/)).toHaveLength(6);
    for (const out of [text.stdout, text.stderr, md.stdout, md.stderr]) expect(out).not.toContain(TOKEN);
  });

  it('leaves out the fields drift.ignore names in the config file, and says how many resources that hid', async () => {
    writeFileSync(join(dir, 'ignore.json'), JSON.stringify({ drift: { ignore: ['firewall_rule.paused', '*.modified_on'] } }));
    const r = await runInProcess(['diff', '--db', db, '--config', 'ignore.json', '--format', 'json'], env, dir);
    const d = JSON.parse(r.stdout) as DriftResult;
    expect(change(d, { type: 'firewall_rule', change: 'changed' })).toEqual([]);
    expect(d.configuration.ignoredChanges).toBeGreaterThanOrEqual(1);
    expect(d.configuration.ignore).toEqual(['firewall_rule.paused', '*.modified_on']);
  });

  it('refuses a bad ignore list in one line naming the fix', async () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ drift: { ignore: ['firewall_rules.paused'] } }));
    const r = await runInProcess(['diff', '--db', db, '--config', 'bad.json'], env, dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/drift\.ignore\[0\]: unknown resource type "firewall_rules"; use \* or one of .*firewall_rule/);
  });

  it('compares with the accepted baseline', async () => {
    const accepted = await runInProcess(['baseline', 'accept', '--db', db, '--scan', String(scans[0]), '--note', 'approved at the review'], env, dir);
    expect(accepted.code, accepted.stderr).toBe(0);
    const latestComplete = Math.max(...scans.slice(0, 3));
    const { result } = await diff('--baseline', '--to', String(latestComplete));
    expect(result.baseline).toMatchObject({ scanId: scans[0], note: 'approved at the review' });
    expect([result.from.id, result.to.id]).toEqual([scans[0], latestComplete]);
    // Everything since the baseline: the renewal and the writes together.
    expect(change(result, { type: 'dns_record', change: 'added' })).toHaveLength(1);
    expect(change(result, { type: 'firewall_rule', change: 'removed' }).map((c) => c.name)).toEqual(['Legacy allow']);
    const list = await runInProcess(['baseline', 'list', '--db', db], env, dir);
    expect(list.stdout).toMatch(new RegExp(`baseline \\d+: scan ${scans[0]}, accepted .*: approved at the review \\(in use\\)`));
  });
});

describe('drift after a scan of one zone', () => {
  it('compares only that zone, and reports the others as not compared rather than removed', async () => {
    const emu = await emulator(false);
    const local = mkdtempSync(join(tmpdir(), 'zw-drift-scoped-'));
    const file = join(local, 'zonewarden.db');
    const run = (...args: string[]) => runInProcess([...args, '--db', file], env, local);
    expect((await run('scan', '--base-url', emu.url, '--budget', '1000000', '--quiet')).code).toBe(0);
    // A write command rescans the zone it changed, into a scan of that zone only.
    const created = await run('firewall', 'create', '--legacy', '--base-url', emu.url, '--budget', '1000000', '--zone', 'shop.example', '--expression', 'ip.src eq 192.0.2.5', '--action', 'block', '--description', 'One more', '--yes');
    expect(created.code, created.stderr).toBe(0);
    // The rescan is not the organisation's latest scan: diff compares it only when asked for.
    const byDefault = await run('diff', '--format', 'json', '--quiet');
    expect(byDefault.code).toBe(2);
    expect(byDefault.stderr).toMatch(/no complete scan before scan 1 to compare it with/);
    const r = await run('diff', '--to', '2', '--format', 'json', '--quiet');
    const d = JSON.parse(r.stdout) as DriftResult;
    expect(d.from.id).toBe(1);
    expect(d.to.scope.zones).toEqual(['shop.example']);
    expect(d.configuration.changes.map((c) => `${c.change} ${c.type} ${c.name}`)).toEqual(['added firewall_rule One more', 'added filter One more']);
    expect(d.configuration.zonesOutsideScope.map((z) => z.name)).toEqual(['api.example']);
    expect(d.findings.changes.filter((f) => f.zone?.name === 'api.example')).toEqual([]);
    expect((await run('diff', '--to', '2')).stdout).toContain('The two scans cover different scopes: only what both covered is compared.');
  });

  it('says in one line that it needs two scans', async () => {
    const local = mkdtempSync(join(tmpdir(), 'zw-drift-one-'));
    const emu = await emulator(false);
    const file = join(local, 'zonewarden.db');
    expect((await runInProcess(['scan', '--base-url', emu.url, '--db', file, '--budget', '1000000', '--quiet'], env, local)).code).toBe(0);
    const r = await runInProcess(['diff', '--db', file], env, local);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zonewarden diff: no complete scan before scan 1 to compare it with: .*--from and --to\n$/);
  });
});

describe('drift when a zone goes, and when the zone list cannot be read', () => {
  it('shows a deleted zone as removed, with what it held; an unreadable zone list leaves every zone unknown', async () => {
    const local = mkdtempSync(join(tmpdir(), 'zw-drift-zones-'));
    const file = join(local, 'zonewarden.db');
    const scanOf = async (emu: RunningEmulator) => {
      const r = await runInProcess(['scan', '--base-url', emu.url, '--db', file, '--budget', '1000000', '--retries', '0', '--quiet'], env, local);
      return Number(r.stdout.trim());
    };
    const diffOf = async (from: number, to: number) => {
      const r = await runInProcess(['diff', '--db', file, '--from', String(from), '--to', String(to), '--format', 'json', '--quiet'], env, local);
      return { code: r.code, d: JSON.parse(r.stdout) as DriftResult };
    };
    const first = await scanOf(await emulator(false));
    const second = await scanOf(await emulator(false, {}, ['api.example']));
    const third = await scanOf(await emulator(false, { failRoutes: ['GET /zones'] }, ['api.example']));

    const gone = (await diffOf(first, second)).d;
    expect(gone.configuration.changes.map((c) => `${c.change} ${c.type} ${c.name}`)).toEqual(['removed zone api.example']);
    expect(gone.configuration.changes[0]!.contents).toMatchObject({ waf_package: 1 });
    expect(gone.findings.changes.filter((f) => f.zone?.name === 'api.example').map((f) => f.change)).toEqual(
      expect.arrayContaining(['fixed']),
    );

    const { code, d: unreadable } = await diffOf(second, third);
    expect(code).toBe(3);
    expect(unreadable.configuration.changes).toEqual([]);
    expect(unreadable.configuration.unknown.map((u) => [u.type, u.zone?.name, u.scan])).toEqual([['zone', 'shop.example', third]]);
    expect(unreadable.findings.changes.filter((f) => f.change === 'fixed')).toEqual([]);
    expect(unreadable.findings.counts['newly-unknown']).toBeGreaterThan(0);
  });
});

describe('finding drift from waivers and severity settings', () => {
  it('shows findings newly waived, no longer waived, and with a changed severity', async () => {
    const local = mkdtempSync(join(tmpdir(), 'zw-drift-waivers-'));
    const file = join(local, 'zonewarden.db');
    const emu = await emulator(false);
    for (let i = 0; i < 2; i++) expect((await runInProcess(['scan', '--base-url', emu.url, '--db', file, '--budget', '1000000', '--quiet'], env, local)).code).toBe(0);
    writeFileSync(
      join(local, 'waivers.yaml'),
      // issue 32 item 5: at most 90 days ahead, and a critical failure waived only when acknowledged.
      `- {rule: certificate-expiry, zone: shop.example, reason: renewal booked, owner: web@example.com, expires: ${new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10)}, acknowledge: [critical]}\n`,
    );
    writeFileSync(join(local, 'severity.json'), JSON.stringify({ rules: { 'invite-pending': { severity: 'high' } } }));
    const audit = (scan: number, ...args: string[]) => runInProcess(['audit', '--db', file, '--scan', String(scan), '--quiet', ...args], env, local);
    const drift = async () => JSON.parse((await runInProcess(['diff', '--db', file, '--format', 'json', '--quiet'], env, local)).stdout) as DriftResult;

    await audit(1);
    await audit(2, '--waivers', 'waivers.yaml', '--config', 'severity.json');
    const later = await drift();
    expect(finding(later, 'certificate-expiry', 'shop.example').map((f) => [f.change, f.before, f.after])).toEqual([['newly-waived', 'fail', 'waived']]);
    const invite = finding(later, 'invite-pending', null);
    expect(invite.map((f) => [f.change, f.previousSeverity, f.severity])).toEqual([['severity-changed', 'low', 'high']]);

    // issue 32 item 4: auditing again with other waivers is a trial, which leaves the drift of the
    // scans' official audits as it was; made official on purpose (--official), it moves it.
    await audit(1, '--waivers', 'waivers.yaml');
    await audit(2);
    expect(await drift()).toEqual(later);
    await audit(1, '--waivers', 'waivers.yaml', '--official');
    await audit(2, '--official');
    expect(finding(await drift(), 'certificate-expiry', 'shop.example').map((f) => [f.change, f.before, f.after])).toEqual([['unwaived', 'waived', 'fail']]);
  });
});
