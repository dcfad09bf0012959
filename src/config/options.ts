import { parseResolverAddress } from '../common/resolver-address.js';

/**
 * The options shared by the commands that talk to the API or the database, one table: commands pick theirs, the
 * loader applies precedence, and --help and the configuration reference (docs/configuration.md) are generated from it.
 */

export interface OptionDef {
  /** The key in the config file and in the loaded config. */
  key: string;
  /** The command-line flag, without dashes. */
  flag: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'list';
  default?: string | number | boolean | string[];
  /** Environment variable that sets it, if any. */
  env?: string;
  /** Placeholder in --help. */
  value?: string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  help: string;
  /** Flags only: not read from the config file (e.g. --config itself). */
  flagOnly?: boolean;
  /** For strings of a given form: what is expected when the value is not of it (one line), else null. */
  check?: (value: string) => string | null;
}

/**
 * The vendor's API, where every zone this tool audits lives (its API documentation writes every
 * call as https://api.cloudflare.com/client/v4/...). --base-url points elsewhere: the emulator, a proxy.
 */
export const VENDOR_BASE_URL = 'https://api.cloudflare.com/client/v4';

const OPTIONS = {
  baseUrl: {
    flag: 'base-url',
    type: 'string',
    default: VENDOR_BASE_URL,
    env: 'ZONEWARDEN_BASE_URL',
    value: 'URL',
    help: 'API base URL, ending in /client/v4; set it only for the emulator or a proxy (https, or http on loopback only)',
  },
  db: { flag: 'db', type: 'string', default: './zonewarden.db', env: 'ZONEWARDEN_DB', value: 'FILE', help: 'SQLite database file' },
  config: {
    flag: 'config',
    type: 'string',
    value: 'FILE',
    flagOnly: true,
    help: 'JSON config file (default: ./zonewarden.config.json when present)',
  },
  resolver: {
    flag: 'resolver',
    type: 'string',
    env: 'ZONEWARDEN_RESOLVER',
    value: 'ADDR',
    check: (value) => {
      const parsed = parseResolverAddress(value);
      return parsed.ok ? null : parsed.reason;
    },
    help: "DNS server the scan asks whether the names CNAME, MX, NS and SRV records point at exist (dns-dangling-target), an IP with an optional port such as 192.0.2.53:53 or [2001:db8::53]:53 (default: the system's resolvers); names are asked once per scan, a few at a time, after checking that the resolver finds the name servers the API assigned to the zones (one that denies them is not believed: every target is then unknown); on a locked-down network pass a recursive resolver that answers for public names (docs/scanning.md)",
  },
  concurrency: { flag: 'concurrency', type: 'integer', default: 8, min: 1, max: 64, help: 'requests in flight at once' },
  budget: {
    flag: 'budget',
    type: 'integer',
    default: 1000,
    min: 1,
    max: 1_000_000,
    help: 'API requests allowed per budget window, for each credential (the API allows 1,200 per 5 minutes per user or account-owned token, shared with your colleagues)',
  },
  budgetWindow: {
    flag: 'budget-window',
    type: 'integer',
    default: 300,
    min: 1,
    max: 3600,
    value: 'SECONDS',
    help: 'length of the budget window (each credential has its own)',
  },
  perSecond: {
    flag: 'per-second',
    type: 'integer',
    default: 200,
    min: 0,
    max: 100_000,
    help: 'API requests per second from this address (the API allows 200 per address; 0 for no limit), shared evenly by the credentials of the config file\'s "credentials" section and the default one',
  },
  timeout: { flag: 'timeout', type: 'integer', default: 60, min: 1, max: 3600, value: 'SECONDS', help: 'time limit of one request attempt' },
  retries: { flag: 'retries', type: 'integer', default: 4, min: 0, max: 20, help: 'retries of a failed request (429, 5xx, timeouts, resets)' },
  retryWait: {
    flag: 'retry-wait',
    type: 'integer',
    default: 900,
    min: 0,
    max: 86_400,
    value: 'SECONDS',
    help: 'most time one request may spend waiting between retries (a 429 blocks for 5 minutes)',
  },
  // One key, two meanings: what a scan reads, and which findings of a scan the commands that read one show.
  account: {
    flag: 'account',
    type: 'list',
    value: 'ID',
    help: "these accounts only: scan, run and schedule read only their zones (account ids); audit, report and diff show only their findings of the scan they read, which may cover more (ids, names or globs); status and metrics check the scans of that scope; scans and baseline mean the latest scan holding them; migrate considers only their zones",
  },
  zone: {
    flag: 'zone',
    type: 'list',
    value: 'NAME',
    help: 'these zones only: scan, run and schedule read only them (zone names); audit, report and diff show only their findings of the scan they read, which may cover more (names, ids or globs); status and metrics check the scans of that scope; scans and baseline mean the latest scan holding them; firewall and migrate: the zone to change',
  },
  organizations: {
    flag: 'organization',
    type: 'list',
    value: 'ID',
    help: 'invites accept --all: accept invitations from this organisation (account) id only; nothing is accepted from an organisation not named',
  },
  failOn: {
    flag: 'fail-on',
    type: 'string',
    default: 'none',
    env: 'ZONEWARDEN_FAIL_ON',
    value: 'SEVERITY',
    choices: ['critical', 'high', 'medium', 'low', 'info', 'none'],
    help: 'exit 1 when a finding at or above this severity fails: critical, high, medium, low, info, or none',
  },
  waivers: {
    flag: 'waivers',
    type: 'string',
    env: 'ZONEWARDEN_WAIVERS',
    value: 'FILE',
    help: 'waivers file (YAML or JSON): accepted risks with reason, owner and end date',
  },
  waiverMaxDays: {
    flag: 'waiver-max-days',
    type: 'integer',
    default: 90,
    min: 1,
    max: 3650,
    value: 'DAYS',
    help: 'refuse the waivers file when a waiver ends more than this many days after today (UTC, when the file is read)',
  },
  waiverMaxMatches: {
    flag: 'waiver-max-matches',
    type: 'integer',
    default: 25,
    min: 1,
    max: 1_000_000,
    value: 'N',
    help: 'a waiver matching more failures than this waives none of them (a warning says so) unless it has "acknowledge: [many]"',
  },
  rulesDir: {
    flag: 'rules-dir',
    type: 'list',
    value: 'DIR',
    help: 'also run your own rules: the .js files of this directory, each default-exporting a rule made with defineRule from zonewarden/rules (docs/custom-rules.md)',
  },
  keep: {
    flag: 'keep',
    type: 'integer',
    min: 1,
    max: 100_000,
    value: 'N',
    help: 'after each run, delete all but the newest N scans and their reports (the latest complete scan of each scope and baselines stay)',
  },
  full: {
    flag: 'full',
    type: 'boolean',
    default: false,
    help: 'read every zone in full tonight, instead of reading on from the last scan with the account audit logs',
  },
  fullEvery: {
    flag: 'full-every',
    type: 'integer',
    default: 7,
    min: 1,
    max: 365,
    value: 'N',
    help: 'read every zone in full at least every N nights, a share of them each night (1: every zone every night)',
  },
  maxAge: {
    flag: 'max-age',
    type: 'string',
    default: '36h',
    env: 'ZONEWARDEN_MAX_AGE',
    value: 'DURATION',
    help: 'how old the last complete scan may be (e.g. 36h, 2d, 90m) before status exits 1 and a stale notification goes out',
  },
  metricsFile: {
    flag: 'metrics-file',
    type: 'string',
    env: 'ZONEWARDEN_METRICS_FILE',
    value: 'FILE',
    help: "write Prometheus metrics (the last run, its scan, the latest audit's findings, certificate expiry; docs/monitoring.md) to this file, replacing it atomically: run and schedule after each run; metrics instead of printing them, and only when the flag itself is given (the file's and the environment's setting are the nightly job's); for a node exporter's textfile collector name it *.prom in the collector's directory, e.g. /var/lib/prometheus/node-exporter/zonewarden.prom",
  },
  cron: {
    flag: 'cron',
    type: 'string',
    env: 'ZONEWARDEN_CRON',
    value: 'EXPR',
    help: 'when schedule runs the job: a cron expression, 5 fields or 6 with seconds first, e.g. "0 2 * * *"',
  },
  timezone: { flag: 'tz', type: 'string', env: 'ZONEWARDEN_TZ', value: 'ZONE', help: "time zone of --cron, an IANA name such as Europe/Berlin (default: the machine's)" },
  quiet: { flag: 'quiet', type: 'boolean', default: false, help: 'print only results and errors' },
  verbose: { flag: 'verbose', type: 'boolean', default: false, help: 'log every request and print the stack of an unexpected error' },
} as const satisfies Record<string, Omit<OptionDef, 'key'>>;

