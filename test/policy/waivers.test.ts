import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/policy/findings.js';
import { applyWaivers, auditWithinLimits, heldWaiverWarnings, loadWaivers, parseWaivers, WaiverError, WaiverSet, type Waiver } from '../../src/policy/waivers.js';
import { thrownBy } from '../support/errors.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');
const RULES = ['certificate-expiry', 'dns-private-address', 'dns-origin-exposed', 'zone-not-active'];

function finding(rule: string, zone: string, resource: { type: string; id: string; name: string | null }, status: Finding['status'] = 'fail'): Finding {
  return {
    rule,
    category: 'dns',
    severity: 'medium',
    status,
    account: null,
    zone: { id: `id-${zone}`, name: zone },
    resource,
    message: 'm',
    messageId: status === 'fail' ? 'm' : null,
    data: {},
    fingerprint: `${rule}/${zone}/${resource.id}`,
  };
}

// The file is read a few days after the scan; waiverMaxDays (default 90) counts from that day.
const READ_ON = new Date('2026-11-05T09:00:00Z');
const yaml = (text: string) => parseWaivers(text, 'w.yaml', RULES, 'yaml', { now: READ_ON });

describe('waivers file', () => {
  it('reads YAML lists and JSON objects with a waivers list', () => {
    const fromYaml = yaml(`
- rule: dns-*
  zone: "*.example.com"
  reason: lab addresses, by design
  owner: net-team
  expires: 2027-01-31
`);
    expect(fromYaml).toEqual([
      expect.objectContaining({ index: 1, rule: 'dns-*', zone: '*.example.com', resource: null, expires: '2027-01-31', expiresAt: new Date('2027-02-01T00:00:00Z') }),
    ]);
    const fromJson = parseWaivers(
      JSON.stringify({ waivers: [{ rule: 'zone-not-active', resource: 'abc', reason: 'r', owner: 'o', expires: '2026-12-01T08:00:00Z' }] }),
      'w.json',
      RULES,
      'json',
    );
    expect(fromJson[0]?.expiresAt).toEqual(new Date('2026-12-01T08:00:00Z'));
    expect(yaml('')).toEqual([]);
  });

  it('loads by extension and names the file when it cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-waivers-'));
    writeFileSync(join(dir, 'w.json'), '[{"rule": "zone-*", "zone": "a", "reason": "r", "owner": "o", "expires": "2027-01-01"}]');
    expect(loadWaivers(join(dir, 'w.json'), RULES)).toHaveLength(1);
    expect(thrownBy(() => loadWaivers(join(dir, 'missing.yaml'), RULES), WaiverError).message).toBe(`waivers file ${join(dir, 'missing.yaml')}: cannot read it (ENOENT)`);
  });

  it.each([
    ['rule: x', 'expected a list of waivers, or an object with a "waivers" list'],
    ['- just a string', 'waiver 1: expected an object with rule, zone, resource, reason, owner, expires, acknowledge'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o}', 'waiver 1: "expires" is required'],
    ['- {zone: a, reason: r, owner: o, expires: 2027-01-01}', 'waiver 1: "rule" is required'],
    ['- {rule: zone-not-active, reason: r, owner: o, expires: 2027-01-01}', 'give "zone" or "resource"'],
    ['- {rule: zone-not-active, zone: a, reason: "", owner: o, expires: 2027-01-01}', '"reason" must be a non-empty string'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2027-02-30}', '"expires" must be a date like 2027-01-31'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: next week}', '"expires" must be a date'],
    ['- {rule: zone-not-actve, zone: a, reason: r, owner: o, expires: 2027-01-01}', 'rule "zone-not-actve" matches no rule; zonewarden rules lists them'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2027-01-01, until: x}', 'unknown key "until"'],
    ['- {rule: a, rule: b}', 'not valid YAML'],
    ['- [unclosed', 'not valid YAML'],
  ])('refuses %s', (text, message) => {
    const err = thrownBy(() => yaml(text), WaiverError);
    expect(err.message).toContain(message);
    expect(err.message).toMatch(/^waivers file w\.yaml: /);
    expect(err.message).not.toContain('\n');
  });

  // issue 32 item 7 ("did you mean"): a name one edit from a known one suggests it; an unrelated name gets no guess.
  it('suggests the rule id or key a one-letter typo was meant to be, and nothing for an unrelated name or a glob', () => {
    const message = (text: string) => thrownBy(() => yaml(text), WaiverError).message;
    expect(message('- {rule: zone-not-actve, zone: a, reason: r, owner: o, expires: 2027-01-01}')).toBe(
      'waivers file w.yaml: waiver 1: rule "zone-not-actve" matches no rule; zonewarden rules lists them (did you mean "zone-not-active"?)',
    );
    expect(message('- {rule: open-ports, zone: a, reason: r, owner: o, expires: 2027-01-01}')).not.toContain('did you mean');
    // A glob is a pattern, not a misspelt id: guessing one id for it would narrow what was meant.
    expect(message('- {rule: zone-not-actve*, zone: a, reason: r, owner: o, expires: 2027-01-01}')).not.toContain('did you mean');
    expect(message('- {rule: zone-not-active, zone: a, reason: r, ownr: o, expires: 2027-01-01}')).toMatch(/: unknown key "ownr"; waivers have rule, .* \(did you mean "owner"\?\)$/);
    expect(message('- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2027-01-01, until: x}')).not.toContain('did you mean');
  });
});

