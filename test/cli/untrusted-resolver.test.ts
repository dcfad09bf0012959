/**
 * The demo organisation scanned as a newcomer would on a locked-down machine: a resolver that
 * answers NXDOMAIN (no such name) for every name. Without a check, each CNAME, MX, NS and SRV
 * target becomes a dangling one (13 on the demo); checked against the name servers the API assigned
 * to the zones, the resolver is not believed, and every target is unknown, said once.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { dnsServersClosedAfterEach, type TableDnsServer } from '../support/dns-server.js';
import { TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

interface AuditJson {
  findings: Array<{ rule: string; status: string; message: string; zone?: { name: string } | null }>;
}

const dnsServer = dnsServersClosedAfterEach();
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ dataset: 'demo', rateLimit: 0, ipRateLimit: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

/** `zonewarden run` of the demo organisation with this resolver: its stderr, findings.json and report.md. */
async function runWith(resolver: TableDnsServer | null, dir = mkdtempSync(join(tmpdir(), 'zw-resolver-')), scan = 1) {
  const args = ['run', '--base-url', emulator.url, '--db', join(dir, 'zonewarden.db'), '--budget', '1000000', '--out', join(dir, 'reports'), '--format', 'json,md,html'];
  // Without a resolver of the test's, the emulators' loopback world answers (test/support/in-process.ts).
  const r = await runInProcess(resolver ? [...args, '--resolver', resolver.address] : args, { ZONEWARDEN_API_TOKEN: TOKEN }, dir);
  const runDir = join(dir, 'reports', readdirSync(join(dir, 'reports')).find((d) => d.endsWith(`-scan-${scan}`))!);
  const findings = (JSON.parse(readFileSync(join(runDir, 'findings.json'), 'utf8')) as AuditJson).findings.filter((f) => f.rule === 'dns-dangling-target');
  return { ...r, findings, md: readFileSync(join(runDir, 'report.md'), 'utf8'), html: readFileSync(join(runDir, 'report.html'), 'utf8') };
}

describe('a resolver that denies every name', () => {
  it('judges no target dangling: each is unknown, and the summary and the scan health say why once', async () => {
    const deny = await dnsServer({});
    const r = await runWith(deny);
    expect(r.findings.filter((f) => f.status === 'fail')).toEqual([]);
    const unknown = r.findings.filter((f) => f.status === 'unknown');
    expect(unknown.length).toBeGreaterThan(0);
    for (const f of unknown) expect(f.message).toMatch(/could not be resolved: the resolver answered NXDOMAIN for names known to exist/);
    // The demo's name servers, asked once for the scan; no target asked.
    expect([...new Set(deny.questions)].sort()).toEqual(['lara.ns.dnshost.example', 'otto.ns.dnshost.example']);
    const said = r.stderr.split('\n').filter((l) => l.startsWith('DNS targets not judged'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`the resolver (${deny.address}) answered NXDOMAIN (no such name) for lara.ns.dnshost.example, otto.ns.dnshost.example`);
    expect(said[0]).toContain('pass --resolver with a resolver that answers for public names');
    for (const report of [r.md, r.html]) expect(report.match(/DNS targets not judged/g)).toHaveLength(1);
    expect(r.md).toMatch(/### Scan health[\s\S]*DNS targets not judged[\s\S]*answered NXDOMAIN \(no such name\) for lara\.ns\.dnshost\.example/);
  });

  it('after a night whose resolver was believed: its dangling verdict is not kept, and comes back with a good resolver', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-resolver-nights-'));
    const failing = (r: Awaited<ReturnType<typeof runWith>>) => r.findings.filter((f) => f.status === 'fail').map((f) => f.zone?.name);
    expect(failing(await runWith(null, dir, 1))).toEqual(['tailspintoys-status.example']);
    const locked = await runWith(await dnsServer({}), dir, 2);
    expect(failing(locked)).toEqual([]);
    expect(locked.findings.find((f) => f.zone?.name === 'tailspintoys-status.example')?.status).toBe('unknown');
    expect(failing(await runWith(null, dir, 3))).toEqual(['tailspintoys-status.example']);
  });

  it('while a resolver that answers for the public names finds the demo\'s one dangling target, and says nothing of the resolver', async () => {
    const r = await runWith(null);
    expect(r.findings.filter((f) => f.status === 'fail').map((f) => f.zone?.name)).toEqual(['tailspintoys-status.example']);
    expect(r.stderr).not.toContain('DNS targets not judged');
    expect(r.md).not.toContain('DNS targets not judged');
  });
});
