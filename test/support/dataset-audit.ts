import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { RULES } from '../../rules/index.js';
import { DEMO_RULE_SETTINGS } from '../../src/cli/commands/demo.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/server.js';
import { runAudit, type AuditResult } from '../../src/audit/audit.js';
import { activeRules, loadCatalogue, type RuleSettings } from '../../src/policy/registry.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { runCli } from './cli.js';
import { TOKEN } from './http.js';

/**
 * A dataset scanned from the emulator by the CLI and audited in memory with the whole catalogue and
 * the demo's rule settings (the documentation ranges as stand-ins), as `zonewarden demo` audits,
 * or the settings given. The caller closes the emulator.
 */
export async function auditDataset(
  dataset: EmulatorOptions['dataset'],
  name: string,
  more: { generated?: EmulatorOptions['generated']; settings?: Readonly<Record<string, RuleSettings>> } = {},
): Promise<{ emulator: RunningEmulator; result: AuditResult }> {
  const emulator = await startEmulator({ dataset, rateLimit: 0, ipRateLimit: 0, ...(more.generated ? { generated: more.generated } : {}) });
  const db = join(mkdtempSync(join(tmpdir(), `zw-${name}-audit-`)), 'zonewarden.db');
  const scan = await runCli(['scan', '--base-url', emulator.url, '--db', db, '--budget', '1000000', '--quiet'], { ZONEWARDEN_API_TOKEN: TOKEN });
  expect(scan.code, scan.stderr).toBe(0);
  const handle = openSnapshot(db);
  try {
    return { emulator, result: runAudit(new SnapshotReader(handle, 1), activeRules(loadCatalogue(RULES), more.settings ?? DEMO_RULE_SETTINGS)) };
  } finally {
    handle.close();
  }
}
