import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, coerce, loadConfig, type LoadInput } from '../../src/config/load.js';
import { COMMON_OPTIONS, CREDENTIAL_ENV, DEFAULT_CONFIG_FILE, type OptionDef } from '../../src/config/options.js';
import { thrownBy } from '../support/errors.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'zw-config-'));
}

/** A temp cwd holding the default config file with this content (raw text, so broken JSON can be written). */
function cwdWithConfig(content: unknown): string {
  const dir = tempDir();
  writeFileSync(join(dir, DEFAULT_CONFIG_FILE), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

function load(partial: Partial<LoadInput> = {}) {
  return loadConfig({ flags: {}, env: {}, cwd: partial.cwd ?? tempDir(), ...partial });
}

/** The ConfigError thrown by `fn`; fails the test when nothing (or something else) is thrown. */
const configError = (fn: () => unknown): ConfigError => thrownBy(fn, ConfigError);

describe('loadConfig precedence', () => {
  it('takes the defaults when nothing else is given', () => {
    const c = load();
    expect(c.budget).toBe(1000);
    expect(c.concurrency).toBe(8);
    expect(c.db).toBe('./zonewarden.db');
    // vendor docs: every API call is written https://api.cloudflare.com/client/v4/... (e.g. the WAF's
    // "Deploy a WAF managed ruleset via API" page); zonewarden audits that API unless told otherwise.
    expect(c.baseUrl).toBe('https://api.cloudflare.com/client/v4');
    expect(c.account).toEqual([]);
    expect(c.zone).toEqual([]);
    expect(c.quiet).toBe(false);
    expect(c.verbose).toBe(false);
    expect(c.configFile).toBeNull();
  });

  it('applies defaults < config file < environment < flags to db, the option with all four layers', () => {
    const cwd = cwdWithConfig({ db: 'file.db' });
    const env = { ZONEWARDEN_DB: 'env.db' };
    expect(load().db).toBe('./zonewarden.db');
    expect(loadConfig({ flags: {}, env: {}, cwd }).db).toBe('file.db');
    expect(loadConfig({ flags: {}, env, cwd }).db).toBe('env.db');
    expect(loadConfig({ flags: { db: 'flag.db' }, env, cwd }).db).toBe('flag.db');
    // Without the file, the environment still beats the default.
    expect(load({ env }).db).toBe('env.db');
  });

  it("applies the same precedence to baseUrl, whose default is the vendor's API", () => {
    const cwd = cwdWithConfig({ baseUrl: 'https://file.example/client/v4' });
    const env = { ZONEWARDEN_BASE_URL: 'https://env.example/client/v4' };
    expect(load().baseUrl).toBe('https://api.cloudflare.com/client/v4');
    // An empty variable (as a unit file may leave it) is unset: the default stands.
    expect(load({ env: { ZONEWARDEN_BASE_URL: '' } }).baseUrl).toBe('https://api.cloudflare.com/client/v4');
    expect(loadConfig({ flags: {}, env: {}, cwd }).baseUrl).toBe('https://file.example/client/v4');
    expect(loadConfig({ flags: {}, env, cwd }).baseUrl).toBe('https://env.example/client/v4');
    expect(loadConfig({ flags: { baseUrl: 'https://flag.example/client/v4' }, env, cwd }).baseUrl).toBe('https://flag.example/client/v4');
  });

  it('applies defaults < config file < flags to budget, which has no environment variable', () => {
    expect(COMMON_OPTIONS.budget).not.toHaveProperty('env');
    const cwd = cwdWithConfig({ budget: 600 });
    expect(load().budget).toBe(1000);
    expect(loadConfig({ flags: {}, env: {}, cwd }).budget).toBe(600);
    expect(loadConfig({ flags: {}, env: { ZONEWARDEN_BUDGET: '5' }, cwd }).budget).toBe(600);
    expect(loadConfig({ flags: { budget: 700 }, env: {}, cwd }).budget).toBe(700);
  });

  it('ignores flags left undefined and empty list flags, so lower layers show through', () => {
    const cwd = cwdWithConfig({ budget: 600, zone: ['a.example'] });
    const c = loadConfig({ flags: { budget: undefined, zone: [] }, env: {}, cwd });
    expect(c.budget).toBe(600);
    expect(c.zone).toEqual(['a.example']);
  });

  it('ignores an empty environment variable', () => {
    const cwd = cwdWithConfig({ db: 'file.db' });
    expect(loadConfig({ flags: {}, env: { ZONEWARDEN_DB: '' }, cwd }).db).toBe('file.db');
    expect(load({ env: { ZONEWARDEN_DB: '' } }).db).toBe('./zonewarden.db');
  });

  it('returns a frozen config, including its lists', () => {
    const c = load({ flags: { zone: ['a.example'] } });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.zone)).toBe(true);
    expect(() => {
      (c as { budget: number }).budget = 1;
    }).toThrow(TypeError);
  });
});

