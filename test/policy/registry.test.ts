import { describe, expect, it } from 'vitest';
import { activeRules, loadCatalogue, RuleConfigError, RuleDefinitionError } from '../../src/policy/registry.js';
import { defineRule, type AnyRule } from '../../src/policy/rule.js';
import { thrownBy } from '../support/errors.js';

const good = defineRule({
  meta: {
    id: 'good-rule',
    title: 'all is well',
    description: 'why',
    severity: 'low',
    category: 'dns',
    scope: 'zone',
    resource: 'zone',
    messages: { bad: 'bad {{n}}' },
    remediation: 'fix',
    references: ['spec'],
    optionHelp: { limit: 'how many', quotas: 'per plan', names: 'names' },
  },
  defaultOptions: { limit: 3, quotas: { free: 5, pro: 20 } as Record<string, number>, names: ['a'] as readonly string[] },
  check: (ctx) => ctx.pass(),
});

const broken = (patch: Record<string, unknown>, options?: Record<string, unknown>): AnyRule =>
  ({ ...good, meta: { ...good.meta, ...patch }, ...(options ? { defaultOptions: options } : {}) }) as AnyRule;

describe('rule catalogue', () => {
  it('loads valid rules by id in order', () => {
    const other = broken({ id: 'other-rule' });
    expect([...loadCatalogue([good, other]).keys()]).toEqual(['good-rule', 'other-rule']);
  });

  it.each([
    [{ id: 'Bad_Id' }, 'meta.id must be kebab-case'],
    [{ title: '' }, 'meta.title must be a non-empty string'],
    [{ severity: 'urgent' }, 'meta.severity must be one of critical, high, medium, low, info'],
    [{ category: 'network' }, 'meta.category must be one of'],
    [{ scope: 'account' }, 'meta.scope must be zone or organisation'],
    [{ messages: {} }, 'meta.messages must hold at least one message'],
    [{ references: 'spec' }, 'meta.references must be a list of strings'],
    [{ optionHelp: { limit: 'x', quotas: 'y' } }, 'option "names" needs a line in meta.optionHelp'],
    [{ optionHelp: { limit: 'x', quotas: 'y', names: 'z', extra: 'w' } }, 'documents "extra", which is not an option'],
    [{ reads: ['setting:colour'] }, 'meta.reads must list zone reads such as setting:ssl'],
    [{ reads: 'dnssec' }, 'meta.reads must list zone reads'],
    [{ reads: ['page_rules'] }, 'meta.reads must list zone reads'],
  ])('refuses malformed metadata %o', (patch, message) => {
    expect(thrownBy(() => loadCatalogue([broken(patch)]), RuleDefinitionError).message).toContain(message);
  });

  it('accepts the zone reads a rule may declare', () => {
    expect([...loadCatalogue([broken({ reads: ['setting:ssl', 'setting:waf', 'dnssec', 'universal_ssl', 'custom_entrypoint'] })]).keys()]).toHaveLength(1);
  });

  it('refuses a rule listed twice', () => {
    expect(thrownBy(() => loadCatalogue([good, good]), RuleDefinitionError).message).toBe('rule good-rule is listed twice in rules/index.ts');
  });
});

