import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CREDENTIAL_ENV } from '../../config/options.js';
import { loadConfig } from '../../config/load.js';
import { applyDemoChanges } from '../../emulator/datasets/demo-changes.js';
import { worldDnsServer } from '../../emulator/dns/shared.js';
import { DEFAULT_CREDENTIALS, startEmulator } from '../../emulator/server.js';
import { ZonewardenError } from '../../common/errors.js';
import { DEFAULT_REPORT_FORMATS } from '../../report/write-report.js';
import { defineCommand } from '../command.js';
import { nightlyRun, nightlySettings } from '../../jobs/nightly.js';

export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'try zonewarden offline: the embedded emulator with the demo organisation, scanned, audited and reported',
  description: `
Starts the API emulator in this process on a free loopback port with the demo organisation
(Tailspin Toys, a fictional retailer: 15 zones in four accounts, and a fifth account behind a
pending invite, as an organisation looks in late 2026: most zones on the new managed rules, two
still on the previous WAF), then runs the nightly job against it (zonewarden run) and prints
where the reports are. Needs no token and no network; your credentials, config file and database
are not used. The demo's database is <out>/zonewarden-demo.db, so running the demo again shows
drift since the last time.

The demo organisation's times are fixed to the first run's (kept in <out>/zonewarden-demo.epoch),
so a later run does not see every timestamp move. The second run changes a few things on purpose
(a certificate renewed, a DNS record edited, a firewall rule paused) to show what drift looks
like; later runs find the organisation as the second did, and show no drift.`,
  options: {
    out: { type: 'string', default: 'zonewarden-demo', value: 'DIR', help: 'where the reports and the demo database go' },
    quiet: { type: 'boolean', help: 'print only the report paths' },
  },
  examples: ['zonewarden demo', 'zonewarden demo --out /tmp/zonewarden-demo'],
  async run(o, io) {
    const out = resolve(io.cwd, o.out);
    mkdirSync(out, { recursive: true });
    const epoch = demoEpoch(out);
    const emulator = await startEmulator({ dataset: 'demo', now: epoch ?? new Date(), rateLimit: 0, ipRateLimit: 0 });
    try {
      if (!o.quiet) io.stderr(`demo: the emulator serves the demo organisation at ${emulator.url}\n`);
      if (epoch === null) writeFileSync(join(out, EPOCH_FILE), `${emulator.org.clock.start.toISOString()}\n`);
      else {
        const changes = applyDemoChanges(emulator.org);
        if (!o.quiet) io.stderr(`demo: since the first run, the demo organisation changed on purpose:\n${changes.map((c) => `  - ${c.zone}: ${c.what}\n`).join('')}`);
      }
      // The emulator's own token only: a real one from the environment must never be sent anywhere by the demo.
      const env: NodeJS.ProcessEnv = { ...io.env, [CREDENTIAL_ENV.token]: DEFAULT_CREDENTIALS.token };
      delete env[CREDENTIAL_ENV.email];
      delete env[CREDENTIAL_ENV.key];
      // The names the demo's records point at are resolved by the emulator's outside world on loopback, never the internet.
      const dns = await worldDnsServer();
      const loaded = loadConfig({ flags: { baseUrl: emulator.url, db: join(out, 'zonewarden-demo.db'), budget: 1_000_000, quiet: o.quiet, resolver: dns.address }, env: {}, cwd: out });
      const config = { ...loaded, rules: DEMO_RULE_SETTINGS };
      const demoIo = { ...io, env, cwd: out };
      const { report, error } = await nightlyRun(config, demoIo, nightlySettings(config, demoIo, { out, formats: DEFAULT_REPORT_FORMATS }), 'manual');
      if (error !== null) throw error;
      if (!o.quiet) io.stderr(`demo: done. Open ${report.reportFiles[0]} in a browser; ${join(out, 'index.html')} lists every run.\n`);
      return report.exitCode;
    } finally {
      await emulator.close();
    }
  },
});

/**
 * The demo organisation's own rule settings. Its public addresses are in the documentation ranges (RFC 5737,
 * RFC 3849), as examples must be: those stand-ins dns-private-address leaves alone; another documentation address,
 * such as one of RFC 9637's IPv6 prefix, is still reported (the tests' organisation, audited with these too, has one).
 */
export const DEMO_RULE_SETTINGS = Object.freeze({
  'dns-private-address': { options: { standIns: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'] } },
});

const EPOCH_FILE = 'zonewarden-demo.epoch';

/** The first demo run's start in this directory, or null before the first. */
function demoEpoch(out: string): Date | null {
  const path = join(out, EPOCH_FILE);
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8').trim();
  const epoch = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(epoch.getTime())) {
    throw new ZonewardenError('ZW_DEMO_EPOCH', `${path} does not hold a time (${JSON.stringify(text.slice(0, 40))}): delete it, or the whole demo directory, to start the demo afresh`);
  }
  return epoch;
}
