import { describe, expect, it } from 'vitest';
import { parsedExpressionsKept } from '../../../src/cloudflare/rulesets/broad-expression.js';
import { best, coverageOf, deploymentsOf, shorten } from '../../../src/cloudflare/rulesets/managed-phase.js';
import type { Entrypoint, EntrypointRule } from '../../../src/cloudflare/rulesets/entrypoint.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const shop = { name: 'shop.example', plan: 'enterprise' };
const business = { name: 'shop.example', plan: 'business' };

let n = 0;
const rule = (action: string, expression: string | null, parameters: Record<string, unknown>, enabled = true): EntrypointRule => ({
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
    // vendor docs: "Add an exception via API" / "Create an exception": a host condition selects the
    // requests to that host; "a" is not a host of shop.example, so it selects none of them and
    // `all xor none` is all.
    ['cf.zone.name eq "shop.example" xor http.host eq "a"', 'all'],
    ['cf.zone.name eq "shop.example" xor http.host eq "www.shop.example"', 'part'],
    // vendor docs: rules language, values: raw strings r"..." and r#"..."# have no escapes and may hold
    // quotes; operators: `==` needs no spaces. One parser reads them (the second, ad-hoc one mis-split them).
    ['cf.zone.name=="shop.example"', 'all'],
    ['cf.zone.name==r#"shop.example"#', 'all'],
    ['cf.zone.name eq "other.example" or http.request.uri.path contains r#"x" or cf.zone.name eq "shop.example" or "#', 'part'],
    ['(((cf.zone.name eq "shop.example")))', 'all'],
  ])('%s at the account level: %s', (expression, expected) => {
    expect(coverageOf(expression, shop)).toBe(expected);
  });

  // vendor docs: the account-level examples ("Deploy a managed ruleset", account level, with overrides) write
  // `cf.zone.plan eq "ENT"`; the fields reference's list of plan values was not found, so ENT is read as
  // Enterprise as the examples use it, and no other plan name is read.
  it('reads the plan condition against the zone plan', () => {
    expect(coverageOf('cf.zone.plan eq "ENT"', business)).toBe('none');
    expect(coverageOf('cf.zone.plan eq "ENT"', { name: 'shop.example', plan: null })).toBe('part');
  });

  // vendor docs: a zone is a domain and its subdomains; a host outside it matches none of its requests, at
  // either level (the zone-level reading of another zone's host used to be 'part').
  it('a rule on another zone\'s host selects none of this zone; on one of its hosts, part', () => {
    expect(coverageOf('http.host eq "other.example"', shop)).toBe('none');
    expect(coverageOf('http.host in {"www.shop.example" "other.example"}', shop)).toBe('part');
    expect(coverageOf('http.host eq "other.example"', shop)).toBe('none');
    expect(coverageOf('http.host eq "www.shop.example"', shop)).toBe('part');
    expect(coverageOf('not http.host eq "other.example"', shop)).toBe('all');
  });

  // vendor docs: functions: ends_with(); operators: wildcard. Every host of the zone ends with its name.
  it('reads host suffixes against the zone', () => {
    expect(coverageOf('ends_with(http.host, "shop.example")', shop)).toBe('all');
    expect(coverageOf('http.host eq "shop.example" or ends_with(http.host, ".shop.example")', shop)).toBe('all');
    expect(coverageOf('http.host wildcard "*.shop.example"', shop)).toBe('part');
    expect(coverageOf('ends_with(http.host, ".other.example")', shop)).toBe('none');
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

  // vendor docs: "Create an exception": exceptions skip only the requests they match; "Add an exception via
  // API" skips every remaining rule for the requests to one hostname (dev.example.com).
  it('reads a skip for some of the zone\'s hosts as a skip of those hosts only', () => {
    const skipFor = (expression: string | null) => entry(rule('skip', expression, { ruleset: 'current' }), rule('execute', 'true', { id: MANAGED }));
    const outcome = (expression: string | null) => deploymentsOf(skipFor(expression), MANAGED, shop, 'zone')[0]!.outcome;
    expect(outcome('http.host eq "shop.example"')).toMatchObject({ kind: 'hostSkipped', skips: 'rest', hosts: ['shop.example'] });
    expect(outcome('http.host in {"shop.example" "www.shop.example" "other.example"}')).toMatchObject({ kind: 'hostSkipped', hosts: ['shop.example', 'www.shop.example'] });
    expect(outcome('http.host wildcard "*.shop.example"')).toMatchObject({ kind: 'hostSkipped', hosts: ['every subdomain of shop.example'] });
    expect(outcome('not http.host eq "api.shop.example"')).toMatchObject({ kind: 'hostSkipped', hosts: null });
    // A host outside the zone: no effect.
    expect(outcome('http.host eq "other.example"')).toEqual({ kind: 'runs' });
    // The zone's apex and every subdomain, or the zone by name: every request of the zone.
    expect(outcome('http.host eq "shop.example" or ends_with(http.host, ".shop.example")')).toMatchObject({ kind: 'skipped' });
    expect(outcome('cf.zone.name eq "shop.example"')).toMatchObject({ kind: 'skipped' });
    // A skip without an expression is read as matching every request, the worst case for a skip.
    expect(outcome(null)).toMatchObject({ kind: 'skipped' });
  });

  // Decision (vendor docs silent on a rule without an expression): an execute rule without one is read
  // as running for part of the traffic, the worst case for an execute rule, not all of it.
  it('reads an execute rule without an expression as narrow', () => {
    expect(deploymentsOf(entry(rule('execute', null, { id: MANAGED })), MANAGED, shop, 'zone')[0]!.outcome).toEqual({ kind: 'narrow', expression: null });
  });

  // vendor docs: "Deploy a managed ruleset with ruleset, tag, and rule overrides": its example disables every
  // rule and enables the wordpress and drupal rules again with `action: log`: those only log. A property a
  // tag override leaves out comes from the ruleset override ("Override a managed ruleset": precedence).
  it('does not count overrides that enable rules again only to log', () => {
    const outcome = (overrides: Record<string, unknown>) => deploymentsOf(entry(rule('execute', 'true', { id: MANAGED, overrides })), MANAGED, shop, 'zone')[0]!.outcome;
    const logTags = [{ category: 'wordpress', action: 'log', enabled: true }, { category: 'drupal', action: 'log', enabled: true }];
    expect(outcome({ enabled: false, categories: logTags })).toEqual({ kind: 'overriddenOff', kept: 0, logging: 2 });
    expect(outcome({ enabled: false, action: 'log', categories: [{ category: 'sqli', enabled: true }] })).toEqual({ kind: 'overriddenOff', kept: 0, logging: 1 });
    expect(outcome({ enabled: false, categories: [...logTags, { category: 'joomla', action: 'block', enabled: true }] })).toEqual({ kind: 'overriddenOff', kept: 1, logging: 2 });
  });

  // Decision: an account's entry point is judged again for each of its zones; each expression is parsed once.
  it('parses an account entry point\'s expressions once for all its zones', () => {
    const e = entry(rule('skip', 'http.host eq "once.shop.example"', { ruleset: 'current' }), rule('execute', 'cf.zone.name in {"z0.example" "z1.example"}', { id: MANAGED }));
    const before = parsedExpressionsKept();
    for (let i = 0; i < 100; i++) deploymentsOf(e, MANAGED, { name: `z${i}.example`, plan: 'enterprise' }, 'account');
    expect(parsedExpressionsKept() - before).toBe(2);
  });

  it('prefers the deployment that protects most', () => {
    const narrow = deploymentsOf(entry(rule('execute', 'http.request.uri.path eq "/a"', { id: MANAGED })), MANAGED, shop, 'zone');
    const off = deploymentsOf(entry(rule('execute', 'true', { id: MANAGED }, false)), MANAGED, shop, 'account');
    expect(best([...off, ...narrow])!.outcome.kind).toBe('narrow');
    expect(best([])).toBeNull();
    // vendor docs: "Create an exception": a skip of some hosts leaves the others protected, like a narrow execute rule.
    const hostSkip = deploymentsOf(entry(rule('skip', 'http.host eq "shop.example"', { rulesets: [MANAGED] }), rule('execute', 'true', { id: MANAGED })), MANAGED, shop, 'zone');
    expect(best([...off, ...hostSkip])!.outcome.kind).toBe('hostSkipped');
  });
});

describe('shorten', () => {
  it('keeps short expressions and cuts long ones', () => {
    expect(shorten('true')).toBe('true');
    expect(shorten('x'.repeat(200))).toHaveLength(120);
    expect(shorten(null)).toBe('(none)');
  });
});
