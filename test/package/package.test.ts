import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { VENDOR_BASE_URL } from '../../src/config/options.js';
import { catalogue, rulesFor } from '../../src/policy/catalogue.js';
import { notificationSettings } from '../../src/schedule/notifications/settings.js';

/**
 * The package as npm packs it: only what runs, the licence it declares, and the service page's systemd
 * unit and config example as shipped and valid. (.ci/check-package installs the tarball into an
 * empty prefix and runs it; that takes a minute of compiling, so it is a CI step, not a test.)
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The guide's page on running the service, which shows the unit and a config file. */
const SERVICE_PAGE = readFileSync(join(ROOT, 'docs/service.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string; files: string[]; bin: Record<string, string>; exports: Record<string, unknown> };

function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
}

/** docs/service.md's block of the given language that follows `after`. */
function block(lang: string, after: string): string {
  const from = SERVICE_PAGE.indexOf(after);
  expect(from, after).toBeGreaterThan(-1);
  const start = SERVICE_PAGE.indexOf(`\`\`\`${lang}\n`, from) + lang.length + 4;
  return SERVICE_PAGE.slice(start, SERVICE_PAGE.indexOf('```\n', start));
}

describe('the package', () => {
  const files = packedFiles();

  it('ships what runs: the CLI, the rules, the templates, the rule API with its types, docs, the unit and the licence', () => {
    for (const f of [pkg.bin['zonewarden']!, 'dist/rules/index.js', 'dist/src/emulator/datasets/demo.js', 'templates/report.html.hbs', 'templates/report.js', 'dist/src/rules-api/index.js', 'dist/src/rules-api/index.d.ts', 'dist/src/rules-api/testing.js', 'docs/custom-rules.md', 'docs/api-surface.md', 'docs/service.md', 'systemd/zonewarden.service', 'LICENSE', 'README.md', 'package.json']) {
      expect(files, f).toContain(f);
    }
  });

  it('ships no tests, benchmarks, sources, source maps or build configuration', () => {
    const stray = files.filter((f) => /^(test|bench|src|rules|\.ci)\/|^dist\/(test|bench)\/|\.map$|^tsconfig|^vitest|BENCHMARKS/.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')));
    expect(stray).toEqual([]);
    // A bound that catches a stray directory, not a count to chase: 60 rules, the vendor's model
    // (one folder per API area) and the crawler's parts and read modules, with their compiled
    // modules and type declarations, the bundled CLI's 50-odd files (dist/cli), and the user
    // guide's 30-odd pages, are some 860 files; a stray test or bench directory adds hundreds.
    expect(files.length).toBeLessThan(1000);
  });

  it('carries the MIT licence text it declares', () => {
    expect(pkg.license).toBe('MIT');
    const licence = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
    expect(licence).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
  });

  it('exports the rule API and its tester, whose files are shipped', () => {
    for (const entry of ['./rules', './rules/testing']) {
      const target = pkg.exports[entry] as { types: string; default: string };
      expect(files).toContain(target.default.replace(/^\.\//, ''));
      expect(files).toContain(target.types.replace(/^\.\//, ''));
    }
  });
});

describe('the rule API types', () => {
  it('type-check a rule written in TypeScript against zonewarden/rules, and catch a wrong call', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-typed-rule-'));
    mkdirSync(join(dir, 'node_modules'));
    mkdirSync(join(dir, 'src'));
    // The package as a rules project would have it installed; @types/node from this checkout.
    symlinkSync(ROOT, join(dir, 'node_modules', 'zonewarden'));
    symlinkSync(join(ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'));
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['src'] }),
    );
    writeFileSync(
      join(dir, 'src', 'acme-zone-paused.ts'),
      `import { defineRule } from 'zonewarden/rules';
export default defineRule({
  meta: { id: 'acme-zone-paused', title: 't', description: 'd', severity: 'low', category: 'zone', scope: 'zone', resource: 'zone',
    messages: { paused: '{{zone}} is paused' }, remediation: 'r', references: [], optionHelp: { days: 'days' } },
  defaultOptions: { days: 3 },
  check(ctx) {
    const days: number = ctx.options.days;
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    ctx.fail(ctx.zone.resource, 'paused', WRONG);
    if (days > records.items.length) ctx.pass();
  },
});
`,
    );
    const tsc = (data: string) => {
      const file = join(dir, 'src', 'acme-zone-paused.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/WRONG|\{ zone: 'x' \}|5/, data));
      return spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    };
    const wrong = tsc('5');
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/acme-zone-paused\.ts\(10,\d+\): error TS2345: Argument of type .number. is not assignable to parameter of type .Record<string, unknown>./);
    const right = tsc("{ zone: 'x' }");
    expect(right.stdout).toBe('');
    expect(right.status).toBe(0);
  });
});

describe('the systemd service of the README and docs/service.md', () => {
  const unit = readFileSync(join(ROOT, 'systemd/zonewarden.service'), 'utf8');

  it('shows the unit file the package ships', () => {
    expect(block('ini', '`/etc/systemd/system/zonewarden.service`')).toBe(unit);
    expect(unit).toMatch(/^ExecStart=\/opt\/zonewarden\/bin\/zonewarden schedule .* --config \/etc\/zonewarden\/config\.json$/m);
    for (const page of [README, SERVICE_PAGE]) {
      expect(page).toContain('sudo npm install --global --prefix /opt/zonewarden ./zonewarden-0.1.0.tgz');
      expect(page).toContain('sudo cp /opt/zonewarden/lib/node_modules/zonewarden/systemd/zonewarden.service /etc/systemd/system/');
    }
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it.skipIf(!analyze)('is a unit systemd-analyze verify accepts without a warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-unit-'));
    const path = join(dir, 'zonewarden.service');
    // verify checks that ExecStart is executable: the installed binary stands in for /opt/zonewarden/bin/zonewarden.
    writeFileSync(path, unit.replace('/opt/zonewarden/bin/zonewarden', process.execPath));
    const r = spawnSync('systemd-analyze', ['verify', path], { encoding: 'utf8' });
    expect({ status: r.status, output: `${r.stdout}${r.stderr}`.trim() }).toEqual({ status: 0, output: '' });
  });

  it.skipIf(!analyze)('takes the drop-in of docs/monitoring.md (the metrics file for the node exporter) without a warning', () => {
    const page = readFileSync(join(ROOT, 'docs/monitoring.md'), 'utf8');
    const dropIn = /in the drop-in that opens[^\n]*\n[^`]*```ini\n([\s\S]*?)```/.exec(page)?.[1];
    expect(dropIn).toMatch(/^Environment=ZONEWARDEN_METRICS_FILE=\/var\/lib\/prometheus\/node-exporter\/zonewarden\.prom$/m);
    expect(dropIn).toMatch(/^ReadWritePaths=\/var\/lib\/prometheus\/node-exporter$/m);
    const dir = mkdtempSync(join(tmpdir(), 'zw-unit-'));
    mkdirSync(join(dir, 'zonewarden.service.d'));
    writeFileSync(join(dir, 'zonewarden.service'), unit.replace('/opt/zonewarden/bin/zonewarden', process.execPath));
    writeFileSync(join(dir, 'zonewarden.service.d', 'override.conf'), dropIn!);
    // The unit's own directory first on the search path, so that verify reads its drop-in (an unknown key there warns).
    const r = spawnSync('systemd-analyze', ['verify', join(dir, 'zonewarden.service')], { encoding: 'utf8', env: { ...process.env, SYSTEMD_UNIT_PATH: `${dir}:` } });
    expect({ status: r.status, output: `${r.stdout}${r.stderr}`.trim() }).toEqual({ status: 0, output: '' });
  });

  it('has a config file example that loads as the service reads it, with its rules and notifications', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-config-'));
    const path = join(dir, 'config.json');
    writeFileSync(path, block('json', '`/etc/zonewarden/config.json` holds the settings'));
    const config = loadConfig({ flags: { config: path }, env: {}, cwd: dir });
    // No baseUrl in the example: the service talks to the vendor's API, the default.
    expect(config.baseUrl).toBe(VENDOR_BASE_URL);
    expect(config.budget).toBe(600);
    expect(rulesFor(config).find((r) => r.rule.meta.id === 'certificate-expiry')?.options['tiers']).toMatchObject({ high: 14, critical: 0 });
    expect(catalogue().size).toBeGreaterThan(0);
    const notifications = notificationSettings(config.notifications, { ZONEWARDEN_SLACK_WEBHOOK: 'https://hooks.example.com/T1' }, path);
    expect(notifications.webhooks).toHaveLength(1);
  });
});
