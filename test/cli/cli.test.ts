import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDataset } from '../../src/emulator/datasets/demo.js';
import { buildOrganisation } from '../../src/emulator/datasets/index.js';
import { exited, runCli, startCli } from '../support/cli.js';

/** The CLI contract: help, one-line errors with exit 2, and the emulator as a process. */
describe('zonewarden CLI', () => {
  it('prints the command list with --help and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^zonewarden \d+\.\d+\.\d+: /);
    expect(r.stdout).toMatch(/^ {2}emulator {4}/m);
    expect(r.stdout).toMatch(/^ {2}api {9}/m);
    expect(r.stdout).toContain('Exit codes: 0');
  });

  it('prints the help on stderr and exits 2 without a command', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: zonewarden <command>');
  });

  it('prints the version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each([
    [['frobnicate'], /^zonewarden: unknown command "frobnicate"; commands: demo, run, schedule, status, metrics, scan, scans, audit, report, diff, baseline, rules, invites, firewall, migrate, log, prune, api, emulator/],
    [['emulator', '--bogus'], /^zonewarden emulator: unknown option --bogus; see 'zonewarden emulator --help'$/],
    [['emulator', '--port', 'eighty'], /^zonewarden emulator: --port must be a whole number, got "eighty"$/],
    [['emulator', '--port', '70000'], /^zonewarden emulator: --port must be a whole number from 0 to 65535, got 70000$/],
    [['emulator', '--fault-rate', '2'], /--fault-rate must be a number from 0 to 1, got 2$/],
    [['emulator', '--ratelimit-headers', 'new'], /--ratelimit-headers must be one of modern, legacy, both, none, got "new"$/],
    [['emulator', '--port'], /^zonewarden emulator: option --port needs a value/],
    [['emulator', 'extra'], /^zonewarden emulator: unexpected argument extra/],
    [['emulator', '--now', 'tuesday'], /^zonewarden emulator: --now must be an ISO 8601 time/],
    [['emulator', '--account-token', 'tok-without-account'], /^zonewarden emulator: --account-token number 1 must be ACCOUNT=TOKEN \(an account id, "=", then the token\)/],
    [['emulator', '--account-token', 'ffffffffffffffffffffffffffffffff=tok-x'], /^zonewarden emulator: --account-token number 1: no account ffffffffffffffffffffffffffffffff in the dataset$/],
    [['emulator', '--dataset', '/nonexistent/org.json'], /^zonewarden emulator: cannot read dataset file \/nonexistent\/org\.json \(ENOENT\)/],
    [['diff', '--format', 'html'], /^zonewarden diff: --format must be one of text, json, md, got "html"$/],
    [['diff', '--from', '0'], /^zonewarden diff: --from must be a whole number of at least 1, got 0$/],
    [['report', '--format', 'pdf'], /^zonewarden report: --format takes a comma-separated list of html, md, json, csv, ocsf, junit; got "pdf"$/],
    [['report', '--templates', '/nonexistent/templates'], /^zonewarden report: --templates \/nonexistent\/templates: no such directory$/],
    [['baseline', 'approve'], /^zonewarden baseline: unknown action "approve": use baseline accept \[--scan ID\] or baseline list$/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

    // issue 32 item 7 ("did you mean"): a name one edit from a known one suggests it; an unrelated name gets no guess.
  it('suggests the command or option a one-letter typo was meant to be, and nothing for an unrelated word', async () => {
    const command = await runCli(['scna']);
    expect(command.code).toBe(2);
    expect(command.stderr.trim()).toMatch(/^zonewarden: unknown command "scna"; commands: demo, .* \(see zonewarden --help\) \(did you mean "scan"\?\)$/);
    expect((await runCli(['frobnicate'])).stderr).not.toContain('did you mean');
    const option = await runCli(['scan', '--budgt', '5']);
    expect(option.code).toBe(2);
    expect(option.stderr.trim()).toBe(`zonewarden scan: unknown option --budgt; see 'zonewarden scan --help' (did you mean "--budget"?)`);
    expect((await runCli(['scan', '--colour'])).stderr).not.toContain('did you mean');
  });

  it('names the bad field of a dataset file in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-cli-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ version: 1, accounts: [{ name: 'A', zones: [{ name: 'a.example', plan: 'platinum' }] }] }));
    const r = await runCli(['emulator', '--dataset', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('zonewarden emulator: accounts[0].zones[0].plan: expected one of free, pro, business, enterprise');
  });

  it('shows every emulator option in emulator --help', async () => {
    const r = await runCli(['emulator', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--port', '--dataset', '--seed', '--accounts', '--zones', '--records', '--now', '--token', '--email', '--key', '--latency', '--rate-limit', '--fault-rate', '--timeout-per-page', '--repeat-page', '--fail-route', '--lose-answer-route', '--api-era']) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('runs the emulator: first line is the base URL, it serves the API, and SIGTERM stops it with exit 0', async () => {
    const { child, firstLine, output } = await startCli(['emulator', '--port', '0', '--token', 'cli-test-token', '--verbose']);
    try {
      expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
      const base = firstLine.replace('listening on ', '');
      const ok = await fetch(`${base}/zones?per_page=5`, { headers: { authorization: 'Bearer cli-test-token' } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { result_info: { total_count: number } }).result_info.total_count).toBeGreaterThanOrEqual(10);
      const denied = await fetch(`${base}/zones`, { headers: { authorization: 'Bearer emulator-token' } });
      expect(denied.status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited(child)).toBe(0);
    const { stdout, stderr } = output();
    // Every account and zone of the demo dataset, the one behind a pending invite included.
    const demo = demoDataset();
    const records = demo.accounts.flatMap((a) => a.zones ?? []).reduce((n, z) => n + (z.dns_records?.length ?? 0), 0);
    expect(stdout).toContain(`dataset demo: ${demo.accounts.length} accounts, ${demo.accounts.flatMap((a) => a.zones ?? []).length} zones, ${records} DNS records`);
    expect(stderr).toMatch(/^GET \/client\/v4\/zones 200 \d+ms$/m);
    expect(stderr).not.toContain('cli-test-token');
    expect(stderr).toContain('emulator stopped (SIGTERM)');
  });

  it('accepts an account-owned token per --account-token, reading its account alone', async () => {
    // Ids are derived from names by the loader, the same at any clock.
    const owner = buildOrganisation('demo', new Date()).accounts[0]!;
    const { child, firstLine } = await startCli(['emulator', '--port', '0', '--account-token', `${owner.id}=cli-owned-token`]);
    try {
      const base = firstLine.replace('listening on ', '');
      const get = (path: string, token: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      // vendor docs: API tokens: an account-owned token acts on its own account only
      const zones = (await (await get('/zones?per_page=50', 'cli-owned-token')).json()) as { result: Array<{ account: { id: string } }> };
      expect(zones.result.length).toBe(buildOrganisation('demo', new Date()).zones.filter((z) => z.accountId === owner.id).length);
      expect(zones.result.every((z) => z.account.id === owner.id)).toBe(true);
      // vendor answer: an account-owned token cannot list accounts (GET /accounts: 400 code 1001)
      const accounts = await get('/accounts', 'cli-owned-token');
      expect(accounts.status).toBe(400);
      expect(((await accounts.json()) as { errors: Array<{ code: number }> }).errors[0]!.code).toBe(1001);
      // vendor docs: rate limits: each account-owned token has a budget of its own, counted apart from the user's
      const stats = (await (await fetch(`${base.replace(/\/client\/v4$/, '')}/__emulator/stats`)).json()) as { byCredential: Record<string, { requests: number }> };
      expect(stats.byCredential[`account-token:${owner.id}`]!.requests).toBe(2);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited(child)).toBe(0);
  });

  it('refuses a port in use with one line', async () => {
    const { child, firstLine } = await startCli(['emulator', '--port', '0']);
    try {
      const port = firstLine.match(/:(\d+)\//)![1]!;
      const r = await runCli(['emulator', '--port', port]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`zonewarden emulator: port ${port} is in use; pick another with --port, or --port 0 for a free one`);
    } finally {
      child.kill('SIGINT');
      await exited(child);
    }
  });
});
