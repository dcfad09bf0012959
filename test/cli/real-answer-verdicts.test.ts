import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';
import { runInProcess } from '../support/in-process.js';

/**
 * Answers the live API gives, replayed through scan and audit as a user runs them: the verdicts
 * the rules reach on them. The shapes follow answers captured from the live API (SDK test data and
 * public bug reports), written here as the emulator's dataset.
 */

const emulator = emulatorsClosedAfterEach();

interface Finding {
  rule: string;
  status: string;
  severity: string;
  messageId: string | null;
  message: string;
  zone: { name: string } | null;
  resource: { type: string };
}

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Replayed',
      zones: [
        {
          // The live API answers a CAA record with `data {flags, tag, value}` and no `content`.
          name: 'caa-data.example',
          plan: 'pro',
          dns_records: [
            { type: 'A', name: '@', content: '192.0.2.7', proxied: true },
            { type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'digicert.com' } },
          ],
          certificate_packs: [{ type: 'universal', hosts: ['caa-data.example', '*.caa-data.example'], certificate_authority: 'lets_encrypt' }],
        },
        {
          // A pack still initializing is listed without `created_on` and without certificates.
          name: 'initializing.example',
          plan: 'pro',
          certificate_packs: [{ type: 'advanced', hosts: ['initializing.example'], status: 'initializing', created_on: null, certificates: [] }],
        },
        {
          // An uploaded certificate five days from expiry, whose hosts the universal certificate also covers.
          name: 'custom.example',
          plan: 'business',
          dns_records: [{ type: 'A', name: '@', content: '192.0.2.8', proxied: true }],
          certificate_packs: [
            { type: 'universal', hosts: ['custom.example', '*.custom.example'], created_on: 'now-20d' },
            {
              type: 'sni_custom',
              hosts: ['custom.example'],
              created_on: 'now-360d',
              certificate_authority: 'digicert',
              certificates: [{ hosts: ['custom.example'], issuer: 'DigiCert Inc', uploaded_on: 'now-360d', expires_on: 'now+5d' }],
            },
          ],
        },
      ],
    },
  ],
};

async function audit(): Promise<Finding[]> {
  // Dataset times relative to the wall clock: the scan's time is the wall clock's, and the verdicts
  // about expiry and grace periods compare the two.
  const emu = await emulator({ dataset, now: new Date() });
  const cwd = mkdtempSync(join(tmpdir(), 'zw-replay-'));
  const env = { ZONEWARDEN_API_TOKEN: TOKEN };
  const common = ['--base-url', emu.url, '--budget', '1000000', '--retries', '0'];
  const scan = await runInProcess(['scan', ...common, '--quiet'], env, cwd);
  expect(scan.code, scan.stderr).toBe(0);
  const r = await runInProcess(['audit', '--format', 'json', '--passes', '--quiet', '--fail-on', 'none'], env, cwd);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}

describe('real answers, replayed through scan and audit', () => {
  it('judges each as the vendor documents it', async () => {
    const findings = await audit();
    const of = (rule: string, zone: string) => findings.filter((f) => f.rule === rule && f.zone?.name === zone);

    // The CAA record came without content: it is read as a CAA record, so the zone is not said to
    // have none; it leaves out the universal pack's CA, which the vendor adds itself (vendor docs:
    // CAA records, "Cloudflare adds CAA records for the CAs it uses"): the pack renews, so it passes
    // with a note that --passes lists, and nothing fails.
    const caa = of('caa-missing', 'caa-data.example');
    expect(caa.map((f) => [f.status, f.resource.type, f.messageId]).sort()).toEqual([
      ['pass', 'certificate_pack', 'managedNotNamed'],
      ['pass', 'zone', null],
    ]);
    expect(caa.find((f) => f.messageId)?.message).toContain('the pack still renews');

    // Without created_on the pack is dated from the scan that first saw it: within the grace period
    // on the first scan, a pass rather than "unknown" for ever.
    expect(of('certificate-pack-unhealthy', 'initializing.example').map((f) => f.status)).toEqual(['pass']);

    // vendor docs: certificate and hostname priority: when the custom certificate expires, the
    // universal certificate serves its hosts; reported all the same, lower, naming the successor.
    const expiring = of('certificate-expiry', 'custom.example').filter((f) => f.status === 'fail');
    expect(expiring).toEqual([expect.objectContaining({ messageId: 'expiringFallback', severity: 'medium' })]);
    expect(expiring[0]!.message).toMatch(/universal/);
  });
});
