import rule from '../../rules/migration-overrides-lost.js';
import { days, type FixtureZone } from '../support/snapshot-fixture.js';
import { UNKNOWN_MIGRATION_STATUS } from '../support/migration-cases.js';
import { testRule } from '../support/rule-tester.js';

const migrated: Partial<FixtureZone> = {
  migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-30) },
  unread: { migration_check: 'skipped', migration_config: 'skipped', waf_packages: 'skipped', waf_groups: 'skipped', waf_rules: 'skipped', waf_overrides: 'skipped' },
};

/*
 * Shapes as the legacy WAF API serves them: groups carry `modified_rules_count` and no default mode;
 * rules of the vendor's package carry `default_mode`; rules of the OWASP package (anomaly) carry
 * `mode` on|off and no `default_mode`.
 * spec: Migration mapping rules, rule 2 (group and rule overrides of the previous core rule set are
 * not migrated); vendor migration guide: overrides of the vendor's own package are carried.
 */
const MANAGED = 'pkgmanaged000000000000000000000a';
const OWASP = 'pkgowasp00000000000000000000000a';
const packages = [
  { id: MANAGED, name: 'CloudFlare', detection_mode: 'traditional' },
  { id: OWASP, name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly', sensitivity: 'high', action_mode: 'challenge' },
];
const group = (id: string, pkg: string, name: string, mode: string, modified: number) => ({ id, package_id: pkg, name, mode, rules_count: 10, modified_rules_count: modified });
const vendorRule = (id: string, description: string, groupId: string, mode: string, defaultMode = 'block') => ({ id, package_id: MANAGED, description, mode, default_mode: defaultMode, group: { id: groupId } });
const owaspRule = (id: string, description: string, groupId: string, mode: 'on' | 'off') => ({ id, package_id: OWASP, description, mode, group: { id: groupId } });

const groups = [group('gspec', MANAGED, 'Cloudflare Specials', 'on', 0), group('gdrupal', MANAGED, 'Cloudflare Drupal', 'off', 0), group('gxss', OWASP, 'OWASP XSS Attacks', 'on', 0), group('gsqli', OWASP, 'OWASP SQL Injection', 'on', 0)];
const rules = [vendorRule('100001', 'XSS probe', 'gspec', 'block'), vendorRule('100002', 'SQLi probe', 'gspec', 'default'), owaspRule('958001', 'XSS 1', 'gxss', 'on'), owaspRule('981001', 'SQLi 1', 'gsqli', 'on')];
const zoneWith = (g = groups, r = rules): Partial<FixtureZone> => ({ wafPackages: packages, wafGroups: g, wafRules: r });
const changed = (id: string, count: number) => groups.map((g) => (g.id === id ? { ...g, modified_rules_count: count } : g));

testRule(rule, {
  valid: [
    { name: 'no previous managed rules at all', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'everything at its defaults', snapshot: { zones: [{ name: 'a.example', ...zoneWith() }] } },
    {
      name: 'rule overrides of the vendor package are carried, so nothing is lost',
      snapshot: { zones: [{ name: 'a.example', ...zoneWith(changed('gspec', 2), [...rules, vendorRule('100008', 'Path traversal', 'gspec', 'simulate'), vendorRule('100009', 'RCE', 'gspec', 'disable')]) }] },
    },
    {
      name: 'a vendor group switched off (the Drupal group of every zone) is no evidence of an OWASP override',
      snapshot: { zones: [{ name: 'a.example', ...zoneWith() }, { name: 'b.example', plan: 'enterprise', ...zoneWith() }] },
    },
    {
      name: 'an OWASP group switched off with no rule changed: groups carry no default mode, so no evidence of a change',
      snapshot: { zones: [{ name: 'a.example', ...zoneWith(groups.map((g) => (g.id === 'gxss' ? { ...g, mode: 'off' } : g))) }] },
    },
    { name: 'a migrated zone, whose legacy WAF is skipped', snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', ...migrated }] } },
  ],
  invalid: [
    {
      name: 'OWASP rule overrides, found through modified_rules_count although the rules state no default',
      snapshot: { zones: [{ name: 'bank.example', plan: 'enterprise', ...zoneWith(changed('gxss', 2), [...rules, owaspRule('958002', 'XSS 2', 'gxss', 'off'), owaspRule('958003', 'XSS 3', 'gxss', 'off')]) }] },
      findings: [
        {
          messageId: 'lost',
          severity: 'medium',
          resourceType: 'zone',
          zone: 'bank.example',
          message: 'the migration drops the overrides of the previous OWASP core rule set: 2 rule overrides in 1 group, OWASP XSS Attacks (2 rules changed): recreate them in the new managed rules or they are lost',
          data: { ruleCount: 2, groupIds: ['gxss'], rulesOff: ['958002', '958003'], carriedRuleCount: 0 },
        },
      ],
    },
    {
      name: 'OWASP changes in two groups alongside carried vendor overrides: only the OWASP ones are lost',
      snapshot: {
        zones: [
          {
            name: 'a.example',
            ...zoneWith(
              groups.map((g) => (g.id === 'gxss' ? { ...g, modified_rules_count: 1 } : g.id === 'gsqli' ? { ...g, modified_rules_count: 3 } : g)),
              [...rules, vendorRule('100008', 'Path traversal', 'gspec', 'simulate')],
            ),
          },
        ],
      },
      findings: [{ messageId: 'lost', message: '4 rule overrides in 2 groups, OWASP SQL Injection (3 rules changed), OWASP XSS Attacks (1 rule changed)', data: { ruleCount: 4, groupIds: ['gsqli', 'gxss'], carriedRuleCount: 1 } }],
    },
    {
      name: 'an older answer giving an OWASP rule a default mode: a rule away from it is evidence too',
      snapshot: { zones: [{ name: 'a.example', ...zoneWith(groups, [...rules, { ...owaspRule('958009', 'XSS 9', 'gxss', 'off'), default_mode: 'on' }]) }] },
      findings: [{ messageId: 'lost', message: 'OWASP XSS Attacks (1 rule changed)' }],
    },
    {
      name: 'state default (seen in the wild) is a zone that has not started',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { migration_state: 'default', old_waf_status: 'enabled', new_waf_status: 'disabled' }, ...zoneWith(changed('gsqli', 1)) }] },
      findings: [{ messageId: 'lost' }],
    },
    {
      name: 'a zone with the previous rules switched off still loses its overrides',
      snapshot: { zones: [{ name: 'a.example', migrationStatus: { migration_state: 'start', old_waf_status: 'disabled', new_waf_status: 'disabled' }, ...zoneWith(changed('gsqli', 1)) }] },
      findings: [{ messageId: 'lost' }],
    },
    {
      name: 'unknown when the packages were not read (which package is OWASP is not known)',
      snapshot: { zones: [{ name: 'a.example', ...zoneWith(changed('gsqli', 1)), unread: { waf_packages: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'waf_packages' }],
    },
    {
      name: 'unknown when the groups were not read',
      snapshot: { zones: [{ name: 'a.example', ...zoneWith(), unread: { waf_groups: 'failed' } }] },
      findings: [{ status: 'unknown', message: 'waf_groups' }],
    },
    {
      name: 'unknown when the rules were not read',
      snapshot: { zones: [{ name: 'a.example', ...zoneWith(changed('gsqli', 1)), unread: { waf_rules: 'denied' } }] },
      findings: [{ status: 'unknown', message: 'waf_rules' }],
    },
    ...UNKNOWN_MIGRATION_STATUS,
  ],
});