describe('applying waivers', () => {
  const findings = [
    finding('dns-private-address', 'lab.example.com', { type: 'dns_record', id: 'r1', name: 'db.lab.example.com' }),
    finding('dns-origin-exposed', 'lab.example.com', { type: 'dns_record', id: 'r2', name: 'direct.lab.example.com' }),
    finding('certificate-expiry', 'shop.example.org', { type: 'certificate', id: 'c1', name: 'shop.example.org' }),
    finding('zone-not-active', 'shop.example.org', { type: 'zone', id: 'id-shop.example.org', name: 'shop.example.org' }, 'unknown'),
    finding('zone-not-active', 'lab.example.com', { type: 'zone', id: 'id-lab.example.com', name: 'lab.example.com' }, 'pass'),
  ];

  it('waives failures matched by rule and zone globs, resource names or ids; never unknowns or passes', () => {
    const waivers = yaml(`
- {rule: "dns-*", zone: "*.EXAMPLE.com", reason: lab, owner: net, expires: 2027-01-31}
- {rule: certificate-expiry, resource: c1, reason: renewing, owner: web, expires: 2027-01-31}
- {rule: zone-not-active, zone: "*", reason: all, owner: ops, expires: 2027-01-31, acknowledge: [all-zones]}
`);
    const { findings: out, report } = applyWaivers(findings, waivers, NOW);
    expect(out.map((f) => f.status)).toEqual(['waived', 'waived', 'waived', 'unknown', 'pass']);
    expect(out[0]?.waiver).toEqual({ reason: 'lab', owner: 'net', expires: '2027-01-31', index: 1 });
    expect(out[2]?.waiver?.index).toBe(2);
    expect(report.unused.map((w) => w.index)).toEqual([3]);
    expect(report.active.map((w) => [w.index, w.matched])).toEqual([
      [1, 2],
      [2, 1],
      [3, 0],
    ]);
    expect(findings[0]?.status).toBe('fail');
  });

  it('needs zone and resource both to match when both are given', () => {
    const waivers = yaml('- {rule: "*", zone: lab.example.com, resource: "db.*", reason: r, owner: o, expires: 2027-01-31, acknowledge: [all-rules]}');
    expect(applyWaivers(findings, waivers, NOW).findings.map((f) => f.status)).toEqual(['waived', 'fail', 'fail', 'unknown', 'pass']);
  });

  it('stops applying an expired waiver and reports it with what it would have covered', () => {
    const waivers = yaml(`
- {rule: certificate-expiry, zone: shop.example.org, reason: old, owner: web, expires: 2026-10-31}
- {rule: dns-private-address, zone: lab.example.com, reason: soon, owner: net, expires: 2026-11-14}
- {rule: dns-origin-exposed, zone: lab.example.com, reason: later, owner: net, expires: 2026-11-15}
`);
    const { findings: out, report } = applyWaivers(findings, waivers, NOW);
    expect(out.map((f) => f.status)).toEqual(['waived', 'waived', 'fail', 'unknown', 'pass']);
    expect(report.expired).toEqual([expect.objectContaining({ index: 1, matched: 1, daysLeft: -1 })]);
    // 2026-11-14 runs through that day: 13.5 days from the scan, inside the 14-day notice; 11-15 is 14.5.
    expect(report.expiring.map((w) => [w.index, w.daysLeft])).toEqual([[2, 13]]);
  });

  it('ends a dated waiver at the end of that day (UTC) and a timed one at its instant', () => {
    const dated = yaml('- {rule: certificate-expiry, zone: "*", reason: r, owner: o, expires: 2026-11-01, acknowledge: [all-zones]}');
    expect(applyWaivers(findings, dated, NOW).findings[2]?.status).toBe('waived');
    expect(applyWaivers(findings, dated, new Date('2026-11-02T00:00:00Z')).findings[2]?.status).toBe('fail');
    const timed = yaml('- {rule: certificate-expiry, zone: "*", reason: r, owner: o, expires: "2026-11-01T12:00:00Z", acknowledge: [all-zones]}');
    expect(applyWaivers(findings, timed, NOW).findings[2]?.status).toBe('fail');
    expect(applyWaivers(findings, timed, new Date(NOW.getTime() - 1)).findings[2]?.status).toBe('waived');
  });
});

