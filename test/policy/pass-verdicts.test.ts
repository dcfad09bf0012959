import { describe, expect, it } from 'vitest';
import dnsOriginExposed from '../../rules/dns-origin-exposed.js';
import dnsWildcardRecord from '../../rules/dns-wildcard-record.js';
import zoneNotActive from '../../rules/zone-not-active.js';
import { PACKAGE } from '../../src/common/package-info.js';
import { runAudit } from '../../src/audit/audit.js';
import type { Finding } from '../../src/policy/findings.js';
import { forEachPass, PassEvidenceError, type AuditOfPasses } from '../../src/audit/pass-verdicts.js';
import { activeRules, loadCatalogue, type RuleSettings } from '../../src/policy/registry.js';
import { overridesOf } from '../../src/policy/zone-overrides.js';
import { snapshotOf, type Item } from '../support/snapshot-fixture.js';

/**
 * Issue 32 item 6: pass rows on request. An audit stores passes as counts, so `report --passes`
 * judges the scan again; the passes must be the audit's, or the report is refused.
 */

let seq = 0;
const record = (name: string, content: string, proxied: boolean, type = 'A'): Item => ({ id: `rec${String(++seq).padStart(29, '0')}`, type, name, content, proxied, ttl: 1 });

const catalogue = loadCatalogue([dnsOriginExposed, dnsWildcardRecord, zoneNotActive]);
const SETTINGS: Record<string, RuleSettings> = {
  'zone-not-active': { overrides: [{ zones: ['c.example'], enabled: false }] },
  'dns-wildcard-record': { options: { allow: ['*.b.example'] }, severity: 'low' },
};

function scan() {
  return snapshotOf({
    zones: [
      { name: 'a.example', dnsRecords: [record('a.example', '203.0.113.10', true), record('direct.a.example', '203.0.113.10', false)] },
      { name: 'b.example', paused: true, dnsRecords: [record('*.b.example', '198.51.100.2', true), record('www.b.example', '198.51.100.3', true)] },
      { name: 'c.example', dnsRecords: [record('c.example', '198.51.100.4', true)] },
    ],
  });
}

/** What report --passes checks a stored audit's header against, from an audit held in memory. */
function storedAs(result: ReturnType<typeof runAudit>, changes: Partial<AuditOfPasses> = {}): AuditOfPasses {
  return {
    scanId: result.scan.id,
    toolVersion: PACKAGE.version,
    rules: result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity, options: r.options, ...overridesOf(r) })),
    counts: result.counts,
    ...changes,
  };
}

describe('forEachPass', () => {
  it('gives the passes the audit counted, each as the audit would have listed it', () => {
    const { reader, db } = scan();
    const rules = activeRules(catalogue, SETTINGS);
    const audit = runAudit(reader, rules, [], { keepPasses: false });
    const held = runAudit(reader, rules, [], { keepPasses: true }).findings.filter((f) => f.status === 'pass');
    const passes: Finding[] = [];
    const n = forEachPass(reader, storedAs(audit), rules, (f) => passes.push(f));
    db.close();
    expect(audit.counts.byStatus.pass).toBeGreaterThan(0);
    expect(n).toBe(audit.counts.byStatus.pass);
    expect(passes.every((f) => f.status === 'pass')).toBe(true);
    const key = (f: Finding) => `${f.fingerprint} ${f.severity} ${f.message}`;
    expect(passes.map(key).sort()).toEqual(held.map(key).sort());
    // The override that turns zone-not-active off for c.example holds for the passes too.
    expect(passes.some((f) => f.rule === 'zone-not-active' && f.zone?.name === 'c.example')).toBe(false);
    expect(passes.some((f) => f.rule === 'zone-not-active' && f.zone?.name === 'a.example')).toBe(true);
  });

  it.each([
    ['a setting changed', { 'zone-not-active': { overrides: [{ zones: ['a.example'], enabled: false }] } }, /^--passes: rule zone-not-active is set otherwise in the config than when scan 1 was audited; audit the scan with these settings \(zonewarden audit --scan 1\), then run report --passes again: it reports the audit judged with them; or use the settings it ran with$/],
    ['an option changed', { 'dns-wildcard-record': { options: { allow: [] }, severity: 'low' } }, /^--passes: rule dns-wildcard-record is set otherwise/],
    ['a rule switched off', { 'dns-origin-exposed': { enabled: false } }, /^--passes: the audit of scan 1 ran rule dns-origin-exposed, which is not enabled or not loaded now/],
  ] as Array<[string, Record<string, RuleSettings>, RegExp]>)('refuses rules that would judge otherwise: %s', (_what, settings, message) => {
    const { reader, db } = scan();
    const audit = runAudit(reader, activeRules(catalogue, SETTINGS), [], { keepPasses: false });
    const visit = () => undefined;
    expect(() => forEachPass(reader, storedAs(audit), activeRules(catalogue, { ...SETTINGS, ...settings }), visit)).toThrow(message);
    db.close();
  });

  it('refuses a rule the audit did not run, an audit of another version, and passes that do not add up to its count', () => {
    const { reader, db } = scan();
    const rules = activeRules(catalogue, SETTINGS);
    const audit = runAudit(reader, rules, [], { keepPasses: false });
    const fewer = storedAs(audit, { rules: storedAs(audit).rules.filter((r) => r.id !== 'zone-not-active') });
    expect(() => forEachPass(reader, fewer, rules, () => undefined)).toThrow(/^--passes: rule zone-not-active is enabled now but did not run in the audit of scan 1/);
    expect(() => forEachPass(reader, storedAs(audit, { toolVersion: '0.0.1-old' }), rules, () => undefined)).toThrow(
      `--passes: scan 1 was audited by zonewarden 0.0.1-old, whose rules may judge otherwise than those of ${PACKAGE.version}; audit the scan with these settings (zonewarden audit --scan 1), then run report --passes again: it reports the audit judged with them`,
    );
    const counted = { byStatus: { ...audit.counts.byStatus, pass: audit.counts.byStatus.pass + 1 } };
    const error = (() => {
      try {
        forEachPass(reader, storedAs(audit, { counts: counted }), rules, () => undefined);
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(PassEvidenceError);
    expect((error as Error).message).toBe(
      `--passes: judged again, scan 1 gives ${audit.counts.byStatus.pass} passing verdicts where its audit counted ${audit.counts.byStatus.pass + 1} (a custom rule changed since?); audit the scan with these settings (zonewarden audit --scan 1), then run report --passes again: it reports the audit judged with them`,
    );
    db.close();
  });
});
