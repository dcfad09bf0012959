import { createServer, request, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { caseDataset } from '../support/case-dataset.js';
import { runCli } from '../support/cli.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';

/**
 * `scan --zone NAME` against a zone list that is not what was asked for: a proxy in front of the
 * emulator drops the name filter (so the server's answer holds other zones) and serves the first
 * page again for the second (a list that stops early). The scan keeps only the zone of that exact
 * name, and a zone the truncated list may have held is missing (exit 3), never absent or clean.
 */

const emulator = emulatorsClosedAfterEach();
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function mangling(emu: RunningEmulator): Promise<string> {
  const target = new URL(emu.url);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname.endsWith('/zones') && url.searchParams.has('name')) {
      url.searchParams.delete('name');
      // spec: GET /zones takes per_page from 5; the list is now several pages long.
      url.searchParams.set('per_page', '5');
      if (url.searchParams.get('page') === '2') url.searchParams.set('page', '1');
    }
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`;
}

describe('scan --zone NAME against a zone list that is not filtered or not whole', () => {
  it('keeps only the zone of that exact name, and a zone beyond the truncated list is missing (exit 3)', async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const names = emu.org
      .visibleZones()
      .map((z) => z.name)
      .sort();
    expect(names.length).toBeGreaterThan(10);
    const base = await mangling(emu);
    const dir = mkdtempSync(join(tmpdir(), 'zw-scope-list-'));
    const db = join(dir, 'zonewarden.db');
    const args = ['scan', '--base-url', base, '--db', db, '--budget', '1000000', '--retries', '0'];

    const first = await runCli([...args, '--zone', names[0]!], { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(first.code, first.stderr).toBe(0);
    const last = await runCli([...args, '--zone', names.at(-1)!], { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(last.code, last.stderr).toBe(3);
    expect(last.stderr).toContain(`zone ${names.at(-1)}: zone (failed): the zone list for ${names.at(-1)}: list truncated (repeated-page)`);

    const handle = openSnapshot(db, { readonly: true });
    try {
      expect(new SnapshotReader(handle, 1).zones().map((z) => z.name)).toEqual([names[0]]);
      expect(new SnapshotReader(handle, 2).zones()).toEqual([]);
      expect(new SnapshotReader(handle, 2).scan.status).toBe('incomplete');
    } finally {
      handle.close();
    }
  });
});