describe('loadConfig config file', () => {
  it('reads zonewarden.config.json in cwd when present and reports its path', () => {
    const cwd = cwdWithConfig({ concurrency: 3 });
    const c = loadConfig({ flags: {}, env: {}, cwd });
    expect(c.concurrency).toBe(3);
    expect(c.configFile).toBe(join(cwd, DEFAULT_CONFIG_FILE));
  });

  it('runs without a config file when the default one is absent', () => {
    const c = load({ cwd: tempDir() });
    expect(c.configFile).toBeNull();
    expect(c.concurrency).toBe(8);
  });

  it('reads --config relative to cwd instead of the default file', () => {
    const cwd = cwdWithConfig({ concurrency: 3 });
    mkdirSync(join(cwd, 'conf'));
    writeFileSync(join(cwd, 'conf', 'other.json'), JSON.stringify({ concurrency: 5 }));
    const c = loadConfig({ flags: { config: 'conf/other.json' }, env: {}, cwd });
    expect(c.concurrency).toBe(5);
    expect(c.configFile).toBe(join(cwd, 'conf', 'other.json'));
  });

  it('refuses a --config file that does not exist, even when the default one does', () => {
    const cwd = cwdWithConfig({ concurrency: 3 });
    const err = configError(() => loadConfig({ flags: { config: 'missing.json' }, env: {}, cwd }));
    expect(err.message).toBe('--config missing.json: no such file');
    expect(err.code).toBe('ZW_CONFIG');
    expect(err.exitCode).toBe(2);
  });

  it('refuses invalid JSON, naming the file', () => {
    const cwd = cwdWithConfig('{"budget": 5,');
    const err = configError(() => load({ cwd }));
    expect(err.message).toMatch(new RegExp(`^config file ${escapeRe(join(cwd, DEFAULT_CONFIG_FILE))}: not valid JSON \\(`));
  });

  it.each([['[1, 2]'], ['"budget"'], ['null'], ['42']])('refuses JSON that is not an object: %s', (text) => {
    const cwd = cwdWithConfig(text);
    expect(configError(() => load({ cwd })).message).toBe(`config file ${join(cwd, DEFAULT_CONFIG_FILE)}: expected a JSON object of options`);
  });

  it('refuses an unknown key and lists the known ones (not the flag-only config)', () => {
    const cwd = cwdWithConfig({ budgte: 5 });
    const message = configError(() => load({ cwd })).message;
    expect(message).toBe(
      `config file ${join(cwd, DEFAULT_CONFIG_FILE)}: unknown key "budgte"; known keys: baseUrl, db, resolver, concurrency, budget, budgetWindow, perSecond, timeout, retries, retryWait, account, zone, organizations, failOn, waivers, waiverMaxDays, waiverMaxMatches, rulesDir, keep, full, fullEvery, maxAge, metricsFile, cron, timezone, quiet, verbose, rules, drift, notifications, credentials (did you mean "budget"?)`,
    );
  });

  it.each([['config'], ['configFile'], ['toString'], ['constructor'], ['__proto__'], ['hasOwnProperty']])(
    'refuses "%s" as an unknown key (flag-only or inherited from Object.prototype)',
    (key) => {
      // JSON text, so "__proto__" becomes an own key as it would from a real file.
      const cwd = cwdWithConfig(`{${JSON.stringify(key)}: {"a": 1}}`);
      expect(configError(() => load({ cwd })).message).toContain(`unknown key "${key}"; known keys: baseUrl,`);
    },
  );

  it.each([['token'], ['apiKey'], ['email'], ['api_token'], ['api-key'], ['API_TOKEN'], ['secret'], ['password'], ['key']])(
    'refuses the credential-like key "%s" without echoing its value',
    (key) => {
      const value = 'sup3r-s3cret-value-123';
      const cwd = cwdWithConfig({ [key]: value });
      const message = configError(() => load({ cwd })).message;
      expect(message).toBe(
        `config file ${join(cwd, DEFAULT_CONFIG_FILE)}: "${key}" looks like a credential; credentials come from the environment only (${CREDENTIAL_ENV.token}, or ${CREDENTIAL_ENV.email} with ${CREDENTIAL_ENV.key}): remove it`,
      );
      expect(message).toContain('ZONEWARDEN_API_TOKEN');
      expect(message).toContain('ZONEWARDEN_API_EMAIL');
      expect(message).toContain('ZONEWARDEN_API_KEY');
      expect(message).not.toContain(value);
    },
  );

  // issue 32 item 7 ("did you mean"): a name one edit from a known one suggests it; an unrelated name gets no guess.
  it('suggests the key a one-letter typo was meant to be, and nothing for an unrelated key', () => {
    expect(configError(() => load({ cwd: cwdWithConfig({ timout: 5 }) })).message).toMatch(/: unknown key "timout"; known keys: baseUrl, .*, credentials \(did you mean "timeout"\?\)$/);
    expect(configError(() => load({ cwd: cwdWithConfig({ colour: 5 }) })).message).not.toContain('did you mean');
  });

  it('matches credential names exactly: "tokens" is reported as unknown, not as a credential', () => {
    const cwd = cwdWithConfig({ tokens: 1 });
    expect(configError(() => load({ cwd })).message).toContain('unknown key "tokens"');
  });
});

