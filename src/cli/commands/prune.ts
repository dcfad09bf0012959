import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../common/errors.js';
import { pruneScansAndAudits } from '../../audit/retention.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom } from '../common.js';
import { openExisting } from './audit.js';

export const pruneCommand = defineCommand({
  name: 'prune',
  summary: 'delete old scans, keeping the newest N, the latest complete scan of each scope and every baseline',
  description: `
Deletes all but the newest --keep scans, and the stored versions only they used. The latest
complete scan of each scope (the whole organisation, and each --zone or --account filter scanned)
and every accepted baseline are always kept. While a scan is running, prune refuses (exit 2) and
deletes nothing: run it again when the scan has ended. A --db that does not exist is an error
(exit 2); no database is created.
With --vacuum the file is compacted afterwards so the space goes back to the disk.`,
  options: {
    keep: { type: 'integer', min: 1, help: 'how many of the newest scans to keep (required)' },
    vacuum: { type: 'boolean', help: 'compact the database file afterwards' },
    ...commonOptions('db', 'config', 'quiet'),
  },
  examples: ['zonewarden prune --keep 30', 'zonewarden prune --keep 7 --vacuum --db /var/lib/zonewarden/zonewarden.db'],
  async run(o, io) {
    const keep = o.keep;
    if (keep === undefined) throw new UsageError("prune: --keep N is required, e.g. --keep 30; see 'zonewarden prune --help'");
    const config = configFrom(o, io);
    const path = resolve(io.cwd, config.db);
    // A mistyped --db must not leave a new, empty database behind.
    return closing(openExisting(path), (db) => {
      const before = statSync(path).size;
      const result = pruneScansAndAudits(db, keep);
      if (o.vacuum) db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
      const after = statSync(path).size;
      if (!config.quiet) {
        const which = result.deletedScans.length ? `scans ${result.deletedScans.join(', ')}` : 'nothing';
        io.stdout(`deleted ${which} (${result.deletedRows} stored versions); kept ${result.keptScans.length} scans; database ${(before / 1e6).toFixed(1)} MB -> ${(after / 1e6).toFixed(1)} MB\n`);
      }
      return 0;
    });
  },
});
