import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CREDENTIAL_ENV } from '../../config/options.js';
import { loadConfig } from '../../config/load.js';
import { DEFAULT_CREDENTIALS, startEmulator } from '../../emulator/server.js';
import { DEFAULT_REPORT_FORMATS } from '../../report/write-report.js';
import { defineCommand } from '../command.js';
import { nightlyRun, nightlySettings } from '../nightly.js';

export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'try zonewarden offline: the embedded emulator with the demo organisation, scanned, audited and reported',
  description: `
Starts the API emulator in this process on a free loopback port with the demo organisation (four
accounts, fourteen zones, every rule failing and passing somewhere, hostile strings throughout),
then runs the nightly job against it (zonewarden run) and prints where the reports are. Needs no
token and no network; your credentials, config file and database are not used. The demo's
database is <out>/zonewarden-demo.db, so running the demo again shows drift since the last time.`,
  options: {
    out: { type: 'string', default: 'zonewarden-demo', value: 'DIR', help: 'where the reports and the demo database go' },
    quiet: { type: 'boolean', help: 'print only the report paths' },
  },
  examples: ['zonewarden demo', 'zonewarden demo --out /tmp/zonewarden-demo'],
  async run(o, io) {
    const out = resolve(io.cwd, o.out);
    mkdirSync(out, { recursive: true });
    const emulator = await startEmulator({ dataset: 'demo', rateLimit: 0, ipRateLimit: 0 });
    try {
      if (!o.quiet) io.stderr(`demo: the emulator serves the demo organisation at ${emulator.url}\n`);
      // The emulator's own token only: a real one from the environment must never be sent anywhere by the demo.
      const env: NodeJS.ProcessEnv = { ...io.env, [CREDENTIAL_ENV.token]: DEFAULT_CREDENTIALS.token };
      delete env[CREDENTIAL_ENV.email];
      delete env[CREDENTIAL_ENV.key];
      const config = loadConfig({ flags: { baseUrl: emulator.url, db: join(out, 'zonewarden-demo.db'), budget: 1_000_000, quiet: o.quiet }, env: {}, cwd: out });
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
