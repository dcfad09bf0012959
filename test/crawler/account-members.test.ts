/**
 * The account members read end to end, against the emulator over real HTTP: `zonewarden run`
 * reads each account's members once (page by page), stores them trimmed, and
 * account-member-no-2fa judges them; a token without the permission (Account Settings Read) is
 * refused the read, the scan still completes and the rule says unknown for the account; a rule
 * switched off costs no request. No member's e-mail is ever written to the output or the logs.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatasetFile, DatasetMember } from '../../src/emulator/datasets/format.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

const emulator = emulatorsClosedAfterEach();
const MEMBERS = 'GET /accounts/{account_id}/members';

// vendor docs: List Members: at most 50 a page, so 60 members take two pages.
const crowd: DatasetMember[] = Array.from({ length: 58 }, (_, i) => ({ email: `staff${i}@big.example`, roles: ['Administrator Read Only'] }));
const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Big',
      members: [
        { email: 'admin@example.com', roles: ['Super Administrator - All Privileges'] },
        { email: 'no-second-factor@big.example', first_name: 'Nora', last_name: 'Secret', roles: ['Administrator'], two_factor: false },
        ...crowd,
      ],
      zones: [{ name: 'big-one.example', plan: 'pro' }, { name: 'big-two.example', plan: 'pro' }],
    },
    // No members given: the user alone, with two-factor.
    { name: 'Small', zones: [{ name: 'small.example' }] },
  ],
};
const EMAILS = ['no-second-factor@big.example', 'admin@example.com', 'staff0@big.example', 'staff57@big.example'];

async function run(emu: RunningEmulator, rules: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'zw-members-'));
  const config = join(dir, 'zonewarden.config.json');
  writeFileSync(config, JSON.stringify({ rules }));
  const db = join(dir, 'zw.db');
  const out = join(dir, 'reports');
  const r = await runInProcess(['run', '--base-url', emu.url, '--db', db, '--config', config, '--out', out, '--verbose', '--budget', '1000000', '--format', 'html,md,json,csv,ocsf,junit'], { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
  const files = (readdirSync(out, { recursive: true }) as string[]).filter((f) => /\.(html|md|json|csv|jsonl|xml)$/.test(f));
  const reports = files.map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
  const findingsFile = files.find((f) => f.endsWith('findings.json'));
  const findings = findingsFile ? (JSON.parse(readFileSync(join(out, findingsFile), 'utf8')) as unknown) : null;
  return { ...r, db, findings, reports };
}

function stored(db: string): Array<{ scope_id: string; raw: string }> {
  const handle = openSnapshot(db);
  try {
    return handle.prepare(`SELECT scope_id, raw FROM account_objects WHERE endpoint = 'account_members' ORDER BY scope_id, item_id`).all() as Array<{ scope_id: string; raw: string }>;
  } finally {
    handle.close();
  }
}

describe('the account members read', () => {
  it('reads each account once, page by page, stores members trimmed, and fails the administrator without two-factor', async () => {
    const emu = await emulator({ dataset });
    const r = await run(emu);
    expect(r.code, r.stderr).toBe(0);
    // Two pages for Big (60 members, 50 a page), one for Small: not one per zone.
    expect(emu.stats().requests.byRoute[MEMBERS]).toBe(3);
    const rows = stored(r.db);
    expect(rows).toHaveLength(61);
    const nora = rows.map((row) => JSON.parse(row.raw) as Record<string, unknown>).find((m) => (m['user'] as Record<string, unknown>)['email'] === 'no-second-factor@big.example')!;
    // Kept: ids, status, e-mail, the flag, role ids and names with their write grants; not names, descriptions or read grants.
    expect(Object.keys(nora).sort()).toEqual(['id', 'policies', 'roles', 'status', 'user']);
    expect(nora['user']).toEqual({ id: expect.any(String), email: 'no-second-factor@big.example', two_factor_authentication_enabled: false });
    expect(JSON.stringify(nora)).not.toMatch(/Nora|Secret|description|"read"/);
    expect(JSON.stringify(r.findings)).toContain('n***@big.example (Administrator) can change account Big and signs in without two-factor authentication');
    // The default memberNames (masked): no address in the output, the logs or any report.
    for (const email of EMAILS) {
      expect(r.stdout).not.toContain(email);
      expect(r.stderr).not.toContain(email);
      expect(r.reports).not.toContain(email);
    }
  });

  it('a token refused the members read: denied, the scan complete, the rule unknown for each account, no e-mail in the logs', async () => {
    const emu = await emulator({ dataset, denyRoutes: [MEMBERS] });
    const r = await run(emu);
    // Nothing else fails: the only unknowns are the members', and the scan is complete (exit 0, not 3).
    expect(r.code, r.stderr).toBe(0);
    const handle = openSnapshot(r.db);
    try {
      const scan = handle.prepare('SELECT status FROM scans ORDER BY id DESC LIMIT 1').pluck().get();
      expect(scan).toBe('complete');
      const coverage = handle.prepare(`SELECT state, http_status FROM coverage WHERE endpoint = 'account_members'`).all();
      expect(coverage).toEqual([
        { state: 'denied', http_status: 403 },
        { state: 'denied', http_status: 403 },
      ]);
    } finally {
      handle.close();
    }
    const findings = (r.findings as { findings: Array<{ rule: string; status: string; resource: { type: string; name: string } }> }).findings.filter((f) => f.rule === 'account-member-no-2fa');
    expect(findings.map((f) => [f.status, f.resource.type, f.resource.name]).sort()).toEqual([
      ['unknown', 'account', 'Big'],
      ['unknown', 'account', 'Small'],
    ]);
    for (const email of EMAILS) expect(r.stdout + r.stderr + r.reports).not.toContain(email);
  });

  it('reads nothing when the rule is switched off', async () => {
    const emu = await emulator({ dataset });
    const r = await run(emu, { 'account-member-no-2fa': { enabled: false } });
    expect(r.code, r.stderr).toBeLessThan(2);
    expect(emu.stats().requests.byRoute[MEMBERS]).toBeUndefined();
    expect(stored(r.db)).toEqual([]);
  });
});
