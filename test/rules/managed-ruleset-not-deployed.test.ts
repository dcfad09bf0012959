import { describe, expect, it } from 'vitest';
import rule from '../../rules/managed-ruleset-not-deployed.js';
import { days } from '../support/snapshot-fixture.js';
import { testRule } from '../support/rule-tester.js';

// vendor docs: rulesets: the http_request_firewall_managed entry point's execute rules name the
// managed ruleset in action_parameters.id (efb7b8c949ac4650a09736fc376e9aee; OWASP 4814384a9e5d4991b9815dcfc25d2f1f).
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
// vendor docs: WAF managed rules: the Exposed Credentials Check ruleset, another managed ruleset of the phase.
const EXPOSED_CREDENTIALS = 'c2e184081120413c86c3ab7e14069605';
const migrated = { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-5) };
// A zone that never had the previous managed rules: no migration state, the new version enabled.
const native = { old_waf_status: 'disabled', new_waf_status: 'enabled' };
const exec = (id: string, enabled = true, extra: Record<string, unknown> = {}) => ({
  id: `x${id.slice(0, 4)}`,
  action: 'execute',
  expression: 'true',
  enabled,
  ...extra,
  action_parameters: { id, ...((extra['action_parameters'] as object | undefined) ?? {}) },
});
const withOverrides = (id: string, overrides: Record<string, unknown>) => exec(id, true, { action_parameters: { overrides } });
const withExpression = (id: string, expression: string) => exec(id, true, { expression });
const skip = (parameters: Record<string, unknown>, expression = 'true', extra: Record<string, unknown> = {}) => ({
  id: 'skip1',
  action: 'skip',
  expression,
  description: 'exempt everything',
  enabled: true,
  action_parameters: parameters,
  ...extra,
});
const zone = (entrypoint: Record<string, unknown> | null, extra = {}) => ({
  zones: [{ name: 'shop.example', plan: 'business' as const, migrationStatus: migrated, entrypoint, unread: { migration_check: 'skipped' as const }, ...extra }],
});
/** An Enterprise zone, with the account-level managed entry point the scan keeps with it. */
const enterprise = (entrypoint: Record<string, unknown> | null, accountEntrypoint: Record<string, unknown> | null | undefined, extra = {}) =>
  zone(entrypoint, { plan: 'enterprise' as const, ...(accountEntrypoint === undefined ? {} : { accountEntrypoint }), ...extra });