describe('rule settings from the config file', () => {
  const catalogue = loadCatalogue([good]);

  it('applies defaults, then settings; object options merge key by key', () => {
    expect(activeRules(catalogue)[0]).toMatchObject({ enabled: true, severity: null, options: { limit: 3, quotas: { free: 5, pro: 20 } } });
    const [r] = activeRules(catalogue, { 'good-rule': { enabled: false, severity: 'high', options: { limit: 7, quotas: { pro: 40 }, names: ['x', 'y'] } } });
    expect(r).toMatchObject({ enabled: false, severity: 'high', options: { limit: 7, quotas: { free: 5, pro: 40 }, names: ['x', 'y'] } });
  });

  it.each([
    [{ 'no-such-rule': {} }, 'cfg: rules.no-such-rule: no such rule; zonewarden rules lists them'],
    [{ 'good-rule': { enable: false } }, 'cfg: rules.good-rule: unknown setting "enable"; use enabled, severity, options or overrides'],
    [{ 'good-rule': { enabled: 'no' } }, 'cfg: rules.good-rule.enabled: expected true or false'],
    [{ 'good-rule': { severity: 'urgent' } }, 'cfg: rules.good-rule.severity: expected one of critical, high, medium, low, info'],
    [{ 'good-rule': { options: [] } }, 'cfg: rules.good-rule.options: expected an object'],
    [{ 'good-rule': { options: { limt: 1 } } }, 'cfg: rules.good-rule.options: unknown option "limt"; options: limit, quotas, names'],
    [{ 'good-rule': { options: { limit: '3' } } }, 'cfg: rules.good-rule.options.limit: expected a non-negative number'],
    [{ 'good-rule': { options: { limit: -1 } } }, 'cfg: rules.good-rule.options.limit: expected a non-negative number'],
    [{ 'good-rule': { options: { quotas: { team: 3 } } } }, 'expected an object of non-negative numbers with keys from free, pro'],
    [{ 'good-rule': { options: { names: 'a' } } }, 'cfg: rules.good-rule.options.names: expected a list of strings'],
  ])('refuses %o with one line naming the fix', (settings, message) => {
    expect(thrownBy(() => activeRules(catalogue, settings as never, 'cfg'), RuleConfigError).message).toContain(message);
  });

  // issue 32 item 7 ("did you mean"): a name one edit from a known one suggests it; an unrelated name gets no guess.
  it('suggests the rule id, setting or option a one-letter typo was meant to be, and nothing for an unrelated name', () => {
    const message = (settings: unknown) => thrownBy(() => activeRules(catalogue, settings as never, 'cfg'), RuleConfigError).message;
    expect(message({ 'good-rul': {} })).toBe('cfg: rules.good-rul: no such rule; zonewarden rules lists them (did you mean "good-rule"?)');
    expect(message({ 'no-such-rule': {} })).not.toContain('did you mean');
    expect(message({ 'good-rule': { enable: false } })).toBe('cfg: rules.good-rule: unknown setting "enable"; use enabled, severity, options or overrides (did you mean "enabled"?)');
    expect(message({ 'good-rule': { disabled: true } })).not.toContain('did you mean');
    expect(message({ 'good-rule': { options: { limt: 1 } } })).toBe('cfg: rules.good-rule.options: unknown option "limt"; options: limit, quotas, names (did you mean "limit"?)');
    expect(message({ 'good-rule': { options: { colour: 1 } } })).not.toContain('did you mean');
  });

  it('refuses a list entry outside the values a rule allows, naming them', () => {
    const choosy = broken({ optionChoices: { names: ['a', 'b'] } }, { limit: 3, quotas: { free: 5, pro: 20 }, names: [] });
    const settings = { 'good-rule': { options: { names: ['a', 'c'] } } };
    expect(thrownBy(() => activeRules(loadCatalogue([choosy]), settings as never, 'cfg'), RuleConfigError).message).toBe('cfg: rules.good-rule.options.names: "c" is not one of a, b');
    expect(activeRules(loadCatalogue([choosy]), { 'good-rule': { options: { names: ['b'] } } } as never, 'cfg')[0]!.options['names']).toEqual(['b']);
  });

  it('refuses a text option outside the values a rule allows, naming them', () => {
    const choosy = broken({ optionChoices: { scope: ['narrow', 'wide'] }, optionHelp: { scope: 'how wide' } }, { scope: 'narrow' });
    expect(thrownBy(() => activeRules(loadCatalogue([choosy]), { 'good-rule': { options: { scope: 'all' } } } as never, 'cfg'), RuleConfigError).message).toBe('cfg: rules.good-rule.options.scope: "all" is not one of narrow, wide');
    expect(activeRules(loadCatalogue([choosy]), { 'good-rule': { options: { scope: 'wide' } } } as never, 'cfg')[0]!.options['scope']).toBe('wide');
  });

  it('refuses choices for an option that is neither a list nor text, or that leave out a text default', () => {
    expect(thrownBy(() => loadCatalogue([broken({ optionChoices: { limit: ['1'] } })]), RuleDefinitionError).message).toContain('meta.optionChoices.limit must name a list option');
    expect(thrownBy(() => loadCatalogue([broken({ optionChoices: { scope: ['wide'] }, optionHelp: { scope: 'how wide' } }, { scope: 'narrow' })]), RuleDefinitionError).message).toContain('meta.optionChoices.scope must include the option\'s default "narrow"');
  });

  describe('options taken from another rule (meta.optionsFrom: one problem, one finding)', () => {
    const follower = broken({ id: 'follower-rule', optionsFrom: { rule: 'good-rule', options: ['names'] } });

    it('copies the values the other rule runs with, set on it or its defaults, enabled or not', () => {
      const byId = (rules: ReturnType<typeof activeRules>) => Object.fromEntries(rules.map((r) => [r.rule.meta.id, r.options['names']]));
      const catalogue = loadCatalogue([good, follower]);
      expect(byId(activeRules(catalogue, {}))).toEqual({ 'good-rule': ['a'], 'follower-rule': ['a'] });
      expect(byId(activeRules(catalogue, { 'good-rule': { enabled: false, options: { names: ['x', 'y'] } } }))).toEqual({ 'good-rule': ['x', 'y'], 'follower-rule': ['x', 'y'] });
    });

    it('refuses the option set on the rule that follows, naming where to set it', () => {
      const settings = { 'follower-rule': { options: { names: ['x'] } } };
      expect(thrownBy(() => activeRules(loadCatalogue([good, follower]), settings, 'cfg'), RuleConfigError).message).toBe(
        'cfg: rules.follower-rule.options.names: set it on rules.good-rule, which this rule follows (the two must agree)',
      );
    });

    it('takes it on the rule itself when the catalogue lacks the other (a rule tested alone)', () => {
      expect(activeRules(loadCatalogue([follower]), { 'follower-rule': { options: { names: ['x'] } } })[0]!.options['names']).toEqual(['x']);
    });

    it('takes options from several rules, under the names they give them', () => {
      const other = broken({ id: 'other-rule' });
      const both = broken({ id: 'both-rule', optionsFrom: [{ rule: 'good-rule', options: ['names'] }, { rule: 'other-rule', options: ['extra'], named: { extra: 'names' } }] });
      const withExtra = { ...both, defaultOptions: { names: ['a'], extra: ['a'] }, meta: { ...both.meta, optionHelp: { names: 'n', extra: 'e' } } };
      const catalogue = loadCatalogue([good, other, withExtra]);
      const options = activeRules(catalogue, { 'good-rule': { options: { names: ['g'] } }, 'other-rule': { options: { names: ['o'] } } }).find((r) => r.rule.meta.id === 'both-rule')!.options;
      expect(options).toEqual({ names: ['g'], extra: ['o'] });
      expect(thrownBy(() => activeRules(catalogue, { 'both-rule': { options: { extra: ['x'] } } }), RuleConfigError).message).toContain('set it on rules.other-rule (as names)');
    });

    it('refuses to load a rule that takes one option from two rules', () => {
      const twice = broken({ optionsFrom: [{ rule: 'good-rule', options: ['names'] }, { rule: 'other-rule', options: ['names'] }] });
      expect(thrownBy(() => loadCatalogue([twice]), RuleDefinitionError).message).toContain('each option from one rule');
    });

    it('refuses to load a rule that takes an option it does not have', () => {
      expect(thrownBy(() => loadCatalogue([broken({ optionsFrom: { rule: 'good-rule', options: ['nope'] } })]), RuleDefinitionError).message).toContain('meta.optionsFrom must name a rule and options this rule has');
    });
  });
});