describe('loadConfig type errors name the source and the expectation', () => {
  it.each<[string, unknown, string]>([
    ['concurrency', 'eight', 'expected a whole number from 1 to 64, got "eight"'],
    ['concurrency', 0, 'expected a whole number from 1 to 64, got 0'],
    ['concurrency', 65, 'expected a whole number from 1 to 64, got 65'],
    ['concurrency', 2.5, 'expected a whole number from 1 to 64, got 2.5'],
    ['concurrency', true, 'expected a whole number from 1 to 64, got true'],
    ['concurrency', null, 'expected a whole number from 1 to 64, got null'],
    ['quiet', 'yes', 'expected true or false, got "yes"'],
    ['zone', [1], 'expected a list of strings, got an array'],
    ['zone', ['a', ''], 'a value is empty; give one or more, separated by commas or the option repeated (e.g. "a.example,b.example")'],
    ['db', '', 'expected a non-empty string, got ""'],
    ['db', { path: 'x' }, 'expected a non-empty string, got an object'],
  ])('config file %s = %j', (key, value, expected) => {
    const cwd = cwdWithConfig({ [key]: value });
    const err = configError(() => load({ cwd }));
    expect(err.message).toBe(`config file ${join(cwd, DEFAULT_CONFIG_FILE)}: ${key}: ${expected}`);
  });

  it('reports the first bad key in file order', () => {
    const cwd = cwdWithConfig({ db: 5, concurrency: 'x' });
    expect(configError(() => load({ cwd })).message).toBe(`config file ${join(cwd, DEFAULT_CONFIG_FILE)}: db: expected a non-empty string, got 5`);
  });

  it('cuts a long bad value to 60 characters in the message', () => {
    const cwd = cwdWithConfig({ concurrency: 'x'.repeat(100) });
    expect(configError(() => load({ cwd })).message).toMatch(/: concurrency: expected a whole number from 1 to 64, got "x{60}…"$/);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ budget: 0 }, '--budget: expected a whole number from 1 to 1000000, got 0'],
    [{ budget: 'lots' }, '--budget: expected a whole number from 1 to 1000000, got "lots"'],
    [{ budgetWindow: 3601 }, '--budget-window: expected a whole number from 1 to 3600, got 3601'],
    [{ retries: -1 }, '--retries: expected a whole number from 0 to 20, got -1'],
    [{ retryWait: 1.5 }, '--retry-wait: expected a whole number from 0 to 86400, got 1.5'],
    [{ quiet: 'maybe' }, '--quiet: expected true or false, got "maybe"'],
    [{ db: '' }, '--db: expected a non-empty string, got ""'],
    [{ zone: [''] }, '--zone: a value is empty; give one or more, separated by commas or the option repeated (e.g. "a.example,b.example")'],
    [{ zone: [','] }, '--zone: a value is empty; give one or more, separated by commas or the option repeated (e.g. "a.example,b.example")'],
    [{ account: [' '] }, '--account: a value is empty; give one or more, separated by commas or the option repeated (e.g. "a.example,b.example")'],
  ])('flag errors name the flag: %j', (flags, message) => {
    expect(configError(() => load({ flags })).message).toBe(message);
  });
});