// Issue 32 item 5: "a waiver matching every rule or every zone ... needs an explicit
// acknowledgement in the waiver itself; a maximum duration (configurable, default 90 days) is
// enforced; both with one-line errors."
describe('waivers that could hide everything', () => {
  const base = 'reason: r, owner: o, expires: 2027-01-01';

  it.each([
    // issue 32: every rule needs an acknowledgement: "*", a wildcard-only glob, or a glob matching every rule id.
    [`- {rule: "*", zone: a.example, ${base}}`, 'waiver 1: rule "*" matches every rule; if that is meant, add "acknowledge: [all-rules]" to the waiver'],
    [`- {rule: "*-*", zone: a.example, ${base}}`, 'rule "*-*" matches every rule; if that is meant, add "acknowledge: [all-rules]"'],
    [`- {rule: "*e*", zone: a.example, ${base}}`, 'rule "*e*" matches every rule'],
    // issue 32: every zone needs an acknowledgement, whether by zone glob or by a zone-less resource glob.
    [`- {rule: zone-not-active, zone: "*", ${base}}`, 'zone "*" matches every zone; if that is meant, add "acknowledge: [all-zones]" to the waiver'],
    [`- {rule: zone-not-active, zone: "*.*", ${base}}`, 'zone "*.*" matches every zone'],
    [`- {rule: zone-not-active, resource: "*", ${base}}`, 'resource "*" with no zone matches every resource of every zone; if that is meant, add "acknowledge: [all-zones]"'],
    // Acknowledging one breadth does not acknowledge the other.
    [`- {rule: "*", zone: "*", ${base}, acknowledge: [all-rules]}`, 'zone "*" matches every zone; if that is meant, add "acknowledge: [all-zones]"'],
    // The acknowledgement is a list of known words.
    [`- {rule: zone-not-active, zone: "*", ${base}, acknowledge: all-zones}`, '"acknowledge" must be a list of all-rules, all-zones, critical, many, e.g. acknowledge: [all-zones]'],
    [`- {rule: zone-not-active, zone: "*", ${base}, acknowledge: []}`, '"acknowledge" must be a list'],
    [`- {rule: zone-not-active, zone: a, ${base}, acknowledge: [everything]}`, '"acknowledge" takes all-rules, all-zones, critical, many, got "everything"'],
    // issue 32: maximum duration, default 90 days: read on 2026-11-05, the last day allowed is 2027-02-03.
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2027-02-04}', 'waiver 1: expires 2027-02-04, later than waiverMaxDays (90) days from today; end it by 2027-02-03'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: "2027-02-04T00:00:01Z"}', 'expires 2027-02-04T00:00:01Z, later than waiverMaxDays (90)'],
    // No acknowledgement lifts the duration limit.
    ['- {rule: "*", zone: "*", reason: r, owner: o, expires: 2099-01-01, acknowledge: [all-rules, all-zones, critical, many]}', 'expires 2099-01-01, later than waiverMaxDays'],
  ])('refuses %s', (text, message) => {
    const err = thrownBy(() => yaml(text), WaiverError);
    expect(err.message).toContain(message);
    expect(err.message).toMatch(/^waivers file w\.yaml: waiver 1: /);
    expect(err.message).not.toContain('\n');
  });

  it.each([
    // issue 32: an explicit acknowledgement in the waiver itself makes a broad waiver acceptable.
    [`- {rule: "*", zone: a.example, ${base}, acknowledge: [all-rules]}`],
    [`- {rule: zone-not-active, zone: "*", ${base}, acknowledge: [all-zones]}`],
    [`- {rule: zone-not-active, resource: "*", ${base}, acknowledge: [all-zones]}`],
    ['- rule: "*"\n  zone: "*"\n  reason: r\n  owner: o\n  expires: 2027-01-01\n  acknowledge:\n    - all-rules\n    - all-zones'],
    // An exact rule id is never "every rule", even in a catalogue of one; a zone glob with a name in it is not "every zone".
    [`- {rule: zone-not-active, zone: "*.example.com", ${base}}`],
    [`- {rule: "dns-*", resource: "db.*", ${base}}`],
    // issue 32: 90 days is allowed, through the last day; an ended waiver is always accepted.
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2027-02-03}'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: "2027-02-04T00:00:00Z"}'],
    ['- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2020-01-01}'],
  ])('accepts %s', (text) => {
    expect(yaml(text)).toHaveLength(1);
  });

  it('takes the acknowledgement as written, and a configured maximum duration', () => {
    expect(yaml(`- {rule: "*", zone: a, ${base}, acknowledge: [all-rules, many, all-rules]}`)[0]?.acknowledge).toEqual(['all-rules', 'many']);
    expect(yaml(`- {rule: zone-not-active, zone: a, ${base}}`)[0]).not.toHaveProperty('acknowledge');
    // issue 32: "a maximum duration (configurable ...)": 30 days from 2026-11-05 ends 2026-12-05.
    const text = '- {rule: zone-not-active, zone: a, reason: r, owner: o, expires: 2026-12-06}';
    expect(thrownBy(() => parseWaivers(text, 'w.yaml', RULES, 'yaml', { now: READ_ON, maxDays: 30 }), WaiverError).message).toBe(
      'waivers file w.yaml: waiver 1: expires 2026-12-06, later than waiverMaxDays (30) days from today; end it by 2026-12-05, renewing it then if still needed',
    );
    expect(parseWaivers(text, 'w.yaml', RULES, 'yaml', { now: READ_ON, maxDays: 31 })).toHaveLength(1);
  });
});

