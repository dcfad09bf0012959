import { describe, expect, it } from 'vitest';
import rule from '../../rules/scan-coverage.js';
import { evaluate } from '../../src/policy/engine.js';
import type { Finding } from '../../src/policy/findings.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { snapshotOf, zoneIdOf, type FixtureSpec } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

const ACME = { id: 'acc00000000000000000000000000acme', name: 'Acme Bank Group', type: 'enterprise' };
const HOBBY = { id: 'acc0000000000000000000000000hobby', name: "Sam's hobby projects", type: 'standard' };
const accounts = [ACME, HOBBY];

testRule(rule, {
  valid: [
    { name: 'nothing at all to read, and it was read', snapshot: { accounts: [] } },
    {
      name: 'every partition read; skipped ones (legacy WAF after migration, overrides off Enterprise) are fine',
      snapshot: {
        accounts,
        zones: [
          { name: 'bank.example', account: ACME.id, plan: 'enterprise' },
          { name: 'hobby.example', account: HOBBY.id, plan: 'free', unread: { waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', entrypoint: 'skipped' } },
        ],
      },
    },
    { name: 'invites denied (an account-scoped token) is not a gap', snapshot: { accounts, unread: { invites: 'denied' }, zones: [{ name: 'a.example' }] } },
    // docs/api-surface.md, answers beyond the spec: an account-owned token gets 400 code 1001 on GET /accounts; the zones name their account.
    {
      name: 'an account-owned token: the account list refused with 1001, every zone listed through GET /zones',
      snapshot: { accounts, accountOwnedToken: 'zones-listed', unread: { invites: 'denied' }, zones: [{ name: 'a.example', account: ACME.id }] },
    },
    // vendor SDK: the URI-based overrides list answers 410 Gone; a retired part is not a gap (rules that need it say unknown).
    { name: 'a part the API retired (410 Gone)', snapshot: { accounts, zones: [{ name: 'bank.example', account: ACME.id, plan: 'enterprise', unread: { waf_overrides: 'retired', waf_packages: 'retired' } }] } },
    // Only partitions the scan tried and could not read count: the crawler records every one it tries.
    { name: 'a partition with no record at all is not judged here', snapshot: { zones: [{ name: 'a.example', unread: { dns_records: 'missing' } }] } },
  ],
  invalid: [
    {
      name: "a zone with a denied and a failed partition: one finding, naming both with the server's reasons",
      snapshot: { accounts, zones: [{ name: 'bank.example', account: ACME.id, unread: { firewall_rules: 'denied', dns_records: 'failed' } }, { name: 'ok.example', account: ACME.id }] },
      findings: [
        {
          messageId: 'zoneIncomplete',
          severity: 'high',
          resourceType: 'zone',
          resourceId: zoneIdOf('bank.example'),
          resourceName: 'bank.example',
          zone: 'bank.example',
          data: { count: 2, endpoints: ['dns_records', 'firewall_rules'] },
          message: '2 part(s) of the zone were not read, so the rules that need them could not judge it: dns_records (failed: dns_records could not be read (failed)), firewall_rules (denied: firewall_rules could not be read (denied))',
        },
      ],
    },
    {
      name: 'the account list not read',
      snapshot: { accounts, unread: { accounts: 'failed' }, zones: [{ name: 'a.example', account: ACME.id }] },
      findings: [{ messageId: 'accountsNotRead', resourceType: 'user', resourceId: 'accounts', message: 'accounts could not be read (failed)' }],
    },
    {
      name: 'an account-owned token whose list of every zone failed: the accounts are not known',
      snapshot: { accounts, accountOwnedToken: 'zones-failed', zones: [{ name: 'a.example', account: ACME.id }] },
      findings: [{ messageId: 'accountsNotRead', resourceType: 'user', resourceId: 'accounts', message: 'the account list was not read (zones (failed: zones could not be read (failed))): accounts and their zones may be missing from the scan' }],
    },
    {
      name: "an account's zone list not read",
      snapshot: { accounts, unreadListings: [HOBBY.id], zones: [{ name: 'a.example', account: ACME.id }] },
      findings: [{ messageId: 'listingNotRead', resourceType: 'account', resourceId: HOBBY.id, resourceName: "Sam's hobby projects", message: 'zones could not be read (failed)' }],
    },
    {
      name: 'invites that failed (not denied) are a gap',
      snapshot: { accounts, unread: { invites: 'failed' } },
      findings: [{ messageId: 'invitesNotRead', resourceType: 'user', resourceId: 'invites' }],
    },
    {
      name: 'every gap at once, each once',
      snapshot: {
        accounts,
        unread: { accounts: 'denied', invites: 'failed' },
        zones: [
          { name: 'a.example', unread: { certificate_packs: 'failed' } },
          { name: 'b.example', unread: { migration_status: 'denied', filters: 'failed', waf_packages: 'failed' } },
          { name: 'c.example' },
        ],
      },
      findings: [
        { messageId: 'accountsNotRead' },
        { messageId: 'invitesNotRead' },
        { messageId: 'zoneIncomplete', zone: 'a.example', data: { count: 1 } },
        { messageId: 'zoneIncomplete', zone: 'b.example', data: { count: 3, endpoints: ['filters', 'migration_status', 'waf_packages'] } },
      ],
    },
  ],
});

/** Runs the rule on a fixture adjusted in SQL: what the fixture cannot express (scope, truncation). */
function judge(spec: FixtureSpec, sql: Array<[string, ...unknown[]]>): Finding[] {
  const { db, reader } = snapshotOf(spec);
  try {
    for (const [statement, ...args] of sql) db.prepare(statement).run(...args);
    const result = evaluate(new SnapshotReader(db, reader.scan.id), activeRules(loadCatalogue([rule])));
    expect(result.errors).toEqual([]);
    return result.findings;
  } finally {
    db.close();
  }
}

const brief = (f: Finding) => `${f.status} ${f.resource.type}/${f.resource.name ?? f.resource.id}`;

describe('rule scan-coverage beyond the fixture', () => {
  it('passes each zone read completely, each account listing and the account list', () => {
    const findings = judge({ accounts, zones: [{ name: 'a.example', account: ACME.id }, { name: 'b.example', account: HOBBY.id, unread: { dns_records: 'failed' } }] }, []);
    expect(findings.map(brief).sort()).toEqual(
      ['fail zone/b.example', 'pass account/Acme Bank Group', "pass account/Sam's hobby projects", 'pass user/accounts', 'pass user/invites', 'pass zone/a.example'].sort(),
    );
  });

  it('fails a list that reads ok but was truncated', () => {
    const findings = judge({ zones: [{ name: 'a.example' }] }, [["UPDATE coverage SET truncated = 1, message = 'list truncated (page cap)' WHERE endpoint = 'dns_records'"]]);
    const fail = findings.find((f) => f.status === 'fail');
    expect(fail?.message).toContain('dns_records (truncated: list truncated (page cap))');
  });

  it('fails a truncated account listing', () => {
    const findings = judge({ accounts: [ACME] }, [["UPDATE coverage SET truncated = 1 WHERE kind = 'account'"]]);
    expect(findings.filter((f) => f.status === 'fail').map((f) => f.messageId)).toEqual(['listingNotRead']);
  });

  it('ignores zones outside the scan scope, and checks only the scoped accounts', () => {
    const spec: FixtureSpec = {
      accounts,
      unreadListings: [HOBBY.id],
      zones: [
        { name: 'bank.example', account: ACME.id },
        { name: 'hobby.example', account: HOBBY.id, unread: { firewall_rules: 'failed' } },
      ],
    };
    const findings = judge(spec, [['UPDATE scans SET scope = ?', JSON.stringify({ accounts: [ACME.id], zones: [] })]]);
    expect(findings.filter((f) => f.status === 'fail')).toEqual([]);
    expect(findings.map(brief)).toContain('pass zone/bank.example');
    expect(findings.map(brief)).not.toContain('pass zone/hobby.example');
  });

  it('does not ask for account listings in a scan scoped to zone names', () => {
    const findings = judge({ accounts, unreadListings: [ACME.id, HOBBY.id], zones: [{ name: 'a.example', account: ACME.id }] }, [
      ['UPDATE scans SET scope = ?', JSON.stringify({ accounts: [], zones: ['a.example'] })],
    ]);
    expect(findings.filter((f) => f.status === 'fail')).toEqual([]);
    expect(findings.map(brief).sort()).toEqual(['pass user/accounts', 'pass user/invites', 'pass zone/a.example']);
  });

  it('fails a scoped account whose listing was never attempted', () => {
    const findings = judge({ accounts: [ACME] }, [['UPDATE scans SET scope = ?', JSON.stringify({ accounts: ['acc000000000000000000000000other'], zones: [] })]]);
    expect(findings.filter((f) => f.status === 'fail').map((f) => f.message)).toEqual(["the account's zone list was not read completely (it was not attempted): some of its zones may be missing from the scan"]);
  });
});
