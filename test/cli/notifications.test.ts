import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { allFilesText } from '../support/files.js';
import { TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * `zonewarden run` with webhooks in the config file, against local receivers: what they get, what
 * they never get (credentials), and that a failing webhook never fails the run.
 */

const JSON_PATH = '/hooks/T000/B000/jsonS3cretPath';
const SLACK_PATH = '/services/T111/B111/slackS3cretPath';
const KEY_ENV = { ZONEWARDEN_API_EMAIL: 'owner@example.com', ZONEWARDEN_API_KEY: 'global-key-0123456789abcdef' };

let receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});
async function receiver(status = 200): Promise<Receiver> {
  const r = await startReceiver((res) => void res.writeHead(status).end());
  receivers.push(r);
  return r;
}

function project(notifications: unknown): string {
  const cwd = mkdtempSync(join(tmpdir(), 'zw-notify-'));
  writeFileSync(join(cwd, 'zonewarden.config.json'), JSON.stringify({ notifications }));
  return cwd;
}


// One emulator for the file: the demo organisation is only read.
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
});
afterAll(async () => {
  await emu?.close();
});
const run = (cwd: string, env: NodeJS.ProcessEnv = {}, ...args: string[]) =>
  runInProcess(['run', '--base-url', emu.url, '--budget', '1000000', '--quiet', ...args], { ZONEWARDEN_API_TOKEN: TOKEN, ...env }, cwd);

describe('notifications after zonewarden run', () => {

  it('sends new failures to a JSON and a Slack webhook, with no credentials and no webhook secret anywhere', async () => {
    const hooks = await receiver();
    const cwd = project({ minSeverity: 'high', webhooks: [{ url: `${hooks.origin}${JSON_PATH}`, format: 'json' }, { urlEnv: 'ZW_SLACK_WEBHOOK', format: 'slack', minSeverity: 'critical' }] });
    const env = { ZW_SLACK_WEBHOOK: `${hooks.origin}${SLACK_PATH}` };
    const r = await run(cwd, env);
    expect(r.code, r.stderr).toBe(0);

    const byPath = (path: string) => hooks.received.filter((q) => q.url === path);
    expect(byPath(JSON_PATH)).toHaveLength(1);
    expect(byPath(SLACK_PATH)).toHaveLength(1);
    const json = JSON.parse(byPath(JSON_PATH)[0]!.body) as Record<string, any>;
    expect(json).toMatchObject({ schema: 'zonewarden.notification/1', event: 'new-findings', run: { trigger: 'manual', outcome: 'ok' }, newFindings: { threshold: 'high', comparedWithScan: null } });
    expect(json['newFindings'].total).toBeGreaterThan(0);
    expect(json['newFindings'].total).toBe(json['newFindings'].bySeverity.critical + json['newFindings'].bySeverity.high);
    expect(json['newFindings'].findings.every((f: { severity: string }) => f.severity === 'critical' || f.severity === 'high')).toBe(true);
    const slack = JSON.parse(byPath(SLACK_PATH)[0]!.body) as { text: string };
    expect(slack.text).toMatch(/^zonewarden: \d+ new failing findings? at or above critical in scan 1/);
    expect(byPath(JSON_PATH)[0]!.headers['content-type']).toBe('application/json');

    for (const q of hooks.received) {
      expect(q.body).not.toContain(TOKEN);
      expect(q.body).not.toContain('S3cretPath');
    }
    expect(r.stdout + r.stderr).not.toContain('S3cretPath');
    const written = allFilesText(cwd, (name) => name === 'zonewarden.config.json');
    expect(written).not.toContain('S3cretPath');
    expect(written).not.toContain(TOKEN);
    const db = openSnapshot(join(cwd, 'zonewarden.db'));
    try {
      const targets = db.prepare('SELECT target, event, ok FROM notifications ORDER BY id').all();
      expect(targets).toEqual([
        { target: `webhooks[0] ${hooks.origin}/…`, event: 'new-findings', ok: 1 },
        { target: `webhooks[1] ${hooks.origin}/…`, event: 'new-findings', ok: 1 },
      ]);
    } finally {
      db.close();
    }

    // Nothing new the second night: no notice.
    const again = await run(cwd, env);
    expect(again.code, again.stderr).toBe(0);
    expect(hooks.received).toHaveLength(2);
  });

  it('reports a failed run, and never sends the credentials that failed', async () => {
    const hooks = await receiver();
    const cwd = project({ webhooks: [{ url: `${hooks.origin}${JSON_PATH}` }] });
    const r = await runInProcess(['run', '--base-url', emu.url, '--quiet'], KEY_ENV, cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zonewarden run: /);
    const failed = hooks.received.map((q) => JSON.parse(q.body) as Record<string, any>).find((b) => b['event'] === 'failed');
    expect(failed).toMatchObject({ run: { outcome: 'failed', exitCode: 2, error: expect.any(String) } });
    for (const q of hooks.received) for (const secret of Object.values(KEY_ENV)) expect(q.body).not.toContain(secret);
  });

  it('keeps the run going when a webhook fails: a warning, the run exit code, the failure logged', async () => {
    const broken = await receiver(503);
    const working = await receiver();
    const cwd = project({ retries: 1, webhooks: [{ url: `${broken.origin}${JSON_PATH}` }, { url: `${working.origin}${JSON_PATH}`, format: 'slack' }] });
    const r = await run(cwd, {}, '--fail-on', 'critical');
    expect(r.code, 'the audit decides the exit code').toBe(1);
    expect(r.stderr).toContain(`warning: notification new-findings failed: webhooks[0] ${broken.origin}/…: HTTP 503 (2 attempts)\n`);
    expect(broken.received).toHaveLength(2);
    expect(working.received).toHaveLength(1);
    expect(existsSync(join(cwd, 'reports'))).toBe(true);
  });

  it('refuses a webhook URL it would send findings over in the clear, before scanning', async () => {
    const cwd = project({ webhooks: [{ url: 'http://hooks.example.com/x' }] });
    const r = await run(cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zonewarden run: config file .*: notifications\.webhooks\[0\]\.url: .*https/);
    expect(existsSync(join(cwd, 'zonewarden.db'))).toBe(false);
  });
});

describe('retention after zonewarden run (--keep)', () => {
  it('deletes the older scans and only their report directories, and rewrites the index without them', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'zw-keep-'));
    for (let i = 0; i < 2; i++) expect((await run(cwd)).code).toBe(0);
    writeFileSync(join(cwd, 'reports', 'notes.txt'), 'the team keeps this here');
    const r = await run(cwd, {}, '--keep', '2');
    expect(r.code, r.stderr).toBe(0);
    const dirs = readdirSync(join(cwd, 'reports')).sort();
    expect(dirs.filter((d) => /-scan-\d+$/.test(d)).map((d) => d.replace(/.*-scan-/, ''))).toEqual(['2', '3']);
    expect(dirs).toContain('notes.txt');
    const index = readFileSync(join(cwd, 'reports', 'index.html'), 'utf8');
    expect(index).not.toMatch(/-scan-1\//);
    expect(index).toMatch(/-scan-3\//);
    const db = openSnapshot(join(cwd, 'zonewarden.db'));
    try {
      expect(db.prepare('SELECT id FROM scans ORDER BY id').all()).toEqual([{ id: 2 }, { id: 3 }]);
      const last = db.prepare('SELECT summary FROM runs ORDER BY id DESC LIMIT 1').get() as { summary: string };
      expect(JSON.parse(last.summary).deletedScans).toEqual([1]);
    } finally {
      db.close();
    }
  });
});
