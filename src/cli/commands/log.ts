import { listActions } from '../../actions/log.js';
import { printable } from '../../common/printable.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom } from '../common.js';
import { openExisting } from './audit.js';
import { resolve } from 'node:path';

export const logCommand = defineCommand({
  name: 'log',
  summary: 'show the audit log of the write commands: what was changed, where, when, and how it ended',
  description: `
Every write the write commands make (invites accept, firewall create, migrate apply) is recorded in
the database whatever its outcome, with the API's error codes. This prints the newest first.`,
  options: {
    limit: { type: 'integer', default: 50, min: 1, max: 100_000, value: 'N', help: 'how many entries' },
    format: { type: 'string', default: 'text', choices: ['text', 'json'], help: 'output: lines, or JSON' },
    ...commonOptions('db', 'config'),
  },
  examples: ['zonewarden log', 'zonewarden log --limit 500 --format json'],
  async run(o, io) {
    const config = configFrom(o, io);
    return closing(openExisting(resolve(io.cwd, config.db), { readonly: true }), (db) => {
      const rows = listActions(db, o.limit);
      if (o.format === 'json') {
        io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
        return 0;
      }
      if (rows.length === 0) io.stdout('no writes recorded\n');
      for (const r of rows) {
        const target = `${r.target.type} ${r.target.id ?? '(none)'}${r.target.name ? ` "${r.target.name}"` : ''}`;
        const codes = r.apiCodes.length ? ` codes ${r.apiCodes.join(',')}` : '';
        const failure = r.outcome === 'failed' ? ` HTTP ${r.httpStatus ?? '-'}${codes}: ${r.message ?? ''}` : '';
        io.stdout(`${printable(`${r.at}  ${r.outcome.padEnd(6)}  ${r.command}: ${r.action} ${target}${r.zone ? ` on ${r.zone.name}` : ''}${failure}`)}\n`);
      }
      return 0;
    });
  },
});
