import { resolve } from 'node:path';
import { acceptBaseline, listBaselines } from '../../drift/index.js';
import { UsageError } from '../../common/errors.js';
import { printable } from '../../common/printable.js';
import { defineCommand } from '../command.js';
import { closing, commonOptions, configFrom, configScope } from '../common.js';
import { openExisting } from './audit.js';
import { scanForView } from '../../snapshot/scan-choice.js';

export const baselineCommand = defineCommand({
  name: 'baseline',
  summary: 'accept a scan as the approved state that diff --baseline compares with, or list those accepted',
  description: `
"baseline accept" marks a complete scan (default: the latest) as the accepted baseline; zonewarden
diff --baseline then shows what changed since. Accepting again keeps the earlier baselines: "baseline
list" shows them all, newest first, and the newest is the one in use. zonewarden prune never
deletes a baseline's scan.`,
  args: [{ name: 'action', help: 'accept or list' }],
  options: {
    scan: { type: 'integer', min: 1, value: 'ID', help: 'accept: the scan to accept (default: the latest complete scan of the scope)' },
    note: { type: 'string', value: 'TEXT', help: 'accept: why this state is approved, kept with it' },
    format: { type: 'string', default: 'text', choices: ['text', 'json'], help: 'list: lines, or JSON' },
    ...commonOptions('account', 'zone', 'db', 'config'),
  },
  examples: ['zonewarden baseline accept --note "after the Q4 firewall review"', 'zonewarden baseline accept --scan 12', 'zonewarden baseline list'],
  async run(o, io, args) {
    const action = args[0];
    if (action !== 'accept' && action !== 'list') throw new UsageError(`unknown action "${(action ?? '').slice(0, 40)}": use baseline accept [--scan ID] or baseline list`);
    const config = configFrom(o, io);
    const path = resolve(io.cwd, config.db);
    return closing(openExisting(path, { readonly: action === 'list' }), (db) => {
      if (action === 'list') {
        const rows = listBaselines(db);
        if (o.format === 'json') io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
        else if (rows.length === 0) io.stdout('no baseline accepted yet: zonewarden baseline accept\n');
        else rows.forEach((b, i) => io.stdout(`${printable(`baseline ${b.id}: scan ${b.scanId}, accepted ${b.acceptedAt}${b.note ? `: ${b.note}` : ''}${i === 0 ? ' (in use)' : ''}`)}\n`));
        return 0;
      }
      const scanId = scanForView(db, path, o.scan, configScope(config));
      const baseline = acceptBaseline(db, scanId, o.note ?? null);
      io.stdout(`baseline ${baseline.id}: scan ${baseline.scanId} accepted at ${baseline.acceptedAt}\n`);
      return 0;
    });
  },
});
