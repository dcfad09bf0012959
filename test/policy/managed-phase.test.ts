import { describe, expect, it } from 'vitest';
import { best, coverageOf, deploymentsOf, shorten } from '../../src/policy/managed-phase.js';
import type { Entrypoint, EntrypointRule } from '../../src/policy/security-models.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const shop = { name: 'shop.example', plan: 'enterprise' };
const business = { name: 'shop.example', plan: 'business' };

let n = 0;
const rule = (action: string, expression: string, parameters: Record<string, unknown>, enabled = true): EntrypointRule => ({
  id: `r${++n}`,
  action,
  expression,
  description: '',
  enabled,
  parameters,
});
const entry = (...rules: EntrypointRule[]): Entrypoint => ({ id: 'e', phase: 'http_request_firewall_managed', rules });
const kinds = (e: Entrypoint, level: 'zone' | 'account' = 'zone', zone = shop) => deploymentsOf(e, MANAGED, zone, level).map((d) => d.outcome.kind);

describe('coverageOf', () => {
  it.each([
    ['true', 'all'],
    ['(true)', 'all'],
    // vendor docs: "Deploy a WAF managed ruleset via API (account)": zones selected by name.
    ['cf.zone.name eq "shop.example"', 'all'],
    ['cf.zone.name in {"a.example" "shop.example"}', 'all'],
    ['cf.zone.name in {"a.example" "b.example"}', 'none'],
    ['cf.zone.name ne "shop.example"', 'none'],
    ['not cf.zone.name eq "other.example"', 'all'],
    // vendor docs: account-level override examples: `cf.zone.name eq "example.com" and cf.zone.plan eq "ENT"`.
    ['cf.zone.name eq "shop.example" and cf.zone.plan eq "ENT"', 'all'],
    ['(cf.zone.name eq "shop.example") && (cf.zone.plan eq "ENT")', 'all'],
    ['cf.zone.name eq "other.example" or cf.zone.name eq "shop.example"', 'all'],
    ['cf.zone.name eq "shop.example" and http.request.uri.path eq "/login"', 'part'],
    ['cf.zone.name eq "other.example" and http.request.uri.path eq "/login"', 'none'],
    ['http.request.uri.path contains " and cf.zone.name eq "', 'part'],
    ['cf.zone.name in $zones', 'part'],
    ['http.host eq "shop.example"', 'part'],
    ['cf.zone.name eq "shop.example" xor http.host eq "a"', 'part'],
  ])('%s at the account level: %s', (expression, expected) => {
    expect(coverageOf(expression, shop, 'account')).toBe(expected);
  });

  it('reads the plan condition against the zone plan', () => {
    expect(coverageOf('cf.zone.plan eq "ENT"', business, 'account')).toBe('none');
    expect(coverageOf('cf.zone.plan eq "ENT"', { name: 'shop.example', plan: null }, 'account')).toBe('part');
  });

  it('an account rule on another zone\'s host selects none of this zone; a zone rule on a host selects part', () => {
    expect(coverageOf('http.host eq "other.example"', shop, 'account')).toBe('none');
    expect(coverageOf('http.host in {"www.shop.example" "other.example"}', shop, 'account')).toBe('part');
    expect(coverageOf('http.host eq "other.example"', shop, 'zone')).toBe('part');
  });
});

describe('deploymentsOf', () => {
  // vendor docs: "Create an exception": exceptions only apply to execute rules listed after them.
  it('judges rules in order', () => {
    expect(kinds(entry(rule('skip', 'true', { ruleset: 'current' }), rule('execute', 'true', { id: MANAGED })))).toEqual(['skipped']);
    expect(kinds(entry(rule('execute', 'true', { id: MANAGED }), rule('skip', 'true', { ruleset: 'current' })))).toEqual(['runs']);
  });

  // vendor docs: "Create an exception": rulesets skips whole rulesets, rules only the listed rules.
  it('tells a ruleset skip from a skip of single rules', () => {
    expect(kinds(entry(rule('skip', 'true', { rulesets: [MANAGED] }), rule('execute', 'true', { id: MANAGED })))).toEqual(['skipped']);
    expect(kinds(entry(rule('skip', 'true', { rules: { [MANAGED]: ['x'] } }), rule('execute', 'true', { id: MANAGED })))).toEqual(['runs']);
  });

  it('leaves out account rules that cannot select the zone', () => {
    const e = entry(rule('execute', 'cf.zone.name eq "other.example"', { id: MANAGED }), rule('execute', 'true', { id: MANAGED }, false));
    expect(kinds(e, 'account')).toEqual(['disabled']);
  });

  // vendor docs: "Override a managed ruleset": ruleset overrides apply to every rule; tag and rule overrides win over them.
  it('reads ruleset-wide overrides', () => {
    const withOverrides = (overrides: Record<string, unknown>) => entry(rule('execute', 'true', { id: MANAGED, overrides }));
    expect(deploymentsOf(withOverrides({ enabled: false }), MANAGED, shop, 'zone')[0]!.outcome).toEqual({ kind: 'overriddenOff', kept: 0 });
    expect(deploymentsOf(withOverrides({ action: 'log', categories: [{ category: 'sqli', action: 'block' }] }), MANAGED, shop, 'zone')[0]!.outcome).toEqual({
      kind: 'logOnly',
      acting: 1,
    });
    expect(kinds(withOverrides({ rules: [{ id: 'x', enabled: false }] }))).toEqual(['runs']);
  });

  it('prefers the deployment that protects most', () => {
    const narrow = deploymentsOf(entry(rule('execute', 'http.request.uri.path eq "/a"', { id: MANAGED })), MANAGED, shop, 'zone');
    const off = deploymentsOf(entry(rule('execute', 'true', { id: MANAGED }, false)), MANAGED, shop, 'account');
    expect(best([...off, ...narrow])!.outcome.kind).toBe('narrow');
    expect(best([])).toBeNull();
  });
});

describe('shorten', () => {
  it('keeps short expressions and cuts long ones', () => {
    expect(shorten('true')).toBe('true');
    expect(shorten('x'.repeat(200))).toHaveLength(120);
    expect(shorten(null)).toBe('(none)');
  });
});
