import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../src/cli/output/diff-json.js';
import type { DriftResult } from '../../src/drift/index.js';
import { RESOURCE_TYPES } from '../../src/drift/resources.js';
import { FINDING_CHANGES, FINDING_STEADY } from '../../src/drift/result.js';

/** docs/diff-json.md documents every field of the diff's JSON, at every level. */
describe('the diff JSON schema document', () => {
  const doc = readFileSync(new URL('../../docs/diff-json.md', import.meta.url), 'utf8');
  const scan = { id: 1, startedAt: '2026-11-20T02:00:00.000Z', finishedAt: '2026-11-20T02:10:00.000Z', status: 'complete' as const, scope: { accounts: [], zones: [] }, audit: { id: 1, trial: null } };
  const zone = { id: 'z1', name: 'shop.example' };
  // Every optional field present, so that every key is seen.
  const drift: DriftResult = {
    from: scan,
    to: { ...scan, id: 2 },
    baseline: { id: 1, scanId: 1, acceptedAt: '2026-11-20T08:00:00.000Z', note: 'approved' },
    findings: {
      counts: Object.fromEntries([...FINDING_CHANGES, ...FINDING_STEADY].map((k) => [k, 1])) as DriftResult['findings']['counts'],
      changes: [
        {
          change: 'severity-changed',
          fingerprint: 'f',
          rule: 'certificate-expiry',
          category: 'tls',
          severity: 'critical',
          previousSeverity: 'high',
          before: 'fail',
          after: 'fail',
          account: { id: 'a', name: 'Acme' },
          zone,
          resource: { type: 'certificate', id: 'c', name: 'shop.example' },
          message: 'm',
        },
      ],
      rulesNotCompared: ['scan-coverage'],
    },
    configuration: {
      counts: { certificate: { added: 0, removed: 0, changed: 1, unknown: 0 } },
      changes: [
        { change: 'changed', type: 'certificate', id: 'c', name: 'shop.example', zone, parent: { type: 'certificate_pack', id: 'p' }, fields: [{ field: 'expires_on', before: 'x', after: 'y' }] },
        { change: 'added', type: 'zone', id: 'z2', name: 'new.example', zone: { id: 'z2', name: 'new.example' }, contents: { dns_record: 3 } },
      ],
      unknown: [{ change: 'unknown', type: 'firewall_rule', zone, scan: 2, state: 'failed', reason: 'r', resources: [{ id: 'r1', name: 'Block bots' }] }],
      ignoredChanges: 1,
      ignore: ['*.modified_on'],
      zonesOutsideScope: [zone],
    },
    changed: true,
    partial: true,
  };
  const json = JSON.parse(diffJson(drift, 1)) as Record<string, unknown>;
  const documented = (key: string) => expect(doc, key).toMatch(new RegExp(`^\\| \`${key}\` \\|`, 'm'));

  it.each(Object.keys(json))('documents the top-level field %s', documented);
  it.each(Object.keys(drift.findings))('documents the findings field %s', documented);
  it.each(Object.keys(drift.configuration))('documents the configuration field %s', documented);
  it.each([...new Set([...drift.findings.changes, ...drift.configuration.changes, ...drift.configuration.unknown].flatMap((c) => Object.keys(c)))])('documents the entry field %s', documented);

  it('names every finding change kind and resource type', () => {
    for (const kind of [...FINDING_CHANGES, ...FINDING_STEADY]) expect(doc, kind).toContain(`\`${kind}\``);
    for (const type of RESOURCE_TYPES) expect(doc, type).toContain(`\`${type}\``);
  });

  it('names the schema it documents', () => {
    expect(json['schema']).toBe('zonewarden.diff/1');
    expect(doc.split('\n')[0]).toContain(json['schema'] as string);
  });
});