describe('loadConfig environment strings', () => {
  it('has environment variables only for what a service unit or CI job sets per machine (credentials are separate)', () => {
    const withEnvVar = (Object.values(COMMON_OPTIONS) as OptionDef[]).filter((d) => d.env).map((d) => d.env);
    // ZONEWARDEN_RESOLVER: which DNS server a scan may ask is a property of the machine it runs on
    // (the network it sits in, an egress policy that allows only the site's own resolver), not of the
    // audit policy, so a service unit or CI job sets it per machine like the API's base URL.
    // ZONEWARDEN_METRICS_FILE: where the machine's node exporter reads its textfiles, set by a
    // drop-in of the service unit (docs/monitoring.md).
    expect(withEnvVar).toEqual(['ZONEWARDEN_BASE_URL', 'ZONEWARDEN_DB', 'ZONEWARDEN_RESOLVER', 'ZONEWARDEN_FAIL_ON', 'ZONEWARDEN_WAIVERS', 'ZONEWARDEN_MAX_AGE', 'ZONEWARDEN_METRICS_FILE', 'ZONEWARDEN_CRON', 'ZONEWARDEN_TZ']);
  });

  it('reads the rules section as an object of objects, and refuses other shapes', () => {
    const rules = { 'certificate-expiry': { severity: 'low', options: { tiers: { high: 10 } } } };
    expect(load({ cwd: cwdWithConfig({ rules }) }).rules).toEqual(rules);
    expect(load({}).rules).toEqual({});
    const cwd = cwdWithConfig({ rules: ['certificate-expiry'] });
    expect(configError(() => load({ cwd })).message).toBe(`config file ${join(cwd, DEFAULT_CONFIG_FILE)}: rules: expected an object`);
    const entry = cwdWithConfig({ rules: { 'certificate-expiry': false } });
    expect(configError(() => load({ cwd: entry })).message).toBe(`config file ${join(entry, DEFAULT_CONFIG_FILE)}: rules.certificate-expiry: expected an object`);
  });

  it('reads the drift section as an object whose contents the drift module checks, and refuses other shapes', () => {
    const drift = { ignore: ['*.modified_on'] };
    expect(load({ cwd: cwdWithConfig({ drift }) }).drift).toEqual(drift);
    expect(load({}).drift).toBeUndefined();
    const cwd = cwdWithConfig({ drift: ['*.modified_on'] });
    expect(configError(() => load({ cwd })).message).toBe(`config file ${join(cwd, DEFAULT_CONFIG_FILE)}: drift: expected an object`);
  });

  it('reads the notifications section as an object whose contents the notifications module checks', () => {
    const notifications = { webhooks: [{ urlEnv: 'HOOK', format: 'slack' }] };
    expect(load({ cwd: cwdWithConfig({ notifications }) }).notifications).toEqual(notifications);
    expect(load({}).notifications).toBeUndefined();
    const cwd = cwdWithConfig({ notifications: 'https://hooks.example.com/x' });
    expect(configError(() => load({ cwd })).message).toBe(`config file ${join(cwd, DEFAULT_CONFIG_FILE)}: notifications: expected an object`);
  });

  it('checks --fail-on against the severities', () => {
    expect(load({ flags: { failOn: 'high' } }).failOn).toBe('high');
    expect(load({}).failOn).toBe('none');
    expect(configError(() => load({ env: { ZONEWARDEN_FAIL_ON: 'urgent' } })).message).toBe(
      'environment ZONEWARDEN_FAIL_ON: expected one of critical, high, medium, low, info, none, got "urgent"',
    );
  });

  it('keeps a string environment value as given', () => {
    expect(load({ env: { ZONEWARDEN_DB: '/var/lib/zw.db' } }).db).toBe('/var/lib/zw.db');
  });

  /**
   * The shipped table gives only strings an environment variable, so typed parsing of the
   * environment layer is checked against a table that adds some; the loader is generic over it.
   */
  describe('with typed environment variables', () => {
    const TYPED_ENV = {
      budget: 'ZW_TEST_BUDGET',
      concurrency: 'ZW_TEST_CONCURRENCY',
      quiet: 'ZW_TEST_QUIET',
      zone: 'ZW_TEST_ZONE',
    } as const;

    async function typedLoader(): Promise<typeof import('../../src/config/load.js')> {
      vi.resetModules();
      vi.doMock('../../src/config/options.js', async (importOriginal) => {
        const original = await importOriginal<typeof import('../../src/config/options.js')>();
        const options: Record<string, OptionDef> = { ...original.COMMON_OPTIONS };
        for (const [key, env] of Object.entries(TYPED_ENV)) options[key] = { ...options[key]!, env };
        return { ...original, COMMON_OPTIONS: options };
      });
      try {
        return await import('../../src/config/load.js');
      } finally {
        vi.doUnmock('../../src/config/options.js');
      }
    }

    afterEach(() => {
      vi.resetModules();
    });

    it('applies defaults < config file < environment < flags to budget', async () => {
      const { loadConfig: typedLoad } = await typedLoader();
      const cwd = cwdWithConfig({ budget: 600 });
      const env = { ZW_TEST_BUDGET: '500' };
      expect(typedLoad({ flags: {}, env: {}, cwd: tempDir() }).budget).toBe(1000);
      expect(typedLoad({ flags: {}, env: {}, cwd }).budget).toBe(600);
      expect(typedLoad({ flags: {}, env, cwd }).budget).toBe(500);
      expect(typedLoad({ flags: { budget: 400 }, env, cwd }).budget).toBe(400);
    });

    it('parses integers, booleans and comma lists from environment strings', async () => {
      const { loadConfig: typedLoad } = await typedLoader();
      const c = typedLoad({
        flags: {},
        env: { ZW_TEST_CONCURRENCY: '12', ZW_TEST_QUIET: 'true', ZW_TEST_ZONE: 'a.example, b.example,,' },
        cwd: tempDir(),
      });
      expect(c.concurrency).toBe(12);
      expect(c.quiet).toBe(true);
      expect(c.zone).toEqual(['a.example', 'b.example']);
      expect(typedLoad({ flags: {}, env: { ZW_TEST_QUIET: '0' }, cwd: tempDir() }).quiet).toBe(false);
      // Only separators: an empty list, not an error.
      expect(typedLoad({ flags: {}, env: { ZW_TEST_ZONE: ' , ' }, cwd: tempDir() }).zone).toEqual([]);
    });

    it('ignores empty typed environment variables', async () => {
      const { loadConfig: typedLoad } = await typedLoader();
      const c = typedLoad({ flags: {}, env: { ZW_TEST_CONCURRENCY: '', ZW_TEST_QUIET: '', ZW_TEST_ZONE: '' }, cwd: tempDir() });
      expect(c.concurrency).toBe(8);
      expect(c.quiet).toBe(false);
      expect(c.zone).toEqual([]);
    });

    it.each<[Record<string, string>, string]>([
      [{ ZW_TEST_CONCURRENCY: 'many' }, 'environment ZW_TEST_CONCURRENCY: expected a whole number from 1 to 64, got "many"'],
      [{ ZW_TEST_CONCURRENCY: '100' }, 'environment ZW_TEST_CONCURRENCY: expected a whole number from 1 to 64, got "100"'],
      [{ ZW_TEST_QUIET: 'yes' }, 'environment ZW_TEST_QUIET: expected true or false, got "yes"'],
    ])('names the variable when its value is wrong: %j', async (env, message) => {
      const { loadConfig: typedLoad, ConfigError: TypedConfigError } = await typedLoader();
      expect(() => typedLoad({ flags: {}, env, cwd: tempDir() })).toThrow(new TypedConfigError(message));
    });
  });
});

