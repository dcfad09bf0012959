import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { caseDataset } from '../support/case-dataset.js';
import { runCli } from '../support/cli.js';
import { emulatorFor, TOKEN, zoneId } from '../support/http.js';

/** `zonewarden api` end to end: the built CLI against the emulator. */
let emu: RunningEmulator;
let env: Record<string, string>;
beforeAll(async () => {
  emu = await emulatorFor({ dataset: caseDataset() });
  env = { ZONEWARDEN_BASE_URL: emu.url, ZONEWARDEN_API_TOKEN: TOKEN };
});
afterAll(() => emu.close());

describe('zonewarden api', () => {
  it('prints the result of one call as JSON', async () => {
    const r = await runCli(['api', `/zones/${zoneId(emu, 'acme-bank.example')}`], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'acme-bank.example', plan: { legacy_id: 'enterprise' } });
  });

  it('merges every page with --paginate, asking for the largest page of a known list', async () => {
    emu.resetStats();
    const r = await runCli(['api', '/zones', '--paginate'], env);
    expect(r.code).toBe(0);
    const zones = JSON.parse(r.stdout) as Array<{ name: string }>;
    // The tests' organisation's 22 visible zones: still one page of 50.
    expect(zones).toHaveLength(22);
    expect(emu.stats().requests.byRoute['GET /zones']).toBe(1);
    const small = await runCli(['api', '/zones?per_page=5', '--paginate'], env);
    expect(JSON.parse(small.stdout)).toHaveLength(22);
  });

  it('sends a body with -X and -d, inline or from a file', async () => {
    const invites = JSON.parse((await runCli(['api', '/user/invites'], env)).stdout) as Array<{ id: string; status: string; organization_name: string }>;
    const pending = invites.filter((i) => i.status === 'pending');
    const accepted = await runCli(['api', `/user/invites/${pending[0]!.id}`, '-X', 'PATCH', '-d', '{"status":"accepted"}'], env);
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.stdout).status).toBe('accepted');

    const dir = mkdtempSync(join(tmpdir(), 'zw-api-'));
    writeFileSync(join(dir, 'filter.json'), JSON.stringify([{ expression: 'ip.src eq 192.0.2.200', description: 'from a file' }]));
    const created = await runCli(['api', `/zones/${zoneId(emu, 'weekend-hack.test')}/filters`, '--data', `@${join(dir, 'filter.json')}`], env);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)[0]).toMatchObject({ expression: 'ip.src eq 192.0.2.200', description: 'from a file' });
  });

  it('reports API errors in one line and exits 2', async () => {
    const r = await runCli(['api', '/zones/0123456789abcdef0123456789abcdef'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('zonewarden api: GET /zones/0123456789abcdef0123456789abcdef: HTTP 400, API error 1003 Invalid or missing zone id.');
    expect(r.stdout).toBe('');
  });

  it('exits 3 when a paginated list is incomplete, printing what it read', async () => {
    const broken = await emulatorFor({ dataset: caseDataset(), repeatPage: true });
    try {
      const r = await runCli(['api', '/zones?per_page=5', '--paginate'], { ...env, ZONEWARDEN_BASE_URL: broken.url });
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout)).toHaveLength(5);
      expect(r.stderr).toContain('warning: /zones?per_page=5: page 2 repeats items already read; the list is incomplete');
    } finally {
      await broken.close();
    }
  });

  it('takes the base URL from the config file, below the environment and flags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-api-config-'));
    writeFileSync(join(dir, 'zonewarden.config.json'), JSON.stringify({ baseUrl: emu.url, retries: 0 }));
    const r = await runCli(['api', '/user', '--config', join(dir, 'zonewarden.config.json')], { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(r.code).toBe(0);
    const overridden = await runCli(['api', '/user', '--config', join(dir, 'zonewarden.config.json'), '--base-url', 'http://127.0.0.1:1/client/v4'], {
      ZONEWARDEN_API_TOKEN: TOKEN,
    });
    expect(overridden.code).toBe(2);
    expect(overridden.stderr).toMatch(/connection failed \(ECONNREFUSED\)/);
  });

  it.each([
    [['api'], {}, /^zonewarden api: missing <path>; see 'zonewarden api --help'$/],
    [['api', 'zones'], {}, /^zonewarden api: the path must start with \/, e\.g\. \/zones \(got "zones"\)$/],
    [['api', '/zones', '--paginate', '-X', 'POST'], {}, /^zonewarden api: --paginate reads lists, so it works with GET only$/],
    [['api', '/zones', '-X', 'GET', '-d', '{}'], {}, /^zonewarden api: --data needs a method with a body/],
    [['api', '/zones', '-X', 'PUT', '-d', '{nope'], {}, /^zonewarden api: --data is not valid JSON/],
    [['api', '/zones', '-X', 'TRACE'], {}, /^zonewarden api: --method must be one of GET, POST, PUT, PATCH, DELETE, got "TRACE"$/],
    [['api', '/zones', '--budget', '0'], {}, /^zonewarden api: --budget must be a whole number from 1 to 1000000, got 0$/],
    [['api', '/zones', '--base-url', 'http://api.example.com/client/v4'], {}, /must use https/],
    [['api', '/zones', '--base-url', 'https://api.example.com/v4'], {}, /must end in \/client\/v4/],
    [['api', '/zones'], { ZONEWARDEN_API_TOKEN: '' }, /^zonewarden api: no API credentials: set ZONEWARDEN_API_TOKEN/],
    [['api', '/zones'], { ZONEWARDEN_API_TOKEN: '', ZONEWARDEN_API_EMAIL: 'a@example.com' }, /^zonewarden api: ZONEWARDEN_API_KEY is not set/],
  ])('refuses %j with one line and exit 2', async (args, extraEnv, message) => {
    const r = await runCli(args, { ...env, ...extraEnv });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('documents itself in --help', async () => {
    const r = await runCli(['api', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: zonewarden api <path> [options]');
    for (const flag of ['--paginate', '--method', '--data', '--base-url', '--budget', '--timeout', '--retries']) expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain('env ZONEWARDEN_BASE_URL');
  });
});
