import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { ArrayRecordStore } from '../../src/emulator/state.js';
import { TEST_RESOLVER } from '../support/cli.js';
import { caseDataset } from '../support/case-dataset.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { auditBothWays, workspace } from '../support/reuse-both-ways.js';

/**
 * Issue 30 item 4: `zonewarden audit` (verdict reuse, the default) gives exactly what
 * `zonewarden audit --no-reuse` gives on the same scan: findings (and their order), counts, waiver
 * report, reports. Each test runs the CLI against the emulator and a real database, then audits
 * two copies of that database, one each way (auditBothWays), and compares. Each case was found by
 * a reviewer and failed before its mend; the comments say what went wrong then.
 */

const emulator = emulatorsClosedAfterEach();
const ISO = '2026-10-01T00:00:00.000Z';
type Doc = { audit: { id: number }; findings: Array<Record<string, any>>; counts: { byRule: Record<string, unknown>; byStatus: unknown } };

/** The rules that read the bot settings: with all of them off, the scan does not read bot_management. */
const BOT_RULES = ['bot-fight-mode-off', 'bot-js-detections-off', 'bot-ai-bots-not-blocked', 'bot-model-auto-update-off'];

/** A workspace on the case dataset with two configs: on.json (the defaults) and off.json (the bot rules off). */
async function withBotRuleConfigs() {
  const emu = await emulator({ dataset: caseDataset() });
  const ws = workspace(emu);
  writeFileSync(join(ws.dir, 'off.json'), JSON.stringify({ rules: Object.fromEntries(BOT_RULES.map((id) => [id, { enabled: false }])) }));
  writeFileSync(join(ws.dir, 'on.json'), JSON.stringify({}));
  return { emu, ws };
}

