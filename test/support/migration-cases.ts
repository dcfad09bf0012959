import type { InvalidCase } from './rule-tester.js';

/** Cases every check about migrating shares (through stillToMigrate): no status, no verdict. */
export const UNKNOWN_MIGRATION_STATUS: InvalidCase[] = [
  {
    name: 'unknown when the migration status was not read',
    snapshot: { zones: [{ name: 'a.example', unread: { migration_status: 'failed' } }] },
    findings: [{ status: 'unknown', message: 'migration_status' }],
  },
  {
    name: 'unknown when the status endpoint returned no status',
    snapshot: { zones: [{ name: 'a.example', migrationStatus: null }] },
    findings: [{ status: 'unknown', message: 'returned no status' }],
  },
];
