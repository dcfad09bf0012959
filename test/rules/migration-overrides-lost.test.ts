import rule from '../../rules/migration-overrides-lost.js';
import { days, type FixtureZone } from '../support/snapshot-fixture.js';
import { UNKNOWN_MIGRATION_STATUS } from '../support/migration-cases.js';
import { testRule } from '../support/rule-tester.js';

const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};
const PKG = 'pkgmanaged000000000000000000000a';
const group = (id: string, name: string, mode: string, defaultMode: string | null) => ({ id, package_id: PKG, name, mode, ...(defaultMode ? { default_mode: defaultMode } : {}) });
const wafRule = (id: string, description: string | null, mode: string, defaultMode: string) => ({ id, package_id: PKG, description, mode, default_mode: defaultMode });
const defaultGroups = [group('g1', 'Cloudflare Specials', 'on', 'on'), group('g2', 'Cloudflare Drupal', 'off', 'off')];
const defaultRules = [wafRule('100001', 'XSS probe', 'block', 'block'), wafRule('100002', 'SQLi probe', 'default', 'block'), wafRule('950001', 'OWASP SQLi', 'on', 'on')];

testRule(rule, {
  valid: [
    { name: 'no previous managed rules at all', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'groups and rules at their defaults (a rule in mode "default" follows its default)', snapshot: { zones: [{ name: 'a.example', wafGroups: defaultGroups, wafRules: defaultRules }] } },
    { name: 'a migrated zone, whose legacy WAF is skipped', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated }] } },
  ],
  invalid: [
    {
      name: 'group and rule overrides, named, with every id in the data',
      snapshot: {
        zones: [
          {
            name: 'bank.example',
            plan: 'enterprise',
            wafGroups: [...defaultGroups, group('g3', 'Cloudflare WordPress', 'off', 'on'), group('g4', 'Cloudflare Joomla', 'on', 'off')],
            wafRules: [...defaultRules, wafRule('100008', 'Path traversal', 'simulate', 'block')],
          },
        ],
      },
      findings: [
        {
          messageId: 'lost',
          severity: 'medium',
          resourceType: 'zone',
          zone: 'bank.example',
          message: 'the migration drops 2 group overrides (Cloudflare WordPress, Cloudflare Joomla) and 1 rule override (Path traversal) of the previous managed rules',
          data: { groupCount: 2, ruleCount: 1, groupIds: ['g3', 'g4'], ruleIds: ['100008'] },
        },
      ],
    },
    {
      name: 'many rule overrides: the first five, then how many more; an OWASP rule switched off counts',
      snapshot: {
        zones: [
          {
            name: 'cards.example',
            wafGroups: defaultGroups,
            wafRules: [...Array.from({ length: 6 }, (_, i) => wafRule(`10010${i}`, `Rule ${i}`, 'challenge', 'block')), wafRule('990012', 'OWASP bad robots', 'off', 'on')],
          },
        ],
      },
      findings: [
        {
          messageId: 'lost',
          message: /^the migration drops 7 rule overrides \(Rule 0, Rule 1, Rule 2, Rule 3, Rule 4 and 2 more\) of the previous/,
          data: { groupCount: 0, ruleCount: 7, ruleIds: ['100100', '100101', '100102', '100103', '100104', '100105', '990012'] },
        },
      ],
    },
    {
      name: 'a rule without a description is named by its id',
      snapshot: { zones: [{ name: 'a.example', wafRules: [wafRule('100009', null, 'disable', 'block')] }] },
      findings: [{ messageId: 'lost', message: 'drops 1 rule override (100009) of' }],
    },
    {
      name: 'group overrides alone',
      snapshot: { zones: [{ name: 'a.example', wafGroups: [group('g3', 'Cloudflare PHP', 'off', 'on')], wafRules: defaultRules }] },
      findings: [{ messageId: 'lost', message: /drops 1 group override \(Cloudflare PHP\) of the previous/ }],
    },
    {
      name: 'rule overrides are reported even when the groups do not say their default mode',
      snapshot: { zones: [{ name: 'a.example', wafGroups: [group('g1', 'Cloudflare Specials', 'off', null)], wafRules: [wafRule('100008', 'Path traversal', 'simulate', 'block')] }] },
      findings: [{ messageId: 'lost', message: 'drops 1 rule override (Path traversal) (and 1 group (Cloudflare Specials) switched off, perhaps by default) of', data: { groupCount: 0, ruleCount: 1 } }],
    },
    {
      name: 'a zone with the previous rules switched off still loses its overrides',
      snapshot: {
        zones: [{ name: 'a.example', migrationStatus: { migration_state: 'start', old_waf_status: 'disabled', new_waf_status: 'disabled' }, wafRules: [wafRule('100008', 'Path traversal', 'simulate', 'block')] }],
      },
      findings: [{ messageId: 'lost' }],
    },
    {
      name: 'groups switched off whose default the API does not give (as the real API serves groups): a low finding to check',
      snapshot: { zones: [{ name: 'a.example', wafGroups: [group('g1', 'Cloudflare Specials', 'on', null), group('g2', 'Cloudflare PHP', 'off', null)], wafRules: defaultRules }] },
      findings: [{ messageId: 'groupsOff', severity: 'low', message: /^1 group \(Cloudflare PHP\) switched off; the API does not give/, data: { groupIds: ['g2'] } }],
    },
    {
      name: 'unknown when the groups were not read',
      snapshot: { zones: [{ name: 'a.example', wafRules: [wafRule('100008', 'Path traversal', 'simulate', 'block')], unread: { waf_groups: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'waf_groups' }],
    },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', wafGroups: [group('g3', 'Cloudflare PHP', 'off', 'on')], unread: { waf_rules: 'denied' } }] },
      findings: [{ status: 'unknown', message: 'waf_rules' }],
    },
    ...UNKNOWN_MIGRATION_STATUS,
  ],
});
