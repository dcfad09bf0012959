import { worldDnsServer } from '../../emulator/dns/shared.js';
import { DatasetError } from '../../emulator/datasets/index.js';
import { BAD_CREDENTIALS_ANSWERS, type AccountToken, type BadCredentialsAnswer } from '../../emulator/http/auth.js';
import { FAULT_KINDS, type FaultKind } from '../../emulator/http/faults.js';
import { startEmulator, type EmulatorOptions } from '../../emulator/server.js';
import { UsageError } from '../../common/errors.js';
import { defineCommand } from '../command.js';

export const emulatorCommand = defineCommand({
  name: 'emulator',
  summary: 'run the local API emulator (the v4 API on loopback, for demos, tests and benchmarks)',
  description: `
Starts a local HTTP server that behaves like the Cloudflare v4 API, seeded from a dataset, and
runs until SIGINT or SIGTERM. Its first line on stdout is "listening on <base URL>". It accepts the
token given by --token, or the key pair --email/--key. Counters for tests and benchmarks are served
at GET /__emulator/stats (DELETE resets them). POST /__emulator/night {"share": 0.02, "seed": 1}
(optionally "kinds": ["bot_management", ...]) advances the clock a day and changes that share of
zones, each change written to the audit log
(GET /accounts/{id}/logs/audit), certificate renewals not. Dataset format: docs/dataset-format.md.`,
  options: {
    port: { type: 'integer', default: 0, min: 0, max: 65535, help: 'port to listen on; 0 picks a free one' },
    host: { type: 'string', default: '127.0.0.1', value: 'ADDRESS', help: 'address to bind' },
    dataset: { type: 'string', default: 'demo', value: 'NAME|FILE', help: 'demo, generated, or a dataset JSON file' },
    seed: { type: 'integer', default: 1, min: 0, help: 'generated dataset: random seed' },
    accounts: { type: 'integer', default: 5, min: 1, max: 100_000, help: 'generated dataset: accounts' },
    zones: { type: 'integer', default: 50, min: 0, max: 1_000_000, help: 'generated dataset: zones' },
    records: { type: 'integer', default: 2000, min: 0, max: 100_000_000, help: 'generated dataset: DNS records over all zones' },
    revision: { type: 'integer', default: 0, min: 0, max: 1000, help: 'generated dataset: the same organisation N nights later (about 1% of DNS records edited per night)' },
    now: { type: 'string', value: 'ISO', help: "the emulator clock's start (dataset times are relative to it); default: the real time" },
    token: { type: 'string', default: 'emulator-token', value: 'TOKEN', help: 'API token the emulator accepts' },
    email: { type: 'string', default: 'admin@example.com', value: 'EMAIL', help: 'key-pair e-mail the emulator accepts' },
    key: { type: 'string', default: 'emulator-key', value: 'KEY', help: 'key-pair API key the emulator accepts' },
    'bad-credentials': {
      type: 'string',
      default: '9109',
      choices: [...BAD_CREDENTIALS_ANSWERS],
      help: 'how wrong credentials are refused: 9109 (403 "Invalid access token"), 401 (401 code 10000), 10000 (403 code 10000)',
    },
    'token-kind': { type: 'string', default: 'user', choices: ['user', 'account'], help: 'account: the token is account-owned (one account; GET /accounts answers 400 code 1001, invites 403)' },
    'token-account': { type: 'string', value: 'ID', help: 'with --token-kind account: the account that owns the token (default: the first)' },
    'account-token': {
      type: 'list',
      value: 'ACCOUNT=TOKEN',
      help: 'another token the emulator accepts: account-owned, reading the account with id ACCOUNT alone, with a budget of its own as at the API (to try the config file\'s "credentials")',
    },
    'audit-log': { type: 'string', default: 'allowed', choices: ['allowed', 'denied'], help: 'denied: the audit log answers 403 code 10000, as to a token without the audit-log permission' },
    'api-era': { type: 'string', default: 'classic', choices: ['classic', 'retired'], help: "retired (today's API): the previous managed-rules (legacy WAF) endpoints answer 410 Gone and writes to filters and firewall rules are refused (code 10020)" },
    latency: { type: 'integer', default: 0, min: 0, max: 600_000, value: 'MS', help: 'delay before every answer' },
    'migration-delay': {
      type: 'integer',
      default: 0,
      min: 0,
      max: 3600,
      value: 'SECONDS',
      help: 'how long a migration PUT takes to show in the status (the real API: up to an hour)',
    },
    'rate-limit': { type: 'integer', default: 1200, min: 0, help: 'requests allowed per window; 0 disables' },
    'rate-window': { type: 'integer', default: 300, min: 1, value: 'SECONDS', help: 'length of the rate-limit window' },
    'ip-rate-limit': { type: 'integer', default: 200, min: 0, help: 'requests per second from one address; 0 disables' },
    'ratelimit-headers': { type: 'string', default: 'modern', choices: ['modern', 'legacy', 'both', 'none'], help: 'Ratelimit headers, x-ratelimit-* headers, both, or none' },
    'fault-rate': { type: 'number', default: 0, min: 0, max: 1, value: 'P', help: 'share of answers replaced by a 500, 502 or 503' },
    'fault-kinds': {
      type: 'string',
      default: '500,502,503',
      value: 'LIST',
      help: `faults --fault-rate injects, comma-separated: ${FAULT_KINDS.join(', ')}`,
    },
    'fault-seed': { type: 'integer', default: 1, min: 0, help: 'seed of the fault injection' },
    'deny-route': { type: 'list', value: 'ROUTE', help: 'a route the token lacks the permission for: it answers 403 code 9109' },
    'fail-route': { type: 'list', value: 'ROUTE', help: 'a route that always answers 500, e.g. "GET /zones/{zone_id}/filters"' },
    'lose-answer-route': { type: 'list', value: 'ROUTE', help: 'a route whose request is carried out but whose answer is lost (a 502 page instead), e.g. "POST /zones/{zone_id}/rulesets/{ruleset_id}/rules"' },
    'timeout-per-page': { type: 'integer', min: 1, help: 'a list page with per_page above N never answers' },
    'repeat-page': { type: 'boolean', help: 'every list serves page 1 for every page (a broken paginator)' },
    'short-pages': { type: 'boolean', help: 'full list pages lose their last item (short pages that are not the last)' },
    'no-totals': { type: 'boolean', help: 'list answers carry no total_count or total_pages' },
    verbose: { type: 'boolean', help: 'log one line per request to stderr' },
  },
  examples: [
    'zonewarden emulator --port 8787',
    'zonewarden emulator --dataset generated --seed 7 --zones 1000 --records 100000 --latency 20',
    'zonewarden emulator --rate-limit 100 --rate-window 60 --fault-rate 0.2',
    'zonewarden emulator --token-kind account --api-era retired',
    'zonewarden emulator --dataset generated --account-token 0123456789abcdef0123456789abcdef=tok-acme',
  ],
  async run(o, io) {
    const now = o.now === undefined ? undefined : new Date(o.now);
    if (now && Number.isNaN(now.getTime())) {
      throw new UsageError(`emulator: --now must be an ISO 8601 time such as 2026-01-31T00:00:00Z, got "${o.now}"`);
    }
    const kinds = o['fault-kinds'].split(',').map((k) => k.trim()).filter(Boolean);
    const unknown = kinds.find((k) => !(FAULT_KINDS as readonly string[]).includes(k));
    if (unknown !== undefined) throw new UsageError(`emulator: --fault-kinds: unknown kind "${unknown}"; kinds: ${FAULT_KINDS.join(', ')}`);
    const options: EmulatorOptions = {
      host: o.host,
      port: o.port,
      dataset: o.dataset,
      generated: { seed: o.seed, accounts: o.accounts, zones: o.zones, records: o.records, revision: o.revision },
      token: o.token,
      email: o.email,
      key: o.key,
      latencyMs: o.latency,
      migrationDelaySeconds: o['migration-delay'],
      rateLimit: o['rate-limit'],
      rateWindowSeconds: o['rate-window'],
      ipRateLimit: o['ip-rate-limit'],
      rateLimitHeaders: o['ratelimit-headers'] as EmulatorOptions['rateLimitHeaders'],
      faultRate: o['fault-rate'],
      faultKinds: kinds as FaultKind[],
      faultSeed: o['fault-seed'],
      failRoutes: o['fail-route'],
      lostAnswerRoutes: o['lose-answer-route'],
      denyRoutes: o['deny-route'],
      timeoutPerPage: o['timeout-per-page'] ?? null,
      repeatPage: o['repeat-page'],
      shortPages: o['short-pages'],
      noTotals: o['no-totals'],
      badCredentials: o['bad-credentials'] as BadCredentialsAnswer,
      tokenKind: o['token-kind'] as 'user' | 'account',
      apiEra: o['api-era'] as 'classic' | 'retired',
      auditLog: o['audit-log'] as 'allowed' | 'denied',
    };
    if (o['token-account'] !== undefined) options.tokenAccount = o['token-account'];
    if (o['account-token'].length > 0) options.accountTokens = o['account-token'].map(accountToken);
    if (now) options.now = now;
    if (o.verbose) options.onRequest = (line) => io.stderr(`${line}\n`);
    let emulator;
    try {
      emulator = await startEmulator(options);
    } catch (err) {
      // The library numbers extra tokens from 0 as accountTokens[i]; the command line knows them by the option.
      if (err instanceof DatasetError) throw new UsageError(`emulator: ${err.message.replace(/^accountTokens\[(\d+)\]/, (_, i: string) => `--account-token number ${Number(i) + 1}`)}`);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new UsageError(`emulator: port ${o.port} is in use; pick another with --port, or --port 0 for a free one`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`emulator: cannot bind ${o.host}; use a local address such as 127.0.0.1`);
      throw err;
    }
    const state = emulator.org.state;
    const records = state.zones.reduce((n, z) => n + z.dns.size, 0);
    io.stdout(`listening on ${emulator.url}\n`);
    // The outside world's DNS as the dataset sees it, for scans to pass as --resolver (dns-dangling-target).
    io.stdout(`DNS world on ${(await worldDnsServer()).address}\n`);
    io.stdout(`dataset ${o.dataset}: ${state.accounts.length} accounts, ${state.zones.length} zones, ${records} DNS records\n`);
    const signal = await io.stopSignal;
    await emulator.close();
    io.stderr(`emulator stopped (${signal})\n`);
    return 0;
  },
});

/** `ACCOUNT=TOKEN` of --account-token; the message never repeats the token. */
function accountToken(given: string, i: number): AccountToken {
  const at = given.indexOf('=');
  const account = at === -1 ? '' : given.slice(0, at).trim();
  const token = at === -1 ? '' : given.slice(at + 1);
  if (account === '' || token === '') throw new UsageError(`emulator: --account-token number ${i + 1} must be ACCOUNT=TOKEN (an account id, "=", then the token), e.g. --account-token 0123456789abcdef0123456789abcdef=tok-acme`);
  return { accounts: [account], token };
}
