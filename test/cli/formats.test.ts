import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { runCli } from '../support/cli.js';

/** OCSF and JUnit from the built CLI, on the demo organisation's scan: `audit --format` and `report --format`. */

let dir: string;
let db: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-formats-'));
  const demo = await runCli(['demo', '--out', join(dir, 'demo'), '--quiet']);
  expect(demo.code, demo.stderr).toBe(0);
  db = join(dir, 'demo', 'zonewarden-demo.db');
});

describe('OCSF and JUnit output', () => {
  it('audit --format ocsf prints one Compliance Finding per failing, unknown or waived finding, keeping the exit code of --fail-on', async () => {
    const json = await runCli(['audit', '--db', db, '--format', 'json']);
    const stored = (JSON.parse(json.stdout) as { findings: unknown[] }).findings.length;
    const r = await runCli(['audit', '--db', db, '--format', 'ocsf', '--fail-on', 'high']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { class_uid: number; remediation?: { desc: string } });
    expect(lines).toHaveLength(stored);
    expect(lines.every((e) => e.class_uid === 2003 && e.remediation?.desc)).toBe(true);
  });

  it('audit --format junit prints a suite per rule', async () => {
    const r = await runCli(['audit', '--db', db, '--format', 'junit']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="zonewarden scan 1" tests="\d+" failures="[1-9]\d*" /);
    expect(r.stdout.match(/<testsuite /g)?.length).toBe(RULES.length);
  });

  it('report --format ocsf,junit writes findings.ocsf.jsonl and junit.xml, and the index links them', async () => {
    const out = join(dir, 'reports');
    const r = await runCli(['report', '--db', db, '--format', 'ocsf,junit', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const [ocsf, junit, index] = r.stdout.trimEnd().split('\n');
    expect(ocsf).toMatch(/findings\.ocsf\.jsonl$/);
    expect(junit).toMatch(/junit\.xml$/);
    expect(readFileSync(ocsf!, 'utf8').split('\n')[0]).toMatch(/^\{"class_uid":2003,/);
    expect(readFileSync(junit!, 'utf8')).toContain('<testsuite name="certificate-expiry"');
    expect(readFileSync(index!, 'utf8')).toContain('junit.xml');
  });

  it('report --format names the formats when one is unknown', async () => {
    const r = await runCli(['report', '--db', db, '--format', 'sarif']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--format takes a comma-separated list of html, md, json, csv, ocsf, junit; got "sarif"');
  });
});
