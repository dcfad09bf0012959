import rule from '../../rules/migration-validation-stalled.js';
import { days, FIXTURE_NOW } from '../support/snapshot-fixture.js';
import { UNKNOWN_MIGRATION_STATUS } from '../support/migration-cases.js';
import { testRule } from '../support/rule-tester.js';

const inValidation = (created: string | undefined) => ({
  migrationStatus: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled', ...(created === undefined ? {} : { created }) },
});
/** 14 days and one second before the scan. */
const justOver14 = new Date(FIXTURE_NOW.getTime() - 14 * 86_400_000 - 1000).toISOString();

testRule(rule, {
  valid: [
    { name: 'a zone that has not started (old status times do not count)', snapshot: { zones: [{ name: 'a.example' }] } },
    { name: 'validation mode for three days', snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...inValidation(days(-3)) }] } },
    { name: 'validation mode for exactly 14 days', snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...inValidation(days(-14)) }] } },
    {
      name: 'a migrated zone that spent long in validation',
      snapshot: { zones: [{ name: 'done.example', plan: 'enterprise', migrationStatus: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled', created: days(-200) } }] },
    },
    { name: 'a longer allowance', options: { days: 30 }, snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...inValidation(days(-20)) }] } },
  ],
  invalid: [
    {
      name: '14 days and one second: longer than 14 days',
      snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...inValidation(justOver14) }] },
      findings: [
        {
          messageId: 'stalled',
          severity: 'medium',
          resourceType: 'zone',
          zone: 'v.example',
          message: 'the migration has been in validation mode for 14 days (since 2026-10-18), longer than 14 days',
          data: { days: 14, since: '2026-10-18', limit: 14 },
        },
      ],
    },
    {
      name: 'twenty days, with fractional seconds in the time',
      snapshot: { zones: [{ name: 'loans.example', plan: 'enterprise', ...inValidation('2026-10-12T11:59:59.12345Z') }] },
      findings: [{ messageId: 'stalled', message: 'for 20 days (since 2026-10-12)' }],
    },
    {
      name: 'a shorter allowance',
      options: { days: 7 },
      snapshot: { zones: [{ name: 'a.example', plan: 'enterprise', ...inValidation(days(-10)) }, { name: 'b.example', plan: 'enterprise', ...inValidation(days(-7)) }] },
      findings: [{ zone: 'a.example', messageId: 'stalled', message: 'for 10 days', data: { limit: 7 } }],
    },
    {
      name: 'unknown in validation mode without a created time',
      snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...inValidation(undefined) }] },
      findings: [{ status: 'unknown', message: 'does not say when validation mode began' }],
    },
    {
      name: 'unknown in validation mode with an unreadable created time',
      snapshot: { zones: [{ name: 'v.example', plan: 'enterprise', ...inValidation('last Tuesday') }] },
      findings: [{ status: 'unknown', message: 'does not say when validation mode began' }],
    },
    ...UNKNOWN_MIGRATION_STATUS,
  ],
});