describe('coerce', () => {
  const integer: OptionDef = { key: 'n', flag: 'n', type: 'integer', min: 1, max: 10, help: '' };
  const number: OptionDef = { key: 'x', flag: 'x', type: 'number', help: '' };
  const boolean: OptionDef = { key: 'b', flag: 'b', type: 'boolean', help: '' };
  const list: OptionDef = { key: 'l', flag: 'l', type: 'list', help: '' };
  const choice: OptionDef = { key: 'c', flag: 'c', type: 'string', choices: ['a', 'b'], help: '' };

  it.each<[string, OptionDef, unknown, unknown]>([
    ['integer', integer, '7', 7],
    ['integer', integer, ' 7 ', 7],
    ['integer', integer, 10, 10],
    ['number', number, '2.5', 2.5],
    ['number', number, '-3', -3],
    ['boolean', boolean, 'true', true],
    ['boolean', boolean, '1', true],
    ['boolean', boolean, 'false', false],
    ['boolean', boolean, '0', false],
    ['boolean', boolean, false, false],
    ['list', list, 'a, b ,,c', ['a', 'b', 'c']],
    ['list', list, ['x'], ['x']],
    ['choice', choice, 'b', 'b'],
  ])('parses a %s from %j to %j', (_type, def, raw, expected) => {
    expect(coerce(def, raw, 'src')).toEqual(expected);
  });

  it.each<[string, OptionDef, unknown, string]>([
    ['integer', integer, '', 'src: expected a whole number from 1 to 10, got ""'],
    ['integer', integer, '   ', 'src: expected a whole number from 1 to 10, got "   "'],
    ['integer', integer, '7.5', 'src: expected a whole number from 1 to 10, got "7.5"'],
    ['integer', integer, '11', 'src: expected a whole number from 1 to 10, got "11"'],
    ['integer', integer, 'NaN', 'src: expected a whole number from 1 to 10, got "NaN"'],
    ['number', number, 'Infinity', 'src: expected a number, got "Infinity"'],
    ['boolean', boolean, 'TRUE', 'src: expected true or false, got "TRUE"'],
    ['boolean', boolean, 1, 'src: expected true or false, got 1'],
    ['list', list, 5, 'src: expected a list of strings, got 5'],
    ['choice', choice, 'c', 'src: expected one of a, b, got "c"'],
  ])('refuses a %s from %j', (_type, def, raw, message) => {
    expect(() => coerce(def, raw, 'src')).toThrow(new ConfigError(message));
  });

  it('freezes a list and copies it, so the caller cannot change the config through its array', () => {
    const raw = ['a'];
    const out = coerce(list, raw, 'src') as string[];
    expect(Object.isFrozen(out)).toBe(true);
    raw.push('b');
    expect(out).toEqual(['a']);
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
