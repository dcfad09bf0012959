import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { AuditResult } from '../../src/audit/audit.js';
import { auditDataset } from '../support/dataset-audit.js';

/**
 * The whole catalogue on the demo organisation, scanned from the emulator on the wall clock (the
 * dataset's dates are relative to it) and audited with the demo's rule settings, as `zonewarden
 * demo` does: what a newcomer's first report shows. The failures are exactly those the table in
 * src/emulator/datasets/demo.ts lists: one critical, a few highs, and the gaps of a real
 * organisation. (Every rule's failing and passing cases are test/policy/case-audit.test.ts's.)
 */

let emulator: RunningEmulator;
let result: AuditResult;

beforeAll(async () => {
  ({ emulator, result } = await auditDataset('demo', 'demo'));
});

afterAll(async () => {
  await emulator?.close();
});

/** The demo's failures as "zone rule severity" (the invitee account's name for the pending invite). */
const FAILING = [
  'Tailspin Toys Japan invite-pending low',
  'buildwithtailspin.example bot-ai-bots-not-blocked low',
  'm***@brightwave-agency.example account-member-no-2fa medium',
  'Tailspin Toys Engineering client-side-script-alert-missing medium',
  'tailspin-holiday.example security-txt-missing low',
  'wingtiptoys.example client-side-security-off medium',
  'buildwithtailspin.example bot-fight-mode-off low',
  'buildwithtailspin.example caa-missing medium',
  'buildwithtailspin.example hotlink-protection-off low',
  'buildwithtailspin.example hsts-weak medium',
  'tailspin-holiday.example bot-ai-bots-not-blocked low',
  'tailspin-holiday.example bot-fight-mode-off medium',
  'tailspin-holiday.example email-dmarc-missing medium',
  'tailspin-holiday.example owasp-ruleset-not-deployed low',
  'tailspin-holiday.example rate-limiting-missing medium',
  'tailspin-holiday.example under-attack-left-on medium',
  'tailspin.example firewall-no-blocking-rules low',
  'tailspin.example owasp-ruleset-not-deployed low',
  'tailspin.example rate-limiting-missing medium',
  'tailspintoys-api.example custom-rules-broad-skip high',
  'tailspintoys-api.example ip-geolocation-off info',
  'tailspintoys-blog.example managed-ruleset-not-deployed high',
  'tailspintoys-blog.example owasp-ruleset-not-deployed low',
  'tailspintoys-eu.example certificate-expiry high',
  'tailspintoys-preview.example certificate-pack-unhealthy medium',
  'tailspintoys-preview.example zone-not-active medium',
  'tailspintoys-staging.example development-mode-on low',
  'tailspintoys-staging.example dns-wildcard-record low',
  'tailspintoys-staging.example rate-limiting-missing medium',
  'tailspintoys-status.example dns-dangling-target high',
  'tailspintoys.example dns-record-not-proxied low',
  'wingtip.example rate-limiting-missing medium',
  'wingtiptoys-wholesale.example dns-origin-exposed high',
  'wingtiptoys-wholesale.example filter-orphaned low',
  'wingtiptoys-wholesale.example migration-pending medium',
  'wingtiptoys-wholesale.example origin-pulls-off high',
  'wingtiptoys-wholesale.example rate-limiting-missing medium',
  'wingtiptoys.example certificate-expiry critical',
  'wingtiptoys.example dnssec-not-active medium',
  'wingtiptoys.example email-dkim-missing medium',
  'wingtiptoys.example migration-pending medium',
  'wingtiptoys.example rate-limiting-missing medium',
  'wingtiptoys.example ssl-mode-insecure low',
];

const failing = () =>
  result.findings
    .filter((f) => f.status === 'fail')
    .map((f) => `${f.zone?.name ?? f.resource.name} ${f.rule} ${f.severity}`)
    .sort();

describe('the catalogue on the demo organisation', () => {
  it('reads everything and judges every rule without errors or unknowns', () => {
    expect(result.errors).toEqual([]);
    expect(result.scan.status).toBe('complete');
    expect(result.counts.byStatus.unknown).toBe(0);
    expect(result.rules).toHaveLength(RULES.length);
  });

  it('fails exactly where the table of the demo dataset says', () => {
    expect(failing()).toEqual([...FAILING].sort());
  });

  it('shows a newcomer one critical and a few highs among the gaps of a real organisation', () => {
    const bySeverity = result.counts.failBySeverity;
    expect(bySeverity['critical']).toBe(1);
    expect(bySeverity['high']).toBeGreaterThanOrEqual(3);
    expect(bySeverity['high']).toBeLessThanOrEqual(6);
    // Most of what fails is medium or below, and most verdicts pass.
    expect((bySeverity['medium'] ?? 0) + (bySeverity['low'] ?? 0) + (bySeverity['info'] ?? 0)).toBeGreaterThan(4 * (bySeverity['high'] ?? 0));
    expect(result.counts.byStatus.pass).toBeGreaterThan(10 * result.counts.byStatus.fail);
  });

  it('reports the expired certificate as the critical: the acquired brand whose renewal failed', () => {
    const critical = result.findings.filter((f) => f.status === 'fail' && f.severity === 'critical');
    expect(critical.map((f) => `${f.zone?.name} ${f.rule}`)).toEqual(['wingtiptoys.example certificate-expiry']);
    expect(critical[0]!.message).toMatch(/expired 2 days ago/);
  });
});
