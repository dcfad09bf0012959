import { describe, expect, it } from 'vitest';
import dnsOriginExposed from '../../rules/dns-origin-exposed.js';
import invitePending from '../../rules/invite-pending.js';
import { runAudit } from '../../src/audit/audit.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import type { Waiver } from '../../src/policy/waivers.js';
import { OCSF_VERSION, ocsfEvent, writeOcsf } from '../../src/report/ocsf.js';
import type { ScanRow } from '../../src/snapshot/reader.js';
import { snapshotOf, type Item } from '../support/snapshot-fixture.js';
import { STAND_INS } from '../support/stand-ins.js';

/**
 * `--format ocsf`: each line an OCSF Compliance Finding, checked against the class's required
 * attributes and enumerations as OCSF schema 1.3.0 defines them (schema.ocsf.io, class
 * compliance_finding, uid 2003, and the objects it requires).
 */

// OCSF 1.3.0: required attributes of the Base Event and of Compliance Finding (finding_info from the Findings category, compliance from the class).
const REQUIRED = ['activity_id', 'category_uid', 'class_uid', 'compliance', 'finding_info', 'metadata', 'severity_id', 'time', 'type_uid'];
// Required attributes of the objects those hold.
const REQUIRED_IN = {
  metadata: ['product', 'version'],
  'metadata.product': ['vendor_name'],
  finding_info: ['uid', 'title'],
  'finding_info.analytic': ['type_id'],
  compliance: ['standards'],
  remediation: ['desc'],
} as const;
// Enumerations: severity_id (0-6, 99), Compliance Finding activity_id (0 Unknown, 1 Create, 2 Update, 3 Close, 99 Other),
// finding status_id (0 Unknown, 1 New, 2 In Progress, 3 Suppressed, 4 Resolved, 5 Archived, 99 Other), compliance status_id (0 Unknown, 1 Pass, 2 Warning, 3 Fail, 99 Other).
const ENUMS = { severity_id: [0, 1, 2, 3, 4, 5, 6, 99], activity_id: [0, 1, 2, 3, 99], status_id: [0, 1, 2, 3, 4, 5, 99], 'compliance.status_id': [0, 1, 2, 3, 99] };

const get = (o: Record<string, unknown>, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);

let seq = 0;
const record = (name: string, content: string, proxied: boolean): Item => ({ id: `rec${String(++seq).padStart(29, '0')}`, type: 'A', name, content, proxied, ttl: 1 });
const exposed = (zone: string) => [record(zone, '203.0.113.10', true), record(`direct.${zone}`, '203.0.113.10', false)];