describe('waivers held back in an audit', () => {
  const critical = (zone: string, id: string): Finding => ({ ...finding('certificate-expiry', zone, { type: 'certificate', id, name: id }), severity: 'critical' });
  // applyWaivers as an audit: its waiver report where recordAudit's result has it.
  const audited = (findings: readonly Finding[], waivers: readonly Waiver[]) => {
    const { findings: out, report } = applyWaivers(findings, waivers, NOW);
    return { findings: out, waivers: report };
  };
  const records = (n: number) => Array.from({ length: n }, (_, i) => finding('dns-private-address', 'lab.example.com', { type: 'dns_record', id: `r${i}`, name: `h${i}.lab.example.com` }));

  it('leaves critical failures failing unless the waiver acknowledges critical', () => {
    // issue 32: a waiver matching "a critical, needs an explicit acknowledgement in the waiver itself".
    const findings = [critical('shop.example.org', 'c1'), finding('certificate-expiry', 'shop.example.org', { type: 'certificate', id: 'c2', name: 'c2' })];
    const plain = yaml('- {rule: certificate-expiry, zone: shop.example.org, reason: r, owner: o, expires: 2027-01-01}');
    const { findings: out, report } = applyWaivers(findings, plain, NOW);
    expect(out.map((f) => f.status)).toEqual(['fail', 'waived']);
    expect(report.held).toEqual([expect.objectContaining({ index: 1, matched: 2, heldCritical: 1 })]);
    expect(heldWaiverWarnings(report, 'w.yaml')).toEqual([
      'waivers file w.yaml: waiver 1 (rule certificate-expiry, zone shop.example.org) matched 1 critical failure(s): left failing; add "acknowledge: [critical]" to the waiver to waive them',
    ]);
    // A later waiver that acknowledges critical waives it.
    const both = yaml(`
- {rule: certificate-expiry, zone: shop.example.org, reason: r, owner: o, expires: 2027-01-01}
- {rule: certificate-expiry, resource: c1, reason: accepted, owner: o, expires: 2027-01-01, acknowledge: [critical]}
`);
    const acknowledged = applyWaivers(findings, both, NOW);
    expect(acknowledged.findings.map((f) => [f.status, f.waiver?.index])).toEqual([
      ['waived', 2],
      ['waived', 1],
    ]);
    expect(acknowledged.report.held?.map((w) => [w.index, w.heldCritical])).toEqual([[1, 1]]);
    // An expired waiver holds nothing back: it applies to nothing.
    const ended = yaml('- {rule: certificate-expiry, zone: shop.example.org, reason: r, owner: o, expires: 2026-10-01}');
    expect(applyWaivers(findings, ended, NOW).report.held).toEqual([]);
  });

  it('counts held-back criticals noted as tentative only once confirmed, as streamed audits do', () => {
    const [w] = yaml('- {rule: certificate-expiry, zone: "*.org", reason: r, owner: o, expires: 2027-01-01}');
    const set = new WaiverSet([w!], NOW);
    const noted: number[] = [];
    expect(set.apply(critical('shop.example.org', 'c1'), noted).status).toBe('fail');
    expect(noted).toEqual([0, -1]);
    expect(set.report().held).toEqual([]);
    set.confirm(noted);
    expect(set.report().held).toEqual([expect.objectContaining({ matched: 1, heldCritical: 1 })]);
  });

  it('waives nothing of a waiver matching more failures than the limit, unless it acknowledges many', () => {
    // issue 32: a waiver matching "more than a configurable number of failures ... needs an explicit acknowledgement".
    const findings = records(4);
    const [plain] = yaml('- {rule: dns-private-address, zone: lab.example.com, reason: r, owner: o, expires: 2027-01-01}');
    const [many] = yaml('- {rule: dns-private-address, zone: lab.example.com, reason: r, owner: o, expires: 2027-01-01, acknowledge: [many]}');
    const runs: Waiver[][] = [];
    const audit = (waivers: readonly Waiver[]) => {
      runs.push([...waivers]);
      return audited(findings, waivers);
    };
    const atLimit = auditWithinLimits([plain!], 4, audit);
    expect(atLimit.findings.every((f) => f.status === 'waived')).toBe(true);
    expect(runs).toHaveLength(1);

    runs.length = 0;
    const over = auditWithinLimits([plain!], 3, audit);
    expect(over.findings.map((f) => f.status)).toEqual(['fail', 'fail', 'fail', 'fail']);
    // The second audit marks the waiver, so what it keeps for later audits differs from the first's.
    expect(runs.map((ws) => ws[0]?.overLimit)).toEqual([undefined, 3]);
    expect(over.waivers.held).toEqual([expect.objectContaining({ index: 1, matched: 4, overLimit: 3 })]);
    expect(over.waivers.unused).toEqual([]);
    expect(heldWaiverWarnings(over.waivers, 'w.yaml')).toEqual([
      'waivers file w.yaml: waiver 1 (rule dns-private-address, zone lab.example.com) matched 4 failures, more than waiverMaxMatches (3): none waived; add "acknowledge: [many]" to the waiver to waive them',
    ]);

    runs.length = 0;
    expect(auditWithinLimits([many!], 3, audit).findings.every((f) => f.status === 'waived')).toBe(true);
    expect(runs).toHaveLength(1);
  });

  it('does not count an ended waiver against the limit', () => {
    const [ended] = yaml('- {rule: dns-private-address, zone: lab.example.com, reason: r, owner: o, expires: 2026-10-01}');
    let runs = 0;
    const result = auditWithinLimits([ended!], 1, (ws) => (runs++, audited(records(3), ws)));
    expect(runs).toBe(1);
    expect(result.waivers.expired).toEqual([expect.objectContaining({ matched: 3 })]);
    expect(heldWaiverWarnings(result.waivers, 'w.yaml')).toEqual([]);
  });
});