/** The table with each option's key, its name in the table. */
export const COMMON_OPTIONS = Object.fromEntries(Object.entries(OPTIONS).map(([key, def]) => [key, { ...def, key }])) as {
  readonly [K in keyof typeof OPTIONS]: (typeof OPTIONS)[K] & { readonly key: K };
};

export type CommonKey = keyof typeof OPTIONS;

/** Environment variables that carry credentials: read from the environment only, never from files or flags. */
export const CREDENTIAL_ENV = {
  token: 'ZONEWARDEN_API_TOKEN',
  email: 'ZONEWARDEN_API_EMAIL',
  key: 'ZONEWARDEN_API_KEY',
} as const;

/**
 * The same credential under the names the vendor's own tools read (Wrangler's system environment
 * variables, the Terraform provider's `api_token`/`api_key`/`api_email`), so that one exported for
 * them serves zonewarden too. Read only when none of CREDENTIAL_ENV is set: ours come first.
 */
export const VENDOR_CREDENTIAL_ENV = {
  token: 'CLOUDFLARE_API_TOKEN',
  email: 'CLOUDFLARE_EMAIL',
  key: 'CLOUDFLARE_API_KEY',
} as const;

/** Config-file sections, with no flag: the loader checks their shape, the module that owns each its contents. */
export const FILE_SECTIONS = {
  rules: 'per rule: {"<rule id>": {"enabled": false, "severity": "low", "options": {...}, "overrides": [{"zones": ["*.lab.example.com"], "accounts": [...], "enabled": false, "severity": "low"}]}}; zonewarden rules lists ids and options',
  drift: 'what configuration drift leaves out: {"ignore": ["<resource type>.<field>", ...]} replaces the default list (see docs/drift.md)',
  notifications: 'webhooks called after runs: {"webhooks": [{"url" or "urlEnv", "format": "slack"|"json", "minSeverity", "on"}], "minSeverity", "on", "reportUrl", "timeout", "retries"} (see docs/notifications.md)',
  credentials: 'a credential per account, each paced with a budget of its own: [{"accounts": ["<account id>", ...], "tokenEnv": "<VARIABLE>"}, {"accounts": [...], "emailEnv": "<VARIABLE>", "keyEnv": "<VARIABLE>"}]; the file names environment variables, never their values; accounts not listed use ZONEWARDEN_API_TOKEN (or the key pair), which may then be unset when --account names listed accounts only (see docs/credentials.md)',
} as const;

export const DEFAULT_CONFIG_FILE = 'zonewarden.config.json';