function events(keepPasses = false): Array<Record<string, unknown>> {
  const { reader, db } = snapshotOf({
    invites: [{ id: 'inv00000000000000000000000000001', organization_name: 'Other <Org>', status: 'pending', roles: ['Administrator'], expires_on: '2026-12-01T00:00:00Z', invited_on: '2026-10-01T00:00:00Z' }],
    zones: [
      { name: 'a.example', dnsRecords: exposed('a.example') },
      { name: 'b.example', unread: { dns_records: 'denied' } },
      { name: 'c.example', dnsRecords: exposed('c.example') },
      { name: 'd.example', dnsRecords: [record('d.example', '198.51.100.4', true)] },
    ],
  });
  const rules = loadCatalogue([dnsOriginExposed, invitePending]);
  const waiver: Waiver = { index: 1, rule: 'dns-origin-exposed', zone: 'c.example', resource: null, reason: 'lab', owner: 'net@example.com', expires: '2027-01-01', expiresAt: new Date('2027-01-01'), acknowledge: ['critical'] };
  // issue 32 item 5: a critical failure is waived only by a waiver that acknowledges it (its severity is raised to critical here).
  const result = runAudit(reader, activeRules(rules, { 'dns-origin-exposed': { severity: 'critical', options: { standIns: STAND_INS } } }), [waiver], { keepPasses });
  let text = '';
  writeOcsf(result.findings, reader.scan, rules, (t) => (text += t));
  db.close();
  expect(text.endsWith('\n')).toBe(true);
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

const SCAN = { id: 1, startedAt: '2026-11-01T12:00:00.000Z' } as ScanRow;

describe('OCSF findings', () => {
  const all = events();
  const byStatus = (status: string) => all.filter((e) => get(e, 'unmapped.zonewarden.status') === status);

  it('writes one event per stored finding: failing, unknown and waived', () => {
    expect(all.map((e) => get(e, 'unmapped.zonewarden.status')).sort()).toEqual(['fail', 'fail', 'unknown', 'waived']);
  });

  it('has every attribute the Compliance Finding class requires, with values of its enumerations', () => {
    for (const e of all) {
      for (const key of REQUIRED) expect(e, key).toHaveProperty(key);
      for (const [object, keys] of Object.entries(REQUIRED_IN)) {
        const value = get(e, object);
        if (object === 'remediation' && value === undefined) continue;
        for (const key of keys) expect(value, `${object}.${key}`).toHaveProperty(key);
      }
      for (const [path, values] of Object.entries(ENUMS)) expect(values, path).toContain(get(e, path));
      expect(e['class_uid']).toBe(2003);
      expect(e['category_uid']).toBe(2);
      expect(e['type_uid']).toBe((e['class_uid'] as number) * 100 + (e['activity_id'] as number));
      expect(get(e, 'metadata.version')).toBe(OCSF_VERSION);
      expect(Number.isInteger(e['time'])).toBe(true);
      // OCSF 1.3.0 compliance object (schema.ocsf.io/1.3.0/objects/compliance): control, requirements, standards (required),
      // status, status_code, status_detail, status_id; standards and requirements are arrays of strings.
      const compliance = e['compliance'] as Record<string, unknown>;
      for (const key of Object.keys(compliance)) expect(['control', 'requirements', 'standards', 'status', 'status_code', 'status_detail', 'status_id'], key).toContain(key);
      expect((compliance['standards'] as unknown[]).every((x) => typeof x === 'string')).toBe(true);
      expect((compliance['requirements'] as unknown[] | undefined)?.every((x) => typeof x === 'string') ?? true).toBe(true);
    }
  });

  // Issue 32 item 6: the compliance object names the frameworks and controls the rule gives evidence for.
  it('names the frameworks as standards and their controls as requirements, the rule as the control', () => {
    const f = byStatus('fail').find((e) => get(e, 'unmapped.zonewarden.rule') === 'dns-origin-exposed')!;
    expect(f['compliance']).toEqual({ control: 'dns-origin-exposed', standards: ['PCI DSS 4.0', 'NIST SP 800-53 r5'], requirements: ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], status_id: 3, status: 'Fail' });
  });

  it('makes a rule mapped to no framework its own standard, with no requirements', () => {
    const invite = byStatus('fail').find((e) => get(e, 'unmapped.zonewarden.rule') === 'invite-pending')!;
    expect(invite['compliance']).toEqual({ control: 'invite-pending', standards: ['zonewarden'], status_id: 3, status: 'Fail' });
    const event = ocsfEvent({ rule: 'development-mode-on', category: 'zone', severity: 'low', status: 'fail', account: null, zone: null, resource: { type: 'zone', id: 'z', name: null }, message: 'm', messageId: 'm', data: {}, fingerprint: 'f'.repeat(32) }, SCAN, undefined);
    expect(event['compliance']).toEqual({ control: 'development-mode-on', standards: ['zonewarden'], status_id: 3, status: 'Fail' });
  });

  // Issue 32 item 6: pass rows on request; OCSF status Pass.
  it('exports passing verdicts when asked: finding status Resolved, compliance status Pass, with the controls', () => {
    const withPasses = events(true);
    const passes = withPasses.filter((e) => get(e, 'unmapped.zonewarden.status') === 'pass');
    expect(passes.length).toBeGreaterThan(0);
    expect(withPasses.length).toBe(all.length + passes.length);
    for (const p of passes) {
      expect(p).toMatchObject({ status_id: 4, status: 'Resolved' });
      expect(get(p, 'compliance.status_id')).toBe(1);
      expect(get(p, 'compliance.status')).toBe('Pass');
      expect(p['remediation']).toBeUndefined();
    }
    // The clean zone passes; the zone whose records were not read does not.
    const zones = passes.map((p) => (get(p, 'unmapped.zonewarden.zone') as { name: string } | null)?.name);
    expect(zones).toContain('d.example');
    expect(zones).not.toContain('b.example');
    const pass = passes.find((p) => get(p, 'unmapped.zonewarden.rule') === 'dns-origin-exposed')!;
    expect(get(pass, 'compliance.requirements')).toEqual(['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7']);
    expect(get(pass, 'severity_id')).toBe(5);
  });

  it('maps a failure: severity as configured, status New, compliance Fail, the resource and its zone, the remediation, the raw data unmapped', () => {
    const f = byStatus('fail').find((e) => get(e, 'unmapped.zonewarden.rule') === 'dns-origin-exposed')!;
    expect(f).toMatchObject({ severity_id: 5, severity: 'Critical', status_id: 1, status: 'New', time: Date.parse('2026-11-01T12:00:00.000Z') });
    expect(f['compliance']).toMatchObject({ control: 'dns-origin-exposed', status_id: 3, status: 'Fail' });
    expect(get(f, 'finding_info.title')).toBe(dnsOriginExposed.meta.title);
    expect(get(f, 'finding_info.analytic')).toEqual({ uid: 'dns-origin-exposed', name: 'dns-origin-exposed', type_id: 1, type: 'Rule' });
    expect(get(f, 'remediation.desc')).toBe(dnsOriginExposed.meta.remediation);
    expect((f['resources'] as Array<Record<string, unknown>>).map((r) => [r['type'], r['name']])).toEqual([
      ['dns_record', 'direct.a.example'],
      ['zone', 'a.example'],
    ]);
    expect(get(f, 'unmapped.zonewarden.data')).toMatchObject({ exposes: 'a.example', content: '203.0.113.10' });
    expect(get(f, 'finding_info.uid')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('maps a waived failure as Suppressed with its waiver, and an unknown as compliance Unknown', () => {
    const waived = byStatus('waived')[0]!;
    expect(waived).toMatchObject({ status_id: 3, status: 'Suppressed', status_detail: 'waived until 2027-01-01 by net@example.com: lab' });
    expect(get(waived, 'compliance.status_id')).toBe(3);
    const unknown = byStatus('unknown')[0]!;
    expect(unknown).toMatchObject({ status_id: 1 });
    expect(get(unknown, 'compliance')).toMatchObject({ status_id: 0, status: 'Unknown' });
    expect((unknown['resources'] as unknown[]).length).toBe(1);
  });

  it('maps an organisation rule with its own severity', () => {
    const invite = byStatus('fail').find((e) => get(e, 'unmapped.zonewarden.rule') === 'invite-pending')!;
    expect(invite['severity_id']).toBe({ critical: 5, high: 4, medium: 3, low: 2, info: 1 }[invitePending.meta.severity]);
    expect(get(invite, 'unmapped.zonewarden.zone')).toBeNull();
  });
});
