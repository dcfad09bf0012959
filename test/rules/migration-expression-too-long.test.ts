import { expect, it } from 'vitest';
import rule from '../../rules/migration-expression-too-long.js';
import { days, firewall, type FixtureZone } from '../support/snapshot-fixture.js';
import { runRule, testRule } from '../support/rule-tester.js';

const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};

/** An expression of exactly `bytes` bytes of UTF-8: as many `char` as fit, topped up with ASCII. */
function expressionOf(bytes: number, char: string): string {
  const head = 'http.request.uri.path contains "';
  const tail = '"';
  const room = bytes - head.length - tail.length;
  const each = Buffer.byteLength(char);
  return head + char.repeat(Math.floor(room / each)) + 'a'.repeat(room % each) + tail;
}
const chars = (s: string) => [...s].length;

const e4096e = expressionOf(4096, 'é');
const e4096shang = expressionOf(4096, '商');
const e4096ascii = expressionOf(4096, 'a');
const e4097shang = expressionOf(4097, '商');
const e4097ascii = expressionOf(4097, 'a');
const e4097emoji = expressionOf(4097, '😀');

it('builds the expressions the cases need', () => {
  for (const e of [e4096e, e4096shang, e4096ascii]) expect(Buffer.byteLength(e)).toBe(4096);
  for (const e of [e4097shang, e4097ascii, e4097emoji]) expect(Buffer.byteLength(e)).toBe(4097);
  expect(chars(e4097shang)).toBeLessThan(4096);
  expect(chars(e4096e)).toBeLessThan(4096);
  expect(chars(e4097ascii)).toBe(4097);
  // The emoji take two UTF-16 units each; characters are counted as code points.
  expect(e4097emoji.length).toBeGreaterThan(chars(e4097emoji));
});

/**
 * Bypass rules of the previous managed rules: the only firewall rules the migration carries, so the
 * only ones its 4 KB limit applies to (spec: Errors rule 7, Limits; vendor migration guide).
 */
const bypass = (specs: Parameters<typeof firewall>[0]) => firewall(specs.map((s) => ({ action: 'bypass', products: ['waf'], ...s })));

const long = bypass([{ expression: e4097shang, description: 'Block the 商 catalogue scrapers' }, { expression: 'ip.src eq 192.0.2.1', description: 'short' }]);
const longId = long.firewallRules[0]!['id'] as string;
const twoLong = bypass([{ expression: e4097ascii, description: '' }, { expression: e4096ascii }, { expression: e4097emoji, description: 'emoji' }]);
const twoLongIds = twoLong.firewallRules.map((r) => r['id'] as string);

