import { describe, expect, it } from 'vitest';
import { DEFAULT_IGNORED_FIELDS, DriftConfigError, ignoreList, ignoreListFrom } from '../../src/drift/ignore.js';
import { RESOURCE_TYPES } from '../../src/drift/resources.js';
import { ZonewardenError } from '../../src/common/errors.js';
import { thrownBy } from '../support/errors.js';

/** The error `ignoreListFrom` throws for a section, checked to be a one-line DriftConfigError. */
function refused(section: Record<string, unknown>): DriftConfigError {
  const err = thrownBy(() => ignoreListFrom(section), DriftConfigError);
  expect(err).toBeInstanceOf(ZonewardenError);
  expect(err.code).toBe('ZW_CONFIG');
  expect(err.message).not.toMatch(/[\r\n]/);
  return err;
}

describe('ignoreList', () => {
  it('ignores a field of the named type, and everything beneath it', () => {
    const list = ignoreList(['zone.meta']);
    expect(list.ignores('zone', ['meta'])).toBe(true);
    expect(list.ignores('zone', ['meta', 'x', 'y'])).toBe(true);
    expect(list.ignores('zone', ['metadata'])).toBe(false);
    expect(list.ignores('zone', ['name'])).toBe(false);
    expect(list.ignores('dns_record', ['meta'])).toBe(false);
  });

  it('takes * as any type or any one field name', () => {
    const list = ignoreList(['*.modified_on', 'zone.*.count']);
    expect(list.ignores('certificate', ['modified_on'])).toBe(true);
    expect(list.ignores('zone', ['plan', 'count'])).toBe(true);
    expect(list.ignores('zone', ['plan', 'name'])).toBe(false);
    expect(list.ignores('dns_record', ['plan', 'count'])).toBe(false);
  });

  it('does not ignore a field above the one a pattern names', () => {
    expect(ignoreList(['zone.meta.x']).ignores('zone', ['meta'])).toBe(false);
  });

  it('ignores nothing when empty', () => {
    expect(ignoreList([]).ignores('zone', ['modified_on'])).toBe(false);
  });
});

describe('ignoreListFrom', () => {
  it('gives the default list without a drift section', () => {
    const list = ignoreListFrom(undefined);
    expect(list.patterns).toEqual(DEFAULT_IGNORED_FIELDS);
    expect(list.ignores('zone', ['modified_on'])).toBe(true);
    expect(list.ignores('ruleset_entrypoint', ['rules', 'version'])).toBe(true);
  });

  it('gives the default list for a section without an ignore key', () => {
    const list = ignoreListFrom({});
    expect(list.patterns).toEqual(DEFAULT_IGNORED_FIELDS);
    expect(list.ignores('dns_record', ['meta', 'auto_added'])).toBe(true);
  });

  it('replaces the defaults with the configured list', () => {
    const list = ignoreListFrom({ ignore: ['dns_record.comment'] });
    expect(list.patterns).toEqual(['dns_record.comment']);
    expect(list.ignores('dns_record', ['comment'])).toBe(true);
    expect(list.ignores('zone', ['modified_on'])).toBe(false);
    expect(list.ignores('zone', ['meta'])).toBe(false);
  });

  it('takes an empty list as ignoring nothing', () => {
    const list = ignoreListFrom({ ignore: [] });
    expect(list.patterns).toEqual([]);
    expect(list.ignores('zone', ['modified_on'])).toBe(false);
  });

  it('accepts * for the type and for a field, and names of every resource type', () => {
    const patterns = ['*.modified_on', 'zone.*.x', 'dns_record.meta.auto-added', ...RESOURCE_TYPES.map((t) => `${t}.Field_1`)];
    expect(ignoreListFrom({ ignore: patterns }).patterns).toEqual(patterns);
  });

  it('accepts the whole default list as configuration', () => {
    expect(ignoreListFrom({ ignore: DEFAULT_IGNORED_FIELDS }).patterns).toEqual(DEFAULT_IGNORED_FIELDS);
  });

  it.each(DEFAULT_IGNORED_FIELDS.map((p) => [p]))('accepts the default pattern %s on its own', (pattern) => {
    expect(ignoreListFrom({ ignore: [pattern] }).patterns).toEqual([pattern]);
  });

  describe('refuses', () => {
    it('an unknown key in the section, naming it and the key it takes', () => {
      const err = refused({ ignore: [], ignored: ['zone.meta'] });
      expect(err.message).toContain('"ignored"');
      expect(err.message).toContain('the drift section takes "ignore"');
      expect(err.message).toMatch(/^config file: drift: /);
    });

    it.each<[string, unknown]>([
      ['a string', '*.modified_on'],
      ['an object', { zone: 'meta' }],
      ['null', null],
      ['a number', 1],
    ])('an ignore that is %s, not a list', (_what, value) => {
      const err = refused({ ignore: value });
      expect(err.message).toMatch(/^config file: drift\.ignore: /);
      expect(err.message).toContain('expected a list');
      expect(err.message).toContain('e.g. ["*.modified_on"]');
    });

    it.each<[string, unknown]>([
      ['a number', 42],
      ['null', null],
      ['an object', { type: 'zone', field: 'meta' }],
      ['a list', ['zone.meta']],
    ])('a pattern that is %s, not a string', (_what, pattern) => {
      const err = refused({ ignore: ['zone.meta', pattern] });
      expect(err.message).toMatch(/^config file: drift\.ignore\[1\]: /);
      expect(err.message).toContain(JSON.stringify(pattern));
      expect(err.message).toContain('write e.g. "dns_record.comment" or "*.modified_on"');
    });

    it.each([
      ['no dot', 'modified_on'],
      ['no field', 'zone.'],
      ['no type', '.meta'],
      ['an empty segment', 'zone..meta'],
      ['a trailing empty segment', 'zone.meta.'],
      ['a space', 'zone. meta'],
      ['a space inside a name', 'dns_record.my comment'],
      ['an upper-case type', 'Zone.meta'],
      ['an empty string', ''],
      ['a wildcard inside a name', 'zone.mod*'],
    ])('a pattern with %s', (_what, pattern) => {
      const err = refused({ ignore: ['*.modified_on', 'zone.meta', pattern] });
      expect(err.message).toMatch(/^config file: drift\.ignore\[2\]: /);
      expect(err.message).toContain(`${JSON.stringify(pattern)} is not a <resource type>.<field> pattern`);
      expect(err.message).toContain('write e.g.');
    });

    it('a pattern with a line break, still in one line', () => {
      const err = refused({ ignore: ['zone.meta\nzone.name'] });
      expect(err.message).toContain('"zone.meta\\nzone.name"');
    });

    it('an unknown resource type, listing the known ones', () => {
      const err = refused({ ignore: ['zone.meta', 'dns_records.comment'] });
      expect(err.message).toMatch(/^config file: drift\.ignore\[1\]: unknown resource type "dns_records"/);
      expect(err.message).toContain(`use * or one of ${RESOURCE_TYPES.join(', ')}`);
      for (const type of RESOURCE_TYPES) expect(err.message).toContain(type);
    });

    it('naming the source it was given', () => {
      const err = thrownBy(() => ignoreListFrom({ ignore: ['nope'] }, 'zonewarden.yaml: drift'), DriftConfigError);
      expect(err.message).toMatch(/^zonewarden\.yaml: drift\.ignore\[0\]: /);
    });
  });

  it('knows the resource types it is told about', () => {
    expect(RESOURCE_TYPES).toEqual(expect.arrayContaining(['zone', 'dns_record', 'certificate', 'ruleset_entrypoint']));
  });
});