testRule(rule, {
  valid: [
    { name: 'managed and OWASP deployed', snapshot: zone({ rules: [exec(MANAGED), exec(OWASP)] }) },
    { name: 'managed only', snapshot: zone({ rules: [exec(MANAGED)] }) },
    { name: 'not migrated: judged by managed-rules-disabled', snapshot: { zones: [{ name: 'a.example' }] } },
    // API spec: Managed-rules migration: in validation mode the previous managed rules still decide; judged by the migration rules.
    {
      name: 'in validation mode: judged by the migration rules',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled' } }] },
    },
    { name: 'a Free zone', snapshot: zone(null, { plan: 'free' }) },
    // vendor docs: managed rules: Free zones get the Free Managed Ruleset, a different ruleset; the managed ruleset comes with paid plans.
    { name: 'a Free zone that never had the previous WAF', snapshot: zone(null, { plan: 'free', migrationStatus: native }) },
    // API facts: a zone created since 2022-09 runs the new managed rules from birth and is judged like a migrated one.
    { name: 'a native zone with the managed ruleset deployed', snapshot: zone({ rules: [exec(MANAGED)] }, { migrationStatus: native }) },
    // vendor docs: "Create an exception": exceptions only apply to execute rules listed after them.
    { name: 'a broad skip rule after the execute rule skips nothing', snapshot: zone({ rules: [exec(MANAGED), skip({ ruleset: 'current' })] }) },
    // vendor docs: "Create exceptions": skip rules narrowed to a path are the intended way to exempt traffic.
    {
      name: 'a skip rule for one path',
      snapshot: zone({ rules: [skip({ ruleset: 'current' }, 'http.request.uri.path starts_with "/webhook"'), exec(MANAGED)] }),
    },
    // vendor docs: "Create an exception": `rules: {<ruleset>: [ids]}` skips only the listed rules of the ruleset.
    { name: 'a broad skip of single rules is tuning, not a switch-off', snapshot: zone({ rules: [skip({ rules: { [MANAGED]: ['r1', 'r2'] } }), exec(MANAGED)] }) },
    // vendor docs: "Create an exception": `rulesets: [ids]` skips only the listed managed rulesets.
    { name: 'a broad skip of another ruleset', snapshot: zone({ rules: [skip({ rulesets: [EXPOSED_CREDENTIALS] }), exec(MANAGED)] }) },
    // vendor docs: rules: a disabled rule does not run.
    { name: 'a disabled broad skip rule', snapshot: zone({ rules: [skip({ ruleset: 'current' }, 'true', { enabled: false }), exec(MANAGED)] }) },
    // vendor docs: "Override a managed ruleset": tag overrides change the rules with that tag only.
    { name: 'a tag override disabling some rules', snapshot: zone({ rules: [withOverrides(MANAGED, { categories: [{ category: 'wordpress', enabled: false }] })] }) },
    // vendor docs: "Override a managed ruleset": a ruleset-level action applies to every rule; block still protects.
    { name: 'a ruleset-wide block action', snapshot: zone({ rules: [withOverrides(MANAGED, { action: 'block' })] }) },
    // vendor docs: rules language: cf.zone.name is the zone's name, so this expression selects every request of the zone.
    { name: 'a zone-level expression naming the zone', snapshot: zone({ rules: [withExpression(MANAGED, 'cf.zone.name eq "shop.example"')] }) },
    // Decision: the OWASP core ruleset is optional, and a log action is how operators commonly tune it (the migration turns Simulate into Log).
    { name: 'OWASP at log only', snapshot: zone({ rules: [exec(MANAGED), withOverrides(OWASP, { action: 'log' })] }) },
    // vendor docs: "Deploy a WAF managed ruleset via API (account)": an account-level execute rule selecting zones by
    // name. `cf.zone.plan eq "ENT"` is the form the account-level examples use, as read (the fields reference's list
    // of plan values was not found).
    {
      name: 'deployed by the account for this zone by name and plan',
      snapshot: enterprise(null, { rules: [withExpression(MANAGED, 'cf.zone.name eq "shop.example" and cf.zone.plan eq "ENT"')] }),
    },
    {
      name: 'deployed by the account to a list of zones',
      snapshot: enterprise({ rules: [] }, { rules: [withExpression(MANAGED, '(cf.zone.name in {"a.example" "shop.example"})')] }),
    },
    { name: 'deployed by the account to every zone', snapshot: enterprise(null, { rules: [exec(MANAGED)] }) },
    // vendor docs: WAF "Create exceptions": a zone-level exception only skips zone-level rules; account-level rulesets run first.
    {
      name: 'a zone skip does not reach the account deployment',
      snapshot: enterprise({ rules: [skip({ ruleset: 'current' })] }, { rules: [exec(MANAGED)] }),
    },
    // vendor docs: "Create an exception": an exception skips only the requests it matches; a host
    // outside the zone is none of the zone's requests, at either level.
    {
      name: 'a zone skip for a host outside the zone',
      snapshot: zone({ rules: [skip({ ruleset: 'current' }, 'http.host eq "other.example"'), exec(MANAGED)] }),
    },
    // vendor docs: "Create an exception" (OWASP optional): a skip of some hosts leaves OWASP running for the others.
    {
      name: 'OWASP skipped for one host only',
      snapshot: zone({ rules: [exec(MANAGED), skip({ rulesets: [OWASP] }, 'http.host eq "www.shop.example"'), exec(OWASP)] }),
    },
    // vendor docs: "Deploy a managed ruleset with ruleset, tag, and rule overrides": OWASP rules enabled again
    // only to log still run (the OWASP core ruleset at log is tuning, as above).
    { name: 'OWASP switched off but for tags that log', snapshot: zone({ rules: [exec(MANAGED), withOverrides(OWASP, { enabled: false, categories: [{ category: 'xss', action: 'log', enabled: true }] })] }) },
    // An account skip naming another zone's host selects none of this zone's requests.
    {
      name: 'an account skip for another zone\'s host',
      snapshot: enterprise(null, { rules: [skip({ ruleset: 'current' }, 'http.host eq "other.example"'), exec(MANAGED)] }),
    },
    // The zone's own entry point decides: the account's, unread, cannot take protection away.
    {
      name: 'deployed in the zone while the account entry point failed',
      snapshot: enterprise({ rules: [exec(MANAGED)] }, undefined, { unread: { account_entrypoint: 'failed' } }),
    },
    // Account-level rules run whatever the zone's entry point holds, so an unread zone entry point does not matter.
    { name: 'deployed by the account while the zone entry point failed', snapshot: enterprise(null, { rules: [exec(MANAGED)] }, { unread: { entrypoint: 'failed' } }) },
  ],
  invalid: [
    { name: 'no entry point after migration', snapshot: zone(null), findings: [{ messageId: 'none', severity: 'high' }] },
    {
      name: 'no entry point on a native zone',
      snapshot: zone(null, { migrationStatus: native }),
      findings: [{ messageId: 'none', severity: 'high', message: /^(?!.*migrated)/ }],
    },
    { name: 'an entry point without the managed ruleset', snapshot: zone({ rules: [exec(OWASP)] }), findings: [{ messageId: 'notDeployed' }] },
    { name: 'managed ruleset disabled', snapshot: zone({ rules: [exec(MANAGED, false)] }), findings: [{ messageId: 'disabled' }] },
    { name: 'OWASP disabled', snapshot: zone({ rules: [exec(MANAGED), exec(OWASP, false)] }), findings: [{ messageId: 'owaspDisabled', severity: 'medium' }] },
    { name: 'unknown when the entry point was not read', snapshot: zone(null, { unread: { entrypoint: 'failed' } }), findings: [{ status: 'unknown' }] },
    { name: 'unknown without the status', snapshot: { zones: [{ name: 'a.example', unread: { migration_status: 'failed' } }] }, findings: [{ status: 'unknown' }] },
    // API spec: Managed-rules migration: the status endpoint answered without a status: whether the zone runs
    // the new managed rules is not known (as the migration rules answer it).
    {
      name: 'unknown when the status endpoint returned no status',
      snapshot: zone({ rules: [] }, { migrationStatus: null }),
      findings: [{ status: 'unknown', message: 'returned no status' }],
    },
    // API spec: Managed-rules migration: the states are start (default), validation and complete; another one is not read.
    {
      name: 'unknown for a migration state it does not know',
      snapshot: zone({ rules: [] }, { migrationStatus: { migration_state: 'paused', old_waf_status: 'enabled', new_waf_status: 'enabled' } }),
      findings: [{ status: 'unknown', message: '"paused"' }],
    },
    // vendor docs: "Create an exception": `ruleset: "current"` skips all remaining rules of the entry point.
    {
      name: 'a skip of every remaining rule before the execute rule',
      snapshot: zone({ rules: [skip({ ruleset: 'current' }), exec(MANAGED)] }),
      findings: [{ messageId: 'skipped', severity: 'high', data: { skip: 'exempt everything', level: 'zone' }, message: 'every later rule of the entry point' }],
    },
    // vendor docs: "Create an exception": `rulesets: [ids]` skips those managed rulesets.
    {
      name: 'a skip of the managed ruleset on a native zone',
      snapshot: zone({ rules: [skip({ rulesets: [MANAGED] }), exec(MANAGED)] }, { migrationStatus: native }),
      findings: [{ messageId: 'skipped', severity: 'high', message: 'skips the managed ruleset for every request (' }],
    },
    // vendor docs: "Create an exception": exceptions skip only the requests they match; "Add an exception via
    // API" skips every remaining rule for one hostname (dev.example.com): the zone's other hosts still run
    // the managed ruleset. Skipping the zone's own host (its apex, the site it is named for) switches them
    // off where they matter most, as skipping every request does: high; other hosts of the zone: medium.
    {
      name: 'a skip of the apex host only',
      snapshot: zone({ rules: [skip({ ruleset: 'current' }, 'http.host eq "shop.example"'), exec(MANAGED)] }),
      findings: [
        {
          messageId: 'hostSkipped',
          severity: 'high',
          message: 'skip rule "exempt everything" comes before rule "xefb7" and skips every later rule of the entry point for every request to shop.example (expression: http.host eq "shop.example"): the managed ruleset does not run for requests to shop.example;',
        },
      ],
    },
    {
      name: 'a skip of the managed ruleset for two hosts of the zone',
      snapshot: zone({ rules: [skip({ rulesets: [MANAGED] }, 'http.host in {"shop.example" "www.shop.example" "other.example"}'), exec(MANAGED)] }),
      findings: [{ messageId: 'hostSkipped', severity: 'high', message: 'skips the managed ruleset for every request to shop.example and www.shop.example (', data: { hosts: ['shop.example', 'www.shop.example'] } }],
    },
    {
      name: 'a skip of one subdomain of the zone',
      snapshot: zone({ rules: [skip({ rulesets: [MANAGED] }, 'http.host eq "dev.shop.example"'), exec(MANAGED)] }),
      findings: [{ messageId: 'hostSkipped', severity: 'medium', message: 'skips the managed ruleset for every request to dev.shop.example (', data: { hosts: ['dev.shop.example'] } }],
    },
    {
      name: 'a skip for every host but one',
      snapshot: zone({ rules: [skip({ ruleset: 'current' }, 'not http.host eq "api.shop.example"'), exec(MANAGED)] }),
      findings: [{ messageId: 'hostSkipped', severity: 'medium', message: 'for requests decided by the host name alone (' }],
    },
    // vendor docs: fields: cf.zone.name is the zone a request is for; naming this zone, or its apex and every
    // subdomain, matches every request of the zone.
    {
      name: 'a zone-level skip naming the zone',
      snapshot: zone({ rules: [skip({ ruleset: 'current' }, 'cf.zone.name eq "shop.example"'), exec(MANAGED)] }),
      findings: [{ messageId: 'skipped', severity: 'high' }],
    },
    {
      name: 'a skip of the apex and every subdomain',
      snapshot: zone({ rules: [skip({ ruleset: 'current' }, 'http.host eq "shop.example" or ends_with(http.host, ".shop.example")'), exec(MANAGED)] }),
      findings: [{ messageId: 'skipped', severity: 'high' }],
    },
    // vendor docs: "Override a managed ruleset": a ruleset override `enabled: false` disables every rule.
    {
      name: 'every rule disabled by a ruleset override',
      snapshot: zone({ rules: [withOverrides(MANAGED, { enabled: false })] }),
      findings: [{ messageId: 'overriddenOff', severity: 'high' }],
    },
    // vendor docs: "Use category overrides" (to enable Joomla rules): tag overrides take precedence and enable the rules they name.
    {
      name: 'disabled by a ruleset override except one tag',
      snapshot: zone({ rules: [withOverrides(MANAGED, { enabled: false, categories: [{ category: 'joomla', action: 'block', enabled: true }] })] }),
      findings: [{ messageId: 'overriddenOff', severity: 'medium', data: { kept: 1 } }],
    },
    // vendor docs: "Deploy a managed ruleset with ruleset, tag, and rule overrides": its example disables every
    // rule and enables the wordpress and drupal rules again with `action: log`: they log, nothing acts.
    {
      name: 'disabled by a ruleset override, tags enabled again only to log',
      snapshot: zone({
        rules: [withOverrides(MANAGED, { enabled: false, categories: [{ category: 'wordpress', action: 'log', enabled: true }, { category: 'drupal', action: 'log', enabled: true }] })],
      }),
      findings: [{ messageId: 'overriddenOff', severity: 'high', data: { kept: 0 }, message: 'the 2 tag or rule overrides that enable some of them again set them to log' }],
    },
    // vendor docs: "Override a managed ruleset": a ruleset-level `action: log` makes every rule log instead of act.
    {
      name: 'every rule set to log',
      snapshot: zone({ rules: [withOverrides(MANAGED, { action: 'log' })] }),
      findings: [{ messageId: 'logOnly', severity: 'high', message: 'logged, not stopped' }],
    },
    {
      name: 'log for every rule but one',
      snapshot: zone({ rules: [withOverrides(MANAGED, { action: 'log', rules: [{ id: 'r1', action: 'block' }] })] }),
      findings: [{ messageId: 'logOnly', severity: 'medium', data: { acting: 1 } }],
    },
    // vendor docs: "Cloudflare Managed Ruleset": a custom expression applies the ruleset to a subset of requests.
    {
      name: 'deployed for one path only',
      snapshot: zone({ rules: [withExpression(MANAGED, 'starts_with(http.request.uri.path, "/shop")')] }),
      findings: [{ messageId: 'narrow', severity: 'medium', message: 'starts_with(http.request.uri.path, "/shop")' }],
    },
    // Decision (vendor docs silent on a rule without an expression): an execute rule that came back without
    // one is read as running for part of the traffic, the worst case for it.
    {
      name: 'an execute rule without an expression',
      snapshot: zone({ rules: [exec(MANAGED, true, { expression: null })] }),
      findings: [{ messageId: 'narrow', severity: 'medium', message: 'came back without an expression' }],
    },
    // Decision: the zone's apex alone leaves its subdomains (www, api, ...) without managed rules.
    {
      name: 'deployed for the apex host only',
      snapshot: zone({ rules: [withExpression(MANAGED, 'http.host eq "shop.example"')] }),
      findings: [{ messageId: 'narrow', severity: 'medium', data: { expression: 'http.host eq "shop.example"' } }],
    },
    {
      name: 'a long narrowing expression is shortened',
      snapshot: zone({ rules: [withExpression(MANAGED, `http.request.uri.path in {${Array.from({ length: 20 }, (_, i) => `"/path-${i}"`).join(' ')}}`)] }),
      findings: [{ messageId: 'narrow', message: /\.\.\.: the zone's other traffic/ }],
    },
    // vendor docs: "Account-level WAF configuration": expressions choose the zones an account-level rule applies to.
    {
      name: 'the account deploys to other zones only',
      snapshot: enterprise(null, { rules: [withExpression(MANAGED, 'cf.zone.name eq "other.example"')] }),
      findings: [{ messageId: 'none' }],
    },
    // The scan does not read the account entry point of accounts that are not Enterprise: none deployed there.
    {
      name: 'the account entry point was skipped',
      snapshot: enterprise(null, undefined, { unread: { account_entrypoint: 'skipped' } }),
      findings: [{ messageId: 'none' }],
    },
    // vendor docs: "Account-level WAF configuration": account-level rulesets apply to Enterprise zones only.
    {
      name: 'a Business zone is not reached by account rules, read or not',
      snapshot: zone(null, { unread: { account_entrypoint: 'failed' } }),
      findings: [{ messageId: 'none' }],
    },
    {
      name: 'unknown when the account entry point, which could deploy it, failed',
      snapshot: enterprise(null, undefined, { unread: { account_entrypoint: 'failed' } }),
      findings: [{ status: 'unknown', message: 'account' }],
    },
    // vendor docs: "Create an exception": an account-level exception skips the account's later rules.
    {
      name: 'the account skips before its own execute rule',
      snapshot: enterprise(null, { rules: [skip({ ruleset: 'current' }, 'cf.zone.name eq "shop.example"'), exec(MANAGED)] }),
      findings: [{ messageId: 'skipped', data: { level: 'account' } }],
    },
    {
      name: 'the account deploys for part of this zone',
      snapshot: enterprise(null, { rules: [withExpression(MANAGED, 'cf.zone.name eq "shop.example" and http.request.uri.path eq "/login"')] }),
      findings: [{ messageId: 'narrow', severity: 'medium', data: { level: 'account' } }],
    },
    // vendor docs: "Create an exception": `rulesets: [ids]` with the OWASP ruleset switches OWASP off.
    {
      name: 'OWASP skipped for every request',
      snapshot: zone({ rules: [skip({ rulesets: [OWASP] }), exec(MANAGED), exec(OWASP)] }),
      findings: [{ messageId: 'owaspNotRunning', severity: 'medium', message: 'skip rule "exempt everything" before it skips the OWASP core ruleset for every request' }],
    },
    // vendor docs: "Account-level WAF configuration" / "Deploy a managed ruleset": OWASP deployed at the account
    // level alone is deployed all the same, and judged the same way.
    {
      name: 'OWASP deployed only by the account, disabled',
      snapshot: enterprise({ rules: [exec(MANAGED)] }, { rules: [exec(OWASP, false)] }),
      findings: [{ messageId: 'owaspDisabled', severity: 'medium', data: { level: 'account' } }],
    },
    {
      name: 'OWASP deployed only by the account, skipped there for every request',
      snapshot: enterprise({ rules: [exec(MANAGED)] }, { rules: [skip({ rulesets: [OWASP] }), exec(OWASP)] }),
      findings: [{ messageId: 'owaspNotRunning', severity: 'medium', data: { level: 'account' }, message: 'skips the OWASP core ruleset for every request' }],
    },
    {
      name: 'OWASP disabled by a ruleset override',
      snapshot: zone({ rules: [exec(MANAGED), withOverrides(OWASP, { enabled: false })] }),
      findings: [{ messageId: 'owaspNotRunning', severity: 'medium', message: 'ruleset-wide override' }],
    },
  ],
});

// vendor docs: custom rules, available skip options: a custom rule with `phases` including
// http_request_firewall_managed skips the managed phase; custom-rules-broad-skip reports those.
describe('managed-ruleset-not-deployed meta', () => {
  it('says that skips in the custom-rules phase are judged by custom-rules-broad-skip', () => {
    expect(rule.meta.description).toContain('custom-rules-broad-skip');
    expect(rule.meta.remediation).toContain('custom-rules-broad-skip');
  });
});
