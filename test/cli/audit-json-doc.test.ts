import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeAuditJson } from '../../src/report/findings-json.js';
import { runAudit } from '../../src/audit/audit.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import { parseWaivers } from '../../src/policy/waivers.js';
import zoneNotActive from '../../rules/zone-not-active.js';
import { snapshotOf } from '../support/snapshot-fixture.js';

/** docs/audit-json.md documents every field the audit's JSON has, at the top level and in a finding. */
describe('the audit JSON schema document', () => {
  const doc = readFileSync(new URL('../../docs/audit-json.md', import.meta.url), 'utf8');
  const { reader, db } = snapshotOf({ zones: [{ name: 'a.example', paused: true }, { name: 'b.example', paused: true }, { name: 'c.example' }] });
  const waivers = parseWaivers('- {rule: zone-not-active, zone: b.example, reason: r, owner: o, expires: 2027-01-01}', 'w', ['zone-not-active'], 'yaml');
  const result = runAudit(reader, activeRules(loadCatalogue([zoneNotActive])), waivers);
  db.close();
  let text = '';
  // A trial, as `audit` stores one when the waivers differ from the official audit's.
  const audit = { auditId: 12, trial: 'waivers differ from the nightly audit of scan 6' };
  writeAuditJson(result, result.findings, { failOn: 'none', exitCode: 0, audit }, (t) => (text += t));
  const json = JSON.parse(text) as Record<string, unknown> & { findings: Array<Record<string, unknown>>; audit: Record<string, unknown> };

  it.each(Object.keys(json))('documents the top-level field %s', (key) => {
    expect(doc).toMatch(new RegExp(`^\\| \`${key}\` \\|`, 'm'));
  });

  it('documents the fields of `audit`, which CI reads the audit\'s id from', () => {
    expect(json.audit).toEqual({ id: 12, trial: true, reason: audit.trial });
    const row = doc.split('\n').find((line) => line.startsWith('| `audit` |'))!;
    for (const key of Object.keys(json.audit)) expect(row, key).toContain(`\`${key}\``);
  });

  it('documents every field of a finding, waived ones included', () => {
    const keys = new Set(json.findings.flatMap((f) => Object.keys(f)));
    expect([...keys].sort()).toContain('waiver');
    for (const key of keys) expect(doc, key).toMatch(new RegExp(`^\\| \`${key}\` \\|`, 'm'));
  });

  it('names the schema it documents', () => {
    expect(json['schema']).toBe('zonewarden.audit/1');
    expect(doc.split('\n')[0]).toContain(json['schema'] as string);
  });
});