describe('audit with reuse equals audit --no-reuse at its edges', () => {
  // writer.ts PartitionWriter.dataChanged/versions: a scan stopped (Ctrl-C, SIGTERM, kill) in the
  // middle of a paged list stores the pages it got as new versions but never finishes the partition.
  // The next scan finds the changed item among "versions it may extend" (last_scan >= lastOk), so it
  // extends rather than inserts, counts as many items as at the last complete read, and records no
  // zone_changes row: the audit keeps the zone's verdicts of before the change.
  it('judges again a zone whose list changed while a scan stopped half-way through reading it', async () => {
    let hook: ((line: string) => void) | null = null;
    const emu = await emulator({ dataset: caseDataset(), onRequest: (l) => hook?.(l) });
    const zone = emu.org.state.zones.find((z) => z.name === 'acme-careers.example')!;
    // 150 more firewall rules: the list takes two pages of 100.
    for (let i = 0; i < 150; i++) {
      const fid = `f00d${String(i).padStart(28, '0')}`;
      zone.filters.set(fid, { id: fid, expression: `ip.src eq 192.0.2.${i % 250}`, paused: false, description: `f${i}` });
      const rid = `beef${String(i).padStart(28, '0')}`;
      zone.firewallRules.set(rid, { id: rid, action: 'block', priority: null, paused: false, description: `block ${i}`, filterId: fid, created_on: ISO, modified_on: ISO });
    }
    emu.org.touch();
    const ws = workspace(emu);
    await ws.scan();
    await auditBothWays(ws, [], 'n1', true, false);

    // A rule on the first page is paused; the next scan is stopped once that page is stored.
    const first = [...zone.firewallRules.values()][0]!;
    first.paused = true;
    emu.org.touch();
    let stop!: (signal: string) => void;
    const stopSignal = new Promise<string>((r) => (stop = r));
    let pages = 0;
    hook = (line) => {
      if (line.includes(`/zones/${zone.id}/firewall/rules `) && ++pages === 2) stop('SIGINT');
    };
    let stderr = '';
    const code = await runCli(['scan', '--base-url', emu.url, '--budget', '1000000', '--db', ws.db], {
      stdout: () => {},
      stderr: (t) => (stderr += t),
      env: { ZONEWARDEN_RESOLVER: TEST_RESOLVER, ZONEWARDEN_API_TOKEN: TOKEN },
      cwd: ws.dir,
      stopSignal,
    });
    hook = null;
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('aborted by SIGINT');

    // A complete scan reads the paused rule; nothing else changed.
    const third = await ws.scan();
    const r = await auditBothWays(ws, ['--scan', String(third)], 'n3', true, false);
    const paused = (doc: Doc) => doc.findings.filter((f) => f.rule === 'firewall-rule-inactive' && f.zone.name === 'acme-careers.example').map((f) => f.resource.id);
    expect(paused(r.fresh as Doc)).toEqual([first.id]);
    // With reuse: the zone is kept from audit 1 (no zone_changes row in scans 2-3), the paused rule unreported.
    expect(paused(r.reuse as Doc)).toEqual(paused(r.fresh as Doc));
    expect(r.reuse).toEqual(r.fresh);
  });

  // reader.ts readout(): a part a scan did not read at all (no coverage row: the scan's config had
  // the rule that needs it switched off) is `unknown` ("bot_management was not read in scan N");
  // the writer records no zone_changes row for a part it never attempted, so an audit with the rule
  // on keeps the verdicts of a base audit whose scan did read it. Audit with another config than the
  // scan's: the CI gate of README.md, or a trial on the service's database.
  it('does not keep verdicts on a part that the audited scan did not read', async () => {
    const { ws } = await withBotRuleConfigs();
    await ws.scan(['--config', 'on.json']);
    await auditBothWays(ws, ['--config', 'on.json'], 'n1', true, false);
    // Last night's scan was made with the rule off: bot_management was not read.
    const second = await ws.scan(['--config', 'off.json']);
    const r = await auditBothWays(ws, ['--config', 'on.json', '--scan', String(second)], 'n2', true, false);
    const byRule = (doc: Doc) => doc.counts.byRule['bot-fight-mode-off'];
    expect(byRule(r.fresh as Doc)).toEqual({ fail: 0, unknown: 22, waived: 0, pass: 0 });
    // With reuse: 18 failures and 2 passes from scan 1's data, where scan 2 read nothing.
    expect(byRule(r.reuse as Doc)).toEqual(byRule(r.fresh as Doc));
    expect(r.reuse).toEqual(r.fresh);
  });

  // Same cause, when neither scan read the part: the kept `unknown` named the scan of the base audit.
  it('does not keep an unknown whose message names another scan', async () => {
    const { emu, ws } = await withBotRuleConfigs();
    await ws.scan(['--config', 'off.json']);
    await auditBothWays(ws, ['--config', 'on.json'], 'n1', true, false);
    emu.night({ share: 0.1, seed: 1 });
    const second = await ws.scan(['--config', 'off.json']);
    const r = await auditBothWays(ws, ['--config', 'on.json', '--scan', String(second)], 'n2', true, false);
    const messages = (doc: Doc) => [...new Set(doc.findings.filter((f) => f.rule === 'bot-fight-mode-off').map((f) => f.message))];
    expect(messages(r.fresh as Doc)).toEqual([`not judged: bot_management was not read in scan ${second}`]);
    // With reuse: the kept zones say "... not read in scan 1".
    expect(messages(r.reuse as Doc)).toEqual(messages(r.fresh as Doc));
  });

  // Same cause, the other way: the base audit is of a scan that did not read the part (a trial of the
  // config about to be merged, made on last night's scan); the next scan reads it, unchanged since the
  // scan before, and records no change: the night's audit keeps "unknown" where the data is there.
  it('does not keep unknowns of a base whose scan did not read the part once a scan reads it', async () => {
    const { ws } = await withBotRuleConfigs();
    await ws.scan(['--config', 'on.json']);
    const second = await ws.scan(['--config', 'off.json']);
    // The trial: the rule back on, on the scan made with it off.
    const trial = await ws.cli(['audit', '--config', 'on.json', '--scan', String(second), '--quiet']);
    expect(trial.code, trial.stderr).not.toBe(2);
    const third = await ws.scan(['--config', 'on.json']);
    const r = await auditBothWays(ws, ['--config', 'on.json', '--scan', String(third)], 'n3', true, false);
    const byRule = (doc: Doc) => doc.counts.byRule['bot-fight-mode-off'] as { unknown: number };
    expect(byRule(r.fresh as Doc).unknown).toBe(0);
    // With reuse: the zones kept from the trial say "bot_management was not read in scan 2".
    expect(byRule(r.reuse as Doc)).toEqual(byRule(r.fresh as Doc));
  });

  // confirm-unchanged.ts confirmer(): a zone judged again in part is "unchanged" when the rules
  // run give the same findings as a multiset (before.sort(); now.sort()), and is then kept with the
  // rows, in the order, of the earlier audit. Findings equal in every listing key keep "the order the
  // rule gave them" (docs/audit-json.md), which a fresh audit follows.
  it('lists findings equal in every key in the order the rule gives them now', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const zone = emu.org.state.zones.find((z) => z.name === 'fabrikam.example')!;
    const custom = zone.security.customRules!;
    const rule = (n: number) => ({ id: `0dd${String(n).padStart(29, '0')}`, version: '1', action: 'block', expression: `ip.src eq 192.0.2.${n}`, description: 'Legacy block (off)', ref: `ref${n}`, enabled: false, last_updated: ISO });
    custom.rules.push(rule(1), rule(2));
    emu.org.touch();
    const ws = workspace(emu);
    await ws.scan();
    await auditBothWays(ws, [], 'n1', true, false);
    // The two disabled custom rules swap places (a reorder in the dashboard).
    const n = custom.rules.length;
    [custom.rules[n - 2], custom.rules[n - 1]] = [custom.rules[n - 1]!, custom.rules[n - 2]!];
    custom.version = String(Number(custom.version) + 1);
    emu.org.touch();
    await ws.scan();
    const r = await auditBothWays(ws, [], 'n2', true, false);
    const order = (doc: Doc) => doc.findings.filter((f) => f.rule === 'custom-rules-disabled' && f.zone.name === 'fabrikam.example').map((f) => f.resource.id);
    expect(order(r.fresh as Doc)).toEqual([rule(2).id, rule(1).id]);
    expect(order(r.reuse as Doc)).toEqual(order(r.fresh as Doc));
  });

  // reuse-rows.ts mergedInListingOrder(): rows equal in every key come part by part (the audit's own
  // rows first), where a full audit lists them in its zones' order. Two zones of one name are the
  // API's answer when a domain is added to a second account (pending there, active in the first).
  it("lists the findings of two zones of one name in a full audit's order", async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const src = emu.org.state.zones.find((z) => z.name === 'tinkerer.test')!;
    const other = emu.org.state.accounts.find((a) => a.name.startsWith('Fabrikam'))!;
    const records = Array.from({ length: src.dns.size }, (_, i) => src.dns.at(i));
    emu.org.addZone({
      ...src,
      id: `ffff${src.id.slice(4)}`,
      accountId: other.id,
      status: 'pending',
      dns: new ArrayRecordStore(records.map((r) => ({ ...r, id: `ee${r.id.slice(2)}` }))),
      filters: new Map(src.filters),
      firewallRules: new Map(src.firewallRules),
    });
    const ws = workspace(emu);
    await ws.scan();
    await auditBothWays(ws, [], 'n1', true, false);
    // A TXT record added to the first (the active one): it is judged again, the pending one kept.
    emu.org.addDnsRecord(src, { id: `abcd${'0'.repeat(28)}`, type: 'TXT', name: 'note.tinkerer.test', content: 'hello', proxiable: false, proxied: false, ttl: 300, comment: null, tags: [], created_on: ISO, modified_on: ISO });
    await ws.scan();
    const r = await auditBothWays(ws, [], 'n2', true, false);
    const order = (doc: Doc) => doc.findings.filter((f) => f.zone?.name === 'tinkerer.test').map((f) => `${f.rule} ${f.zone.id} ${f.resource.id}`);
    expect(order(r.reuse as Doc)).toEqual(order(r.fresh as Doc));
  });

  // store.ts materialize(): when the audit a later audit kept verdicts from is pruned (or its scan
  // audited again), the later audit's rows are copied "ORDER BY ${ORDER}, pk", SQLite's BINARY
  // (UTF-8 byte) order, which differs from compareFindings' UTF-16 order for characters from U+E000
  // against those above U+FFFF. Every audit that then keeps verdicts from it lists them so.
  it('keeps listing order after prune copies the rows of a reused audit', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const zone = emu.org.state.zones.find((z) => z.name === 'fabrikam.example')!;
    // Two paused firewall rules on one zone; descriptions (the findings' resource names) start with an emoji and a fullwidth letter.
    for (const [i, description] of ['\u{1F525} legacy block', '\uFF21 legacy block'].entries()) {
      const fid = `f11${String(i).padStart(29, '0')}`;
      zone.filters.set(fid, { id: fid, expression: `ip.src eq 192.0.2.${i + 1}`, paused: false, description });
      const rid = `b11${String(i).padStart(29, '0')}`;
      zone.firewallRules.set(rid, { id: rid, action: 'block', priority: null, paused: true, description, filterId: fid, created_on: ISO, modified_on: ISO });
    }
    emu.org.touch();
    const ws = workspace(emu);
    await ws.scan();
    await auditBothWays(ws, [], 'n1', true, false);
    await ws.scan();
    await auditBothWays(ws, [], 'n2', true, false);
    const pruned = await ws.cli(['prune', '--keep', '1']);
    expect(pruned.code, pruned.stderr).toBe(0);
    await ws.scan();
    const r = await auditBothWays(ws, [], 'n3', true, false);
    const order = (doc: Doc) => doc.findings.filter((f) => f.rule === 'firewall-rule-inactive' && f.zone.name === 'fabrikam.example').map((f) => f.resource.name);
    expect(order(r.fresh as Doc)).toEqual(['\u{1F525} legacy block', '\uFF21 legacy block']);
    expect(order(r.reuse as Doc)).toEqual(order(r.fresh as Doc));
  });

  // verdict-reuse.ts stillHolds(): a horizon bounds a kept verdict forwards only (now < h). A scan
  // whose start is earlier than its base's (the clock stepped back between two scans, or a scan made
  // on a host whose clock is behind) keeps verdicts judged for a later time. (Scan time set in the
  // database: the clock of the machine that scanned.)
  it('does not keep verdicts on the time for a scan dated before the base audit', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const ws = workspace(emu);
    await ws.scan();
    const t0 = Date.parse(ws.sql((h) => h.prepare('SELECT started_at FROM scans WHERE id = 1').pluck().get() as string));
    await auditBothWays(ws, [], 'n1', true, false);
    const second = await ws.scan();
    ws.sql((h) => h.prepare('UPDATE scans SET started_at = ? WHERE id = ?').run(new Date(t0 - 3 * 3_600_000).toISOString(), second));
    const r = await auditBothWays(ws, ['--scan', String(second)], 'n2', true, false);
    const hours = (doc: Doc) => doc.findings.filter((f) => f.rule === 'under-attack-left-on').map((f) => `${f.zone.name} ${f.data.hours}`);
    expect(hours(r.reuse as Doc)).toEqual(hours(r.fresh as Doc));
  });

  // Two findings of one rule on one resource name (an A and an AAAA record of one host, both
  // DNS-only: ordinary) in the order they had: a zone judged again in part after a change that
  // changes no finding (a TXT record added) is confirmed unchanged and kept, not stored again.
  it('keeps (confirms unchanged) a zone with an A and an AAAA record of one host not proxied after an unrelated DNS change', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const zone = emu.org.state.zones.find((z) => z.name === 'fabrikam.example')!;
    const rec = (id: string, type: string, content: string) => ({ id, type, name: 'shop.fabrikam.example', content, proxiable: true, proxied: false, ttl: 300, comment: null, tags: [], created_on: ISO, modified_on: ISO });
    // Public addresses (RIPE NCC's, both): a documentation address would be dns-private-address's, not this rule's.
    emu.org.addDnsRecord(zone, rec(`aa01${'0'.repeat(28)}`, 'A', '193.0.6.7') as any);
    emu.org.addDnsRecord(zone, rec(`aa02${'0'.repeat(28)}`, 'AAAA', '2001:67c:2e8::7') as any);
    emu.org.touch();
    const ws = workspace(emu);
    await ws.scan();
    const n1 = await auditBothWays(ws, [], 'n1', true, false);
    const both = (n1.fresh as Doc).findings.filter((f) => f.zone?.name === 'fabrikam.example' && f.rule === 'dns-record-not-proxied').map((f) => `${f.resource.name} ${f.data?.type}`);
    expect(both).toEqual(['shop.fabrikam.example A', 'shop.fabrikam.example AAAA']);
    // A TXT record added (changes no finding).
    emu.org.addDnsRecord(zone, { id: `abcd${'0'.repeat(28)}`, type: 'TXT', name: 'note.fabrikam.example', content: 'hello', proxiable: false, proxied: false, ttl: 300, comment: null, tags: [], created_on: ISO, modified_on: ISO } as any);
    emu.org.touch();
    await ws.scan();
    const r = await auditBothWays(ws, [], 'n2', true, false);
    expect(r.reuse).toEqual(r.fresh);
    const auditId = (r.reuse as Doc).audit.id;
    const source = ws.sql((h) => h.prepare('SELECT source_audit FROM audit_zones WHERE audit_id = ? AND zone_id = ?').pluck().get(auditId, zone.id), r.reuseDb);
    // Kept: its rows stay with the first audit.
    expect(source).not.toBe(auditId);
  });
});