testRule(rule, {
  valid: [
    { name: 'no rules', snapshot: { zones: [{ name: 'a.example' }] } },
    {
      name: 'exactly 4,096 bytes, whether of 2-byte, 3-byte or 1-byte characters',
      snapshot: { zones: [{ name: 'a.example', ...bypass([{ expression: e4096e }, { expression: e4096shang }, { expression: e4096ascii }]) }] },
    },
    { name: 'a migrated zone with a long expression', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated, ...bypass([{ expression: e4097shang }]) }] } },
    { name: 'a rule whose filter was deleted has no expression to migrate', snapshot: { zones: [{ name: 'a.example', ...bypass([{ expression: e4097shang, filterDeleted: true }]) }] } },
    // Only bypass rules are migrated: a block rule or a bypass of another product as long stays behind.
    { name: 'a long block rule is not migrated', snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: e4097shang, action: 'block' }]) }] } },
    { name: 'a long bypass of rate limiting is not migrated', snapshot: { zones: [{ name: 'a.example', ...firewall([{ expression: e4097shang, action: 'bypass', products: ['rateLimit'] }]) }] } },
    // spec: States and transitions (validation mode -> new version only, no condition): past the check.
    {
      name: 'a zone in validation mode is past the check',
      snapshot: {
        zones: [{ name: 'v.example', plan: 'enterprise', migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled', created: days(-2) }, ...bypass([{ expression: e4097shang }]) }],
      },
    },
    { name: 'a raised limit', options: { maxBytes: 8192 }, snapshot: { zones: [{ name: 'a.example', ...bypass([{ expression: e4097shang }]) }] } },
  ],
  invalid: [
    {
      name: '4,097 bytes in fewer than 4,096 characters: one finding for the rule, none for the short one',
      snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...long }] },
      findings: [
        {
          messageId: 'tooLong',
          severity: 'high',
          resourceType: 'firewall_rule',
          resourceId: longId,
          resourceName: 'Block the 商 catalogue scrapers',
          zone: 'a.example',
          message: `this bypass rule is to be migrated and its filter expression is 4,097 bytes of UTF-8 (${chars(e4097shang).toLocaleString('en-US')} characters), over the 4,096-byte limit of the managed-rules migration`,
          data: { bytes: 4097, characters: chars(e4097shang), limit: 4096 },
        },
      ],
    },
    {
      name: 'one finding per long rule',
      snapshot: { zones: [{ name: 'a.example', ...twoLong }] },
      findings: [
        {
          // vendor docs: the rules language's limit is 4,096 characters: over it too, the rule cannot be saved once edited.
          messageId: 'tooLongToEdit',
          resourceId: twoLongIds[0],
          message: "4,097 bytes of UTF-8 (4,097 characters), over the 4,096-byte limit of the managed-rules migration: migrating this zone needs the vendor's support; being over the rules language's 4,096 characters too, the rule cannot be saved again once edited",
        },
        { messageId: 'tooLong', resourceId: twoLongIds[2], resourceName: 'emoji', data: { characters: chars(e4097emoji) } },
      ],
    },
    {
      name: 'the inline expression is judged when the filters list was not read',
      snapshot: { zones: [{ name: 'a.example', ...bypass([{ expression: e4097shang }]), unread: { filters: 'failed' } }] },
      findings: [{ messageId: 'tooLong', data: { bytes: 4097 } }],
    },
    {
      name: 'unknown for a rule referencing a filter that was not read',
      snapshot: {
        zones: [
          {
            name: 'a.example',
            firewallRules: [{ id: 'rule000000000000000000000000000a', action: 'bypass', products: ['waf'], paused: false, description: 'by reference', filter: { id: 'filt000000000000000000000000000a' } }],
            unread: { filters: 'failed' },
          },
        ],
      },
      findings: [{ status: 'unknown', resourceType: 'firewall_rule', resourceId: 'rule000000000000000000000000000a', message: 'filters' }],
    },
    {
      name: 'a lowered limit',
      options: { maxBytes: 100 },
      snapshot: { zones: [{ name: 'a.example', ...bypass([{ expression: expressionOf(101, 'é') }, { expression: expressionOf(100, 'é') }]) }] },
      findings: [{ messageId: 'tooLong', message: '101 bytes of UTF-8 (67 characters), over the 100-byte limit' }],
    },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', unread: { firewall_rules: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'firewall_rules' }],
    },
    {
      name: 'unknown when the migration status was not read',
      snapshot: { zones: [{ name: 'a.example', ...bypass([{ expression: e4097shang }]), unread: { migration_status: 'failed' } }] },
      findings: [{ status: 'unknown', resourceType: 'zone', message: 'migration_status' }],
    },
  ],
});

it('names a failing rule by its description, and leaves an empty description unnamed', () => {
  const result = runRule(rule, { name: 'names', snapshot: { zones: [{ name: 'a.example', ...twoLong }] } });
  const names = new Map(result.findings.filter((f) => f.status === 'fail').map((f) => [f.resource.id, f.resource.name]));
  expect(names).toEqual(new Map([[twoLongIds[0], null], [twoLongIds[2], 'emoji']]));
});
