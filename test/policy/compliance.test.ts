import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { controlLabel, controlLabels, controlProblems, controlsFor, controlsOfId, controlsOfRule, frameworksOf, RULE_CONTROLS, type Control } from '../../src/policy/compliance.js';
import { loadCatalogue, ruleProblems } from '../../src/policy/registry.js';
import { defineRule } from '../../src/policy/rule.js';

/**
 * Issue 32 item 6: each rule mapped, where one clearly applies, to controls of PCI DSS 4.0 and
 * NIST SP 800-53 rev. 5. The table below is the mapping written out again, each row with the words
 * of the control that make it apply, so that a change of the mapping is a deliberate change here.
 *
 * Sources (control wording cited in a few words, never copied at length):
 * - PCI DSS v4.0, Requirements and Testing Procedures (PCI SSC, March 2022), https://docs-prv.pcisecuritystandards.org/PCI%20DSS/Standard/PCI-DSS-v4_0.pdf
 * - NIST SP 800-53 rev. 5 (September 2020, updated December 2020), https://csrc.nist.gov/pubs/sp/800/53/r5/upd1/final
 */

/** Every control the table uses: its name as the framework gives it (NIST) or its subject (PCI DSS), and what it asks, in its own key words. */
const CONTROLS: Record<string, { title: RegExp; asks: string }> = {
  // PCI DSS 1.4.5: "disclosure of internal IP addresses and routing information is limited to only authorized parties".
  'PCI DSS 1.4.5': { title: /internal IP addresses/, asks: 'internal IP addresses disclosed only to authorised parties' },
  // PCI DSS 4.2.1: strong cryptography for PAN over open, public networks: "only trusted keys and certificates are accepted",
  // certificates "confirmed as valid and are not expired or revoked", the protocol "does not support fallback to" insecure versions.
  'PCI DSS 4.2.1': { title: /cryptography/, asks: 'trusted, valid, unexpired certificates; secure protocol versions only, no fallback' },
  // PCI DSS 5.4.1: "processes and automated mechanisms are in place to detect and protect personnel against phishing attacks";
  // its guidance names DMARC, SPF and DKIM.
  'PCI DSS 5.4.1': { title: /phishing/, asks: 'automated anti-phishing mechanisms (guidance: SPF, DKIM, DMARC)' },
  // PCI DSS 6.4.2: for public-facing web applications an automated technical solution "installed in front of" them,
  // "actively running and up to date", that "detects and prevents web-based attacks" (e.g. a WAF).
  'PCI DSS 6.4.2': { title: /web-based attacks/, asks: 'a WAF in front of public-facing web applications, running and up to date' },
  // PCI DSS 8.4.1: "MFA is implemented for all non-console access into the CDE for personnel with administrative access".
  'PCI DSS 8.4.1': { title: /^MFA is implemented for all non-console access into the CDE for personnel with administrative access$/, asks: 'administrators sign in with more than a password' },
  // PCI DSS 6.4.3: payment page scripts loaded and executed in the consumer's browser are managed: each "authorized",
  // its "integrity" assured, and "an inventory of all scripts" kept.
  'PCI DSS 6.4.3': { title: /scripts.*browser.*inventoried/, asks: 'payment page scripts authorised, integrity-assured and inventoried' },
  // PCI DSS 11.6.1: "a change- and tamper-detection mechanism is deployed" "to alert personnel to unauthorized
  // modification" of the HTTP headers and contents of payment pages.
  'PCI DSS 11.6.1': { title: /tamper-detection.*alerts personnel/, asks: 'personnel alerted to unauthorised changes to payment pages' },
  // NIST control names, as the catalogue gives them.
  // IA-2(1) and IA-2(2): "Implement multi-factor authentication for access to privileged accounts" / "to non-privileged accounts".
  'NIST SP 800-53 IA-2(1)': { title: /^Multi-factor Authentication to Privileged Accounts$/, asks: 'multi-factor authentication for privileged accounts' },
  'NIST SP 800-53 IA-2(2)': { title: /^Multi-factor Authentication to Non-privileged Accounts$/, asks: 'multi-factor authentication for non-privileged accounts' },
  'NIST SP 800-53 IA-3': { title: /^Device Identification and Authentication$/, asks: 'devices authenticated before a connection is established' },
  'NIST SP 800-53 SC-5': { title: /^Denial-of-Service Protection$/, asks: 'the effects of denial-of-service events limited' },
  'NIST SP 800-53 SC-7': { title: /^Boundary Protection$/, asks: 'communications monitored and controlled at the external boundary; managed interfaces' },
  'NIST SP 800-53 SC-8': { title: /^Transmission Confidentiality and Integrity$/, asks: 'transmitted information protected' },
  'NIST SP 800-53 SC-13': { title: /^Cryptographic Protection$/, asks: 'the types of cryptography required' },
  'NIST SP 800-53 SC-17': { title: /^Public Key Infrastructure Certificates$/, asks: 'certificates issued under a policy or obtained from an approved provider' },
  'NIST SP 800-53 SC-20': { title: /^Secure Name\/Address Resolution Service \(Authoritative Source\)$/, asks: 'origin authentication and integrity artefacts with authoritative answers (DNSSEC)' },
  'NIST SP 800-53 SC-22': { title: /^Architecture and Provisioning for Name\/Address Resolution Service$/, asks: 'internal and external role separation of name resolution' },
  'NIST SP 800-53 SC-23': { title: /^Session Authenticity$/, asks: 'the authenticity of communication sessions protected' },
  // RA-5(11), a control enhancement: "establish a public reporting channel for receiving reports of vulnerabilities".
  'NIST SP 800-53 RA-5(11)': { title: /^Vulnerability Monitoring and Scanning \| Public Disclosure Program$/, asks: 'a public channel for vulnerability reports' },
  // SI-8 references SP 800-177 (Trustworthy Email), which recommends SPF, DKIM and DMARC.
  'NIST SP 800-53 SI-8': { title: /^Spam Protection$/, asks: 'spam protection mechanisms detect and act on unsolicited messages' },
};

