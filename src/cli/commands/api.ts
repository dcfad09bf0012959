import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { endpointForPath } from '../../api/endpoints.js';
import { EXIT, UsageError } from '../../common/errors.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom, loggerFor } from '../common.js';
import { clientFor } from '../../jobs/clients.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const apiCommand = defineCommand({
  name: 'api',
  summary: 'call the API through zonewarden\'s client and print the result JSON (like gh api)',
  description: `
Makes one API call (or, with --paginate, reads every page of a list) through the same client the
scanner uses: credentials from the environment, the shared rate budget, retries and the
pagination guards. Prints the envelope's "result" as JSON on stdout; errors are one line on stderr.
The path is relative to the base URL, with or without a query: /zones?status=active.`,
  args: [{ name: 'path', help: 'API path under the base URL, e.g. /zones or /zones/ID/dns_records' }],
  options: {
    method: { type: 'string', short: 'X', choices: METHODS, value: 'METHOD', help: 'HTTP method (default: GET, or POST with --data)' },
    data: { type: 'string', short: 'd', value: 'JSON|@FILE', help: 'request body: JSON text, or @file to read it from a file' },
    paginate: { type: 'boolean', help: 'read every page of a list and print one merged array (GET only)' },
    ...commonOptions('baseUrl', 'config', 'budget', 'budgetWindow', 'perSecond', 'concurrency', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: [
    'ZONEWARDEN_API_TOKEN=... zonewarden api /zones --paginate',
    'zonewarden api /zones --base-url http://127.0.0.1:8787/client/v4',
    'zonewarden api "/zones/ID/dns_records?type=A" --paginate',
    'zonewarden api /user/invites/ID -X PATCH -d \'{"status":"accepted"}\'',
  ],
  async run(o, io, [path]) {
    const method = o.method ?? (o.data !== undefined ? 'POST' : 'GET');
    const body = o.data === undefined ? undefined : readBody(o.data, io.cwd);
    if (body !== undefined && method === 'GET') throw new UsageError('api: --data needs a method with a body (POST, PUT, PATCH or DELETE)');
    if (o.paginate && method !== 'GET') throw new UsageError('api: --paginate reads lists, so it works with GET only');
    if (!path!.startsWith('/')) throw new UsageError(`api: the path must start with /, e.g. /zones (got "${path!.slice(0, 60)}")`);
    const config = configFrom(o, io);
    const logger = loggerFor(config, io);
    const client = clientFor(config, io, logger);
    try {
      if (o.paginate) {
        const endpoint = endpointForPath(path!);
        const requested = Number(new URL(path!, 'http://x').searchParams.get('per_page'));
        const perPage = requested > 0 ? requested : (endpoint?.maxPerPage ?? 50);
        const list = client.list<unknown>(path!, { perPage, minPerPage: endpoint?.minPerPage ?? 1, query: endpoint?.query ?? {} });
        const items = await list.all();
        io.stdout(`${JSON.stringify(items, null, 2)}\n`);
        const s = list.summary;
        logger.debug(`${s.items} items in ${s.pages} pages`);
        return s.truncated ? EXIT.incomplete : EXIT.ok;
      }
      const answer = await client.request<unknown>(method, path!, body === undefined ? {} : { body });
      io.stdout(`${JSON.stringify(answer.result, null, 2)}\n`);
      return EXIT.ok;
    } finally {
      if (config.verbose) {
        const stats = client.snapshotStats();
        io.stderr(`requests ${stats.total.requests}, retries ${stats.total.retries}, rate limited ${stats.total.rateLimited}, ${stats.total.bytes} bytes\n`);
      }
      await client.close();
    }
  },
});

function readBody(data: string, cwd: string): unknown {
  let text = data;
  if (data.startsWith('@')) {
    const file = resolve(cwd, data.slice(1));
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`api: cannot read --data file ${data.slice(1)} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`api: --data is not valid JSON (${(err as Error).message})`);
  }
}
