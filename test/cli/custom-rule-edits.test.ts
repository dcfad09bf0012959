import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../support/cli.js';
import { emulatorsClosedAfterEach, TOKEN } from '../support/http.js';

/**
 * A custom rule edited outside its `check` (a constant at the top of its file, a helper in its
 * directory) is another rule: the next night's audit judges with the edited rule, and an audit of
 * an earlier scan with it is a trial, never a rewrite of that night's audit. What the nightly audit
 * stores must equal a fresh `audit` of the same scan. The built CLI in its own
 * process: Node's module hooks load the rules (npm run test:full).
 */

const emulator = emulatorsClosedAfterEach();

/** Fails each DNS record whose content starts with PREFIX, a constant its check() only names. */
const RULE = (prefixFrom: string) => `${prefixFrom}
export default {
  meta: {
    id: 'acme-in-range', title: 'No record points into the range', description: 'Why it matters.', severity: 'low',
    category: 'dns', scope: 'zone', resource: 'dns_record', messages: { inRange: '{{name}} points into the range' },
    remediation: 'Move it.', references: [],
  },
  defaultOptions: {},
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    let found = 0;
    for (const r of records.items) {
      if (r.content === null || !r.content.startsWith(PREFIX)) continue;
      found++;
      ctx.fail({ type: 'dns_record', id: r.id, name: r.name }, 'inRange', { name: r.name ?? r.id });
    }
    if (found === 0) ctx.pass();
  },
};
`;

interface Doc {
  findings: Array<{ rule: string; fingerprint: string; status: string; message: string }>;
}
const lines = (d: Doc) => d.findings.map((f) => `${f.rule} ${f.fingerprint} ${f.status} ${f.message}`).sort();
const ofRule = (d: Doc) => d.findings.filter((f) => f.rule === 'acme-in-range');

describe('a custom rule edited outside its check()', () => {
  for (const where of ['a constant at the top of its file', 'a helper file it imports'] as const) {
    it(`judges with the edited rule: ${where}`, async () => {
      const emu = await emulator({ dataset: 'generated', generated: { seed: 8, accounts: 2, zones: 24, records: 720 } });
      const dir = mkdtempSync(join(tmpdir(), 'zw-rule-edit-'));
      const rules = join(dir, 'rules');
      mkdirSync(join(rules, 'lib'), { recursive: true });
      const setPrefix = (prefix: string) => {
        if (where === 'a helper file it imports') {
          writeFileSync(join(rules, 'lib', 'range.js'), `export const PREFIX = '${prefix}';\n`);
          writeFileSync(join(rules, 'acme-in-range.js'), RULE("import { PREFIX } from './lib/range.js';"));
        } else writeFileSync(join(rules, 'acme-in-range.js'), RULE(`const PREFIX = '${prefix}';`));
      };
      const db = join(dir, 'zonewarden.db');
      const env = { ZONEWARDEN_API_TOKEN: TOKEN };
      const reports = join(dir, 'reports');
      const common = ['--db', db, '--rules-dir', rules];
      const run = () => runCliProcess(['run', ...common, '--quiet', '--base-url', emu.url, '--budget', '1000000', '--per-second', '0', '--out', reports], env);

      setPrefix('198.51.100.');
      expect((await run()).code).not.toBe(2);
      const before = findingsOf(reports, 1);
      setPrefix('203.0.113.');
      emu.night({ share: 0.05, seed: 1 });
      expect((await run()).code).not.toBe(2);

      // What the night's audit stored (its report), against the same scan judged afresh by the edited rule.
      const stored = findingsOf(reports, 2);
      const fresh = JSON.parse((await runCliProcess(['audit', ...common, '--quiet', '--scan', '2', '--format', 'json'], env)).stdout) as Doc;
      // The edit changed what the rule finds: else this would test nothing.
      expect(ofRule(before).length).toBeGreaterThan(0);
      expect(ofRule(fresh).map((f) => f.message).sort()).not.toEqual(ofRule(before).map((f) => f.message).sort());
      expect(lines(stored)).toEqual(lines(fresh));

      // Auditing the first night again with the edited rule is a trial: that night's official audit stays as it was.
      const again = await runCliProcess(['audit', ...common, '--scan', '1', '--format', 'json'], env);
      expect(again.stderr).toMatch(/^stored as audit \d+ \(trial: /m);
      const official = join(dir, 'official');
      expect((await runCliProcess(['report', '--db', db, '--scan', '1', '--format', 'json', '--out', official, '--quiet'], env)).code).toBe(0);
      expect(lines(findingsOf(official, 1))).toEqual(lines(before));
    });
  }
});

/** The findings.json of a scan's report under `out`. */
function findingsOf(out: string, scan: number): Doc {
  const dir = readdirSync(out).find((d) => d.endsWith(`-scan-${scan}`));
  if (!dir) throw new Error(`no report of scan ${scan} in ${out}: ${readdirSync(out).join(', ')}`);
  return JSON.parse(readFileSync(join(out, dir, 'findings.json'), 'utf8')) as Doc;
}