/** Every built-in rule, with the controls it maps to and why (the control's words that apply); [] where none clearly applies. */
const EXPECTED: Array<[rule: string, controls: string[], why: string]> = [
  ['migration-incompatible', [], 'mechanics of one vendor migration'],
  ['migration-too-many-firewall-rules', [], 'mechanics of one vendor migration'],
  ['migration-expression-too-long', [], 'mechanics of one vendor migration'],
  ['migration-pending', ['PCI DSS 6.4.2'], '6.4.2: the WAF "actively running and up to date": the previous managed rules are being retired'],
  ['migration-overrides-lost', [], 'mechanics of one vendor migration'],
  ['migration-validation-stalled', [], 'mechanics of one vendor migration'],
  ['certificate-expiry', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-17'], '4.2.1: certificates "not expired or revoked"; SC-17: certificates managed under a policy'],
  ['certificate-pack-unhealthy', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-17'], '4.2.1: certificates "confirmed as valid"; SC-17'],
  ['hostname-not-covered', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-8'], 'no certificate, no protected transmission'],
  ['ssl-mode-insecure', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-8'], '4.2.1: "only trusted keys and certificates are accepted"; clear text to the origin'],
  ['tls-minimum-version', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-8', 'NIST SP 800-53 SC-13'], '4.2.1: "supports only secure versions"'],
  ['tls-1-3-disabled', ['NIST SP 800-53 SC-8'], 'SP 800-52 rev. 2 (guidance for SC-8) has servers support TLS 1.3; PCI DSS accepts TLS 1.2'],
  ['https-not-enforced', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-8'], 'plain HTTP is unprotected transmission'],
  ['hsts-weak', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-8', 'NIST SP 800-53 SC-23'], '4.2.1: "does not support fallback"; SC-23: session authenticity'],
  ['universal-ssl-off', ['PCI DSS 4.2.1', 'NIST SP 800-53 SC-8'], 'names left without a certificate'],
  ['firewall-rule-quota', [], 'upkeep of the rule set'],
  ['firewall-expression-too-long', [], 'upkeep of the rule set'],
  ['firewall-rule-inactive', [], 'upkeep of the rule set'],
  ['firewall-duplicate-expression', [], 'upkeep of the rule set'],
  ['filter-orphaned', [], 'upkeep of the rule set'],
  ['managed-rules-disabled', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], '6.4.2: a WAF "installed in front of public-facing web applications"'],
  ['managed-ruleset-not-deployed', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], '6.4.2: a WAF "actively running"'],
  ['owasp-ruleset-not-deployed', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], '6.4.2: "detects and prevents web-based attacks"'],
  ['legacy-waf-off', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], '6.4.2: a WAF "actively running"'],
  ['custom-rules-quota', [], 'upkeep of the rule set'],
  ['custom-rules-expression-too-long', [], 'upkeep of the rule set'],
  ['custom-rules-disabled', [], 'upkeep of the rule set'],
  ['custom-rules-broad-skip', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], 'a whole site taken out from behind the WAF'],
  ['security-level-weak', [], 'edge tuning no control asks for'],
  ['under-attack-left-on', [], 'edge tuning no control asks for'],
  ['development-mode-on', [], 'a feature, not a control'],
  ['always-online-on', [], 'a feature, not a control'],
  ['email-obfuscation-off', [], 'a feature, not a control'],
  ['hotlink-protection-off', [], 'a feature, not a control'],
  ['ip-geolocation-off', [], 'a feature, not a control'],
  ['challenge-passage-long', [], 'a feature, not a control'],
  ['bot-fight-mode-off', [], 'neither framework names bot protection'],
  ['bot-js-detections-off', [], 'neither framework names bot protection'],
  ['bot-ai-bots-not-blocked', [], 'who may copy public content is not a control'],
  ['bot-model-auto-update-off', [], 'neither framework names bot protection'],
  ['rate-limiting-missing', ['NIST SP 800-53 SC-5'], 'SC-5: limit the effects of denial-of-service events'],
  ['firewall-no-blocking-rules', [], 'what to block is a local policy'],
  ['dns-origin-exposed', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], 'traffic around the WAF and the managed interface'],
  ['origin-pulls-off', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7', 'NIST SP 800-53 IA-3'], 'the origin authenticates the edge (IA-3) and accepts only it'],
  ['dns-private-address', ['PCI DSS 1.4.5', 'NIST SP 800-53 SC-22'], '1.4.5: "disclosure of internal IP addresses"; SC-22: internal/external separation'],
  ['dnssec-not-active', ['NIST SP 800-53 SC-20'], 'SC-20: "data origin authentication and integrity verification artifacts" (DNSSEC)'],
  ['caa-missing', ['NIST SP 800-53 SC-17'], 'SC-17: certificates "from an approved service provider"'],
  ['dns-wildcard-record', [], 'DNS hygiene no control names'],
  ['dns-record-not-proxied', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], 'a web record served around the WAF'],
  ['dns-dangling-target', [], 'DNS hygiene no control names'],
  ['email-spf-missing', ['PCI DSS 5.4.1', 'NIST SP 800-53 SI-8'], '5.4.1 guidance names SPF; SI-8 cites SP 800-177'],
  ['email-dmarc-missing', ['PCI DSS 5.4.1', 'NIST SP 800-53 SI-8'], '5.4.1 guidance names DMARC; SI-8 cites SP 800-177'],
  ['email-dkim-missing', ['PCI DSS 5.4.1', 'NIST SP 800-53 SI-8'], '5.4.1 guidance names DKIM; SI-8 cites SP 800-177'],
  ['zone-not-active', ['PCI DSS 6.4.2', 'NIST SP 800-53 SC-7'], 'a paused zone bypasses every edge protection'],
  ['client-side-security-off', ['PCI DSS 6.4.3'], '6.4.3: "an inventory of all scripts" of payment pages; the script monitor is it'],
  ['security-txt-missing', ['NIST SP 800-53 RA-5(11)'], 'RA-5(11): "a public reporting channel for receiving reports of vulnerabilities"'],
  ['client-side-script-alert-missing', ['PCI DSS 11.6.1'], '11.6.1: a mechanism "to alert personnel to unauthorized modification" of payment pages'],
  ['invite-pending', [], "about the audit's own evidence: an account it cannot see"],
  ['scan-coverage', [], "about the audit's own evidence"],
  ['account-member-no-2fa', ['PCI DSS 8.4.1', 'NIST SP 800-53 IA-2(1)', 'NIST SP 800-53 IA-2(2)'], 'a dashboard login that configures every zone, with a password alone'],
];

describe('the compliance mapping of the built-in rules', () => {
  it('has a row for every rule of the catalogue, and no other', () => {
    expect(Object.keys(RULE_CONTROLS).sort()).toEqual(RULES.map((r) => r.meta.id).sort());
    expect(EXPECTED.map(([rule]) => rule).sort()).toEqual(RULES.map((r) => r.meta.id).sort());
  });

  it.each(EXPECTED)('%s maps to %j (%s)', (rule, controls, why) => {
    expect(why).not.toBe('');
    expect(controlsFor(rule).map(controlLabel)).toEqual(controls);
  });

  it('names each control as its framework does, one title per control', () => {
    const used = new Map<string, Control>();
    for (const controls of Object.values(RULE_CONTROLS)) for (const c of controls) used.set(controlLabel(c), c);
    expect([...used.keys()].sort()).toEqual(Object.keys(CONTROLS).sort());
    for (const [label, c] of used) expect(c.title, label).toMatch(CONTROLS[label]!.title);
  });

  it('keeps the built-in mapping in the one table: no built-in rule declares meta.controls', () => {
    expect(RULES.filter((r) => r.meta.controls !== undefined).map((r) => r.meta.id)).toEqual([]);
  });

  it('cites controls as the frameworks are cited, and lists a rule’s frameworks in order', () => {
    const controls = controlsFor('tls-minimum-version');
    expect(controlLabels(controls)).toBe('PCI DSS 4.2.1; NIST SP 800-53 SC-8; NIST SP 800-53 SC-13');
    expect(frameworksOf(controls)).toEqual(['PCI DSS 4.0', 'NIST SP 800-53 r5']);
    expect(frameworksOf(controlsFor('dnssec-not-active'))).toEqual(['NIST SP 800-53 r5']);
    expect(controlsFor('no-such-rule')).toEqual([]);
    expect(controlsFor('constructor')).toEqual([]);
  });
});

describe("a custom rule's own controls", () => {
  const base = {
    id: 'acme-tls-check',
    title: 't',
    description: 'd',
    severity: 'low' as const,
    category: 'tls' as const,
    scope: 'zone' as const,
    resource: 'zone',
    messages: { m: 'x' },
    remediation: 'r',
    references: [],
  };
  const custom = (controls: unknown) => defineRule({ meta: { ...base, controls: controls as Control[] }, defaultOptions: {}, check: () => undefined });

  it('declares them in meta.controls, and the catalogue and lookups by id use them', () => {
    const rule = custom([{ framework: 'PCI DSS 4.0', id: '4.2.1', title: 'Strong cryptography in transit' }]);
    expect(ruleProblems(rule)).toEqual([]);
    expect(controlsOfRule(rule.meta).map(controlLabel)).toEqual(['PCI DSS 4.2.1']);
    expect(controlsOfId('acme-tls-check', loadCatalogue([rule])).map(controlLabel)).toEqual(['PCI DSS 4.2.1']);
    // A rule no longer loaded falls back to the table (empty for a custom id).
    expect(controlsOfId('acme-tls-check', new Map())).toEqual([]);
  });

  it.each([
    ['not a list', { framework: 'PCI DSS 4.0' }, /meta\.controls must be a list/],
    ['an unknown framework', [{ framework: 'ISO 27001', id: 'A.8', title: 't' }], /meta\.controls\[0\]\.framework must be one of "PCI DSS 4\.0", "NIST SP 800-53 r5"/],
    ['no id', [{ framework: 'NIST SP 800-53 r5', id: ' ', title: 't' }], /meta\.controls\[0\]\.id must be the requirement or control number/],
    ['no title', [{ framework: 'NIST SP 800-53 r5', id: 'SC-8' }], /meta\.controls\[0\]\.title must be a non-empty string/],
    ['a control twice', [{ framework: 'NIST SP 800-53 r5', id: 'SC-8', title: 't' }, { framework: 'NIST SP 800-53 r5', id: 'SC-8', title: 't' }], /meta\.controls\[1\] repeats NIST SP 800-53 r5 SC-8/],
  ])('refuses %s', (_what, controls, problem) => {
    expect(controlProblems(controls).join('; ')).toMatch(problem);
    expect(ruleProblems(custom(controls)).join('; ')).toMatch(problem);
  });
});
