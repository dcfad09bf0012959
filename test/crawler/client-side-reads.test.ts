/**
 * The client-side security, security.txt and notification policy reads against the emulator over
 * real HTTP: the two zone reads once per zone, the policies once per account (not per zone), each
 * only when an enabled rule declares it; what is stored; a refusal recorded cleanly (not permitted
 * for the two optional reads, the scan still complete; missing for security.txt, whose permission
 * the scan needs anyway); and the three rules judging the scan end to end.
 */
import { describe, expect, it } from 'vitest';
import clientSideScriptAlertMissing from '../../rules/client-side-script-alert-missing.js';
import clientSideSecurityOff from '../../rules/client-side-security-off.js';
import securityTxtMissing from '../../rules/security-txt-missing.js';
import { declaredReadsOf, type DeclaredReads } from '../../src/api/endpoints.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { evaluate } from '../../src/policy/engine.js';
import { activeRules, loadCatalogue, type RuleSettings } from '../../src/policy/registry.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { zoneId } from '../support/http.js';
import { scansWithReads } from '../support/reads-scan.js';


const proxied = (name: string) => [{ type: 'A', name, content: '203.0.113.10', proxied: true }];
const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Shop Group',
      zones: [
        {
          name: 'checkout.example',
          plan: 'business',
          dns_records: proxied('checkout.example'),
          security: {
            page_shield: { enabled: true, updated_at: 'now-10d' },
            security_txt: { contact: ['mailto:security@checkout.example'], expires: 'now+200d', policy: ['https://checkout.example/security'] },
          },
        },
        { name: 'blog.example', plan: 'pro', dns_records: proxied('blog.example') },
      ],
      // vendor docs: Page Shield alerts: the malicious script alert, limited to the checkout zone; no code change alert.
      notification_policies: [{ name: 'Skimmers', alert_type: 'scriptmonitor_alert_new_malicious_scripts', zones: ['checkout.example'] }],
    },
    {
      name: 'Brochure Ltd',
      zones: [{ name: 'brochure.example', plan: 'free', dns_records: proxied('brochure.example'), security: { security_txt: { contact: ['mailto:it@brochure.example'], expires: 'now-2d' } } }],
    },
  ],
};

const ZONES = ['blog.example', 'brochure.example', 'checkout.example'];
const RULES = [clientSideSecurityOff, securityTxtMissing, clientSideScriptAlertMissing];
const SHIELD = /^\/zones\/([^/]+)\/page_shield$/;
const TXT = /^\/zones\/([^/]+)\/security-center\/securitytxt$/;
const POLICIES = /^\/accounts\/([^/]+)\/alerting\/v3\/policies$/;

/** The zones or accounts (by name) each path pattern was asked for, sorted. */
function asked(emu: RunningEmulator, lines: string[], pattern: RegExp): string[] {
  const names = new Map<string, string>([...emu.org.state.zones.map((z) => [z.id, z.name] as const), ...emu.org.state.accounts.map((a) => [a.id, a.name] as const)]);
  return lines
    .map((l) => l.split(' ')[1]!.replace(/^\/client\/v4/, '').split('?')[0]!)
    .map((p) => pattern.exec(p)?.[1])
    .filter((id): id is string => id !== undefined)
    .map((id) => names.get(decodeURIComponent(id)) ?? id)
    .sort();
}

function readsFor(settings: Record<string, RuleSettings>): DeclaredReads {
  const rules = activeRules(loadCatalogue(RULES), settings);
  return declaredReadsOf(rules.filter((a) => a.enabled).map((a) => a.rule.meta.reads));
}

const scanWith = scansWithReads(dataset);
const scan = (reads: DeclaredReads | undefined, denyRoutes: string[] = []) => scanWith(reads, { denyRoutes });

/** The audit's verdicts that are not passes, as "rule status where". */
function verdicts(reader: SnapshotReader): string[] {
  const result = evaluate(reader, activeRules(loadCatalogue(RULES), {}));
  expect(result.errors).toEqual([]);
  return result.findings.filter((f) => f.status !== 'pass').map((f) => `${f.rule} ${f.status} ${f.zone?.name ?? f.resource.name}`).sort();
}

const accountId = (emu: RunningEmulator, name: string) => emu.org.state.accounts.find((a) => a.name === name)!.id;

