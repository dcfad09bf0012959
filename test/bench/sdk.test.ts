import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSdkScript } from '../../bench/sdk/run-sdk.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runCli } from '../support/cli.js';
import { TOKEN } from '../support/http.js';

/** The kinds the benchmark compares, as `zonewarden scan --format json` names them in `counts`. */
const COMPARED = ['accounts', 'zones', 'dns_records', 'certificate_packs', 'firewall_rules', 'filters'] as const;

describe('the SDK scripts of the benchmark', () => {
  let emu: RunningEmulator;
  let counts: Record<string, number>;

  beforeAll(async () => {
    emu = await startEmulator({ dataset: 'demo', now: new Date(), rateLimit: 0, ipRateLimit: 0 });
    const db = join(mkdtempSync(join(tmpdir(), 'zw-sdk-bench-')), 'zonewarden.db');
    const scan = await runCli(['scan', '--base-url', emu.url, '--db', db, '--budget', '1000000', '--format', 'json', '--quiet'], { ZONEWARDEN_API_TOKEN: TOKEN });
    expect(scan.code, scan.stderr).toBe(0);
    counts = (JSON.parse(scan.stdout) as { counts: Record<string, number> }).counts;
  });
  afterAll(async () => {
    await emu?.close();
  });

  for (const kind of ['plain', 'tuned'] as const) {
    it(`${kind}: reads what zonewarden reads, and counts every request the emulator answered`, async () => {
      emu.resetStats();
      const r = await runSdkScript(kind, emu.url, { timeoutMs: 20_000 });
      expect(r.failure).toBeNull();
      expect(r.completed).toBe(true);
      for (const k of COMPARED) expect(r.items[k], k).toBe(counts[k]);
      expect(r.requests).toBe(emu.stats().requests.total);
      expect(r.rateLimited).toBe(0);
      expect(r.errors).toBe(0);
      expect(r.peakRssMiB).toBeGreaterThan(0);
    });
  }
});
