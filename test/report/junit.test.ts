import { describe, expect, it } from 'vitest';
import dnsOriginExposed from '../../rules/dns-origin-exposed.js';
import invitePending from '../../rules/invite-pending.js';
import { runAudit } from '../../src/audit/audit.js';
import { activeRules, loadCatalogue } from '../../src/policy/registry.js';
import type { Waiver } from '../../src/policy/waivers.js';
import { junitRules, writeJunit, xmlText } from '../../src/report/junit.js';
import { snapshotOf, type Item } from '../support/snapshot-fixture.js';
import { STAND_INS } from '../support/stand-ins.js';

/**
 * `--format junit`: a suite per rule, a case per rule and zone; failures as <failure>, unknowns as
 * <skipped>, waived failures passing with the waiver in <system-out>. Zone and record names come
 * from the API, so hostile text must stay text.
 */

/** A small well-formedness check: tags nest, attributes are quoted, text holds no raw < or bare &. */
function assertWellFormed(xml: string): void {
  const body = xml.replace(/^<\?xml [^>]*\?>\n/, '');
  const stack: string[] = [];
  const tokens = body.split(/(<[^>]*>)/).filter(Boolean);
  for (const t of tokens) {
    if (t.startsWith('<!--')) {
      expect(t, 'a comment').toMatch(/^<!--(?:(?!--)[^<>])*-->$/);
    } else if (t.startsWith('<')) {
      expect(t, 'a tag').toMatch(/^<\/?[a-z-]+(\s+[a-z_]+="[^"<&]*(&(amp|lt|gt|quot|apos);[^"<&]*)*")*\s*\/?>$/);
      const name = /^<\/?([a-z-]+)/.exec(t)![1]!;
      if (t.startsWith('</')) expect(stack.pop(), `closing ${name}`).toBe(name);
      else if (!t.endsWith('/>')) stack.push(name);
    } else {
      expect(t, 'text').not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/);
    }
  }
  expect(stack).toEqual([]);
}

let seq = 0;
const record = (name: string, content: string, proxied: boolean): Item => ({ id: `rec${String(++seq).padStart(29, '0')}`, type: 'A', name, content, proxied, ttl: 1 });
const HOSTILE = 'x<script>&"\'\u0001]]>.a.example';

function junit(): string {
  const { reader, db } = snapshotOf({
    invites: [{ id: 'inv00000000000000000000000000001', organization_name: 'Other <Org>', status: 'pending', roles: ['Administrator'], expires_on: '2026-12-01T00:00:00Z', invited_on: '2026-10-01T00:00:00Z' }],
    zones: [
      { name: 'a.example', dnsRecords: [record('a.example', '203.0.113.10', true), record(HOSTILE, '203.0.113.10', false), record('ssh.a.example', '203.0.113.10', false)] },
      { name: 'b.example', unread: { dns_records: 'denied' } },
      { name: 'c.example', dnsRecords: [record('c.example', '198.51.100.1', true), record('direct.c.example', '198.51.100.1', false)] },
      { name: 'd.example' },
    ],
  });
  const catalogue = loadCatalogue([dnsOriginExposed, invitePending]);
  const waiver: Waiver = { index: 1, rule: 'dns-origin-exposed', zone: 'c.example', resource: null, reason: 'lab', owner: 'net@example.com', expires: '2027-01-01', expiresAt: new Date('2027-01-01'), acknowledge: ['critical'] };
  // issue 32 item 5: a critical failure is waived only by a waiver that acknowledges it (its severity is raised to critical here).
  const result = runAudit(reader, activeRules(catalogue, { 'dns-origin-exposed': { severity: 'critical', options: { standIns: STAND_INS } } }), [waiver], { keepPasses: false });
  let xml = '';
  const rules = junitRules(result.rules.map((r) => ({ id: r.rule.meta.id, severity: r.severity })), catalogue);
  writeJunit({ scan: reader.scan, zones: reader.zones(), rules, findings: result.findings, errors: result.errors }, (t) => (xml += t));
  db.close();
  return xml;
}

const testcase = (xml: string, rule: string, name: string) => new RegExp(`<testcase classname="${rule}" name="${name}" time="0"(/>|>[\\s\\S]*?</testcase>)`).exec(xml)?.[0];

describe('JUnit XML', () => {
  const xml = junit();

  it('is well-formed XML, hostile names escaped and control characters replaced', () => {
    assertWellFormed(xml);
    expect(xml).toContain('x&lt;script&gt;&amp;&quot;&apos;\uFFFD]]&gt;.a.example');
    expect(xmlText('a\u0000b\uD800c')).toBe('a\uFFFDb\uFFFDc');
  });

  it('counts a case per rule and zone, and an organisation case for an organisation rule', () => {
    expect(xml).toMatch(/<testsuites name="zonewarden scan 1" tests="5" failures="2" errors="0" skipped="1" time="0" timestamp="2026-11-01T12:00:00Z">/);
    expect(xml).toMatch(/<testsuite name="dns-origin-exposed" tests="4" failures="1" errors="0" skipped="1" /);
    expect(xml).toMatch(/<testsuite name="invite-pending" tests="1" failures="1" errors="0" skipped="0" /);
    expect(xml).toContain('<property name="severity" value="critical"/>');
  });

  // Issue 32 item 6: JUnit counted 77 failures where the audit said 88: a case is a rule on a zone, a finding a resource.
  it("states the audit's counts of findings beside its counts of cases: a comment under the root, and each suite's properties", () => {
    // a.example has two failing records of dns-origin-exposed (one case), the organisation one pending invite.
    expect(xml).toContain(
      "<!-- Counts are of test cases, a rule on one zone (or on the organisation): 2 failing case(s) hold the audit's 3 failing finding(s), one per resource; 1 skipped case(s) hold only unknowns, of 1 unknown finding(s) in all; 1 waived finding(s) pass. Each suite's properties give its counts of findings. -->",
    );
    const suite = /<testsuite name="dns-origin-exposed"[\s\S]*?<\/properties>/.exec(xml)![0];
    expect(suite).toContain('<property name="failing-findings" value="2"/>');
    expect(suite).toContain('<property name="unknown-findings" value="1"/>');
    expect(suite).toContain('<property name="waived-findings" value="1"/>');
    expect(suite).toContain('<property name="controls" value="PCI DSS 6.4.2; NIST SP 800-53 SC-7"/>');
  });

  it('fails a zone with every failing resource and the remediation in the text, its severity as the type', () => {
    const a = testcase(xml, 'dns-origin-exposed', 'a.example')!;
    expect(a).toMatch(/<failure message="[^"]*\(and 1 more\)" type="critical">/);
    expect(a).toContain('critical: dns_record ssh.a.example: ssh.a.example (A 203.0.113.10) is not proxied');
    expect(a).toContain(`Remediation: ${xmlText(dnsOriginExposed.meta.remediation)}`);
  });

  it('skips a zone whose data was not read, and passes a clean zone and a waived one (the waiver in system-out)', () => {
    expect(testcase(xml, 'dns-origin-exposed', 'b.example')).toMatch(/<skipped message="unknown: [^"]*dns_records/);
    expect(testcase(xml, 'dns-origin-exposed', 'd.example')).toBe('<testcase classname="dns-origin-exposed" name="d.example" time="0"/>');
    const c = testcase(xml, 'dns-origin-exposed', 'c.example')!;
    expect(c).not.toMatch(/<failure|<skipped/);
    expect(c).toContain('<system-out>waived until 2027-01-01 by net@example.com (lab): dns_record direct.c.example:');
    expect(testcase(xml, 'invite-pending', 'organisation')).toMatch(/<failure /);
  });
});