describe('client-side security, security.txt and notification policy reads', () => {
  it('the rules declare them, the policies as an account read', () => {
    expect(readsFor({}).objects).toEqual(['page_shield', 'security_txt']);
    expect(readsFor({}).accounts).toEqual(['notification_policies']);
  });

  it('reads nothing of them when no rule declares them', async () => {
    const { emu, lines } = await scan(readsFor({ 'client-side-security-off': { enabled: false }, 'security-txt-missing': { enabled: false }, 'client-side-script-alert-missing': { enabled: false } }));
    for (const pattern of [SHIELD, TXT, POLICIES]) expect(asked(emu, lines, pattern)).toEqual([]);
  });

  it('reads each zone object once per zone and the policies once per account, and stores them as served', async () => {
    const { emu, lines, reader, result } = await scan(readsFor({}));
    expect(result.missing).toEqual([]);
    expect(result.notPermitted).toEqual([]);
    expect(asked(emu, lines, SHIELD)).toEqual(ZONES);
    expect(asked(emu, lines, TXT)).toEqual(ZONES);
    // Two zones in Shop Group, one request for both.
    expect(asked(emu, lines, POLICIES)).toEqual(['Brochure Ltd', 'Shop Group']);

    const shield = reader.zoneObject(zoneId(emu, 'checkout.example'), 'page_shield');
    const defaults = reader.zoneObject(zoneId(emu, 'blog.example'), 'page_shield');
    if (!shield.known || !defaults.known) throw new Error('page_shield not read');
    // vendor's API reference: Page Shield settings: enabled, use_cloudflare_reporting_endpoint, use_connection_url_path, updated_at.
    expect(Object.keys(JSON.parse(shield.items[0]!.raw)).sort()).toEqual(['enabled', 'updated_at', 'use_cloudflare_reporting_endpoint', 'use_connection_url_path']);
    expect(JSON.parse(shield.items[0]!.raw)).toMatchObject({ enabled: true });
    expect(JSON.parse(defaults.items[0]!.raw)).toMatchObject({ enabled: false });

    const txt = reader.zoneObject(zoneId(emu, 'checkout.example'), 'security_txt');
    if (!txt.known) throw new Error(txt.reason);
    expect(JSON.parse(txt.items[0]!.raw)).toMatchObject({ enabled: true, contact: ['mailto:security@checkout.example'], policy: ['https://checkout.example/security'] });
    // vendor's API reference: Security TXT: `result` is optional; none set up is an answer with no object.
    expect(reader.coverageOf('zone', zoneId(emu, 'blog.example'), 'security_txt')).toMatchObject({ state: 'ok', items: 0 });

    const policies = reader.accountObjects(accountId(emu, 'Shop Group'), 'notification_policies');
    if (!policies.known) throw new Error(policies.reason);
    expect(policies.items.map((p) => JSON.parse(p.raw))).toEqual([
      expect.objectContaining({ name: 'Skimmers', alert_type: 'scriptmonitor_alert_new_malicious_scripts', enabled: true, filters: { zones: [zoneId(emu, 'checkout.example')] } }),
    ]);
    expect(reader.accountObjects(accountId(emu, 'Brochure Ltd'), 'notification_policies')).toEqual({ known: true, items: [] });
  });

  it('judges the scan: client-side security off where pages are served, security.txt missing or expired, the code change alert missing', async () => {
    const { reader } = await scan(readsFor({}));
    expect(verdicts(reader)).toEqual([
      'client-side-script-alert-missing fail Shop Group',
      'client-side-security-off fail blog.example',
      'client-side-security-off fail brochure.example',
      'security-txt-missing fail blog.example',
      'security-txt-missing fail brochure.example',
    ]);
  });

  it('records the optional reads refused as not permitted, the scan complete, and their rules unknown', async () => {
    const { emu, reader, result } = await scan(readsFor({}), ['GET /zones/{zone_id}/page_shield', 'GET /accounts/{account_id}/alerting/v3/policies']);
    expect(result.missing).toEqual([]);
    expect(result.notPermitted.map((m) => `${m.kind} ${m.name ?? m.scopeId} ${m.endpoint} ${m.state}`).sort()).toEqual([
      `account ${accountId(emu, 'Brochure Ltd')} notification_policies denied`,
      `account ${accountId(emu, 'Shop Group')} notification_policies denied`,
      ...ZONES.map((z) => `zone ${z} page_shield denied`),
    ].sort());
    expect(reader.coverageOf('zone', zoneId(emu, 'checkout.example'), 'page_shield')).toMatchObject({ state: 'denied', httpStatus: 403 });
    expect(verdicts(reader)).toEqual([
      'client-side-script-alert-missing unknown Brochure Ltd',
      'client-side-script-alert-missing unknown Shop Group',
      'client-side-security-off unknown blog.example',
      'client-side-security-off unknown brochure.example',
      'client-side-security-off unknown checkout.example',
      'security-txt-missing fail blog.example',
      'security-txt-missing fail brochure.example',
    ]);
  });

  it('records security.txt refused as missing: its permission (Zone Settings Read) is one the scan needs', async () => {
    const { result } = await scan(readsFor({}), ['GET /zones/{zone_id}/security-center/securitytxt']);
    expect(result.notPermitted).toEqual([]);
    expect(result.missing.map((m) => `${m.name} ${m.endpoint} ${m.state}`).sort()).toEqual(ZONES.map((z) => `${z} security_txt denied`));
  });
});
