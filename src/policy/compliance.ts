/**
 * The compliance controls each built-in rule gives evidence for: only where the control's wording
 * clearly covers the check, the reason beside each. Sources: PCI DSS v4.0 (PCI Security Standards
 * Council, March 2022); NIST SP 800-53 rev. 5, identifiers and names as in its catalogue.
 */

export const FRAMEWORKS = ['PCI DSS 4.0', 'NIST SP 800-53 r5'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

export interface Control {
  framework: Framework;
  /** The requirement number (PCI DSS, e.g. `4.2.1`) or control identifier (NIST, e.g. `SC-8`). */
  id: string;
  /** A short name: NIST's control name; for PCI DSS, the requirement's subject in a few words. */
  title: string;
}

const pci = (id: string, title: string): Control => ({ framework: 'PCI DSS 4.0', id, title });
const nist = (id: string, title: string): Control => ({ framework: 'NIST SP 800-53 r5', id, title });

/** The controls the table uses, one constant each so that a title is written once. */
const PCI_1_4_5 = pci('1.4.5', 'Disclosure of internal IP addresses and routing information is limited');
const PCI_4_2_1 = pci('4.2.1', 'Strong cryptography and secure protocols protect data in transit over public networks');
const PCI_5_4_1 = pci('5.4.1', 'Mechanisms detect and protect against phishing');
const PCI_8_4_1 = pci('8.4.1', 'MFA is implemented for all non-console access into the CDE for personnel with administrative access');
const PCI_6_4_2 = pci('6.4.2', 'An automated solution detects and prevents web-based attacks on public-facing web applications');
const NIST_IA_2_1 = nist('IA-2(1)', 'Multi-factor Authentication to Privileged Accounts');
const NIST_IA_2_2 = nist('IA-2(2)', 'Multi-factor Authentication to Non-privileged Accounts');
const PCI_6_4_3 = pci('6.4.3', "Payment page scripts executed in the consumer's browser are authorized, integrity-checked and inventoried");
const PCI_11_6_1 = pci('11.6.1', 'A change- and tamper-detection mechanism alerts personnel to unauthorized changes to payment pages');
const NIST_RA_5_11 = nist('RA-5(11)', 'Vulnerability Monitoring and Scanning | Public Disclosure Program');
const NIST_IA_3 = nist('IA-3', 'Device Identification and Authentication');
const NIST_SC_5 = nist('SC-5', 'Denial-of-Service Protection');
const NIST_SC_7 = nist('SC-7', 'Boundary Protection');
const NIST_SC_8 = nist('SC-8', 'Transmission Confidentiality and Integrity');
const NIST_SC_13 = nist('SC-13', 'Cryptographic Protection');
const NIST_SC_17 = nist('SC-17', 'Public Key Infrastructure Certificates');
const NIST_SC_20 = nist('SC-20', 'Secure Name/Address Resolution Service (Authoritative Source)');
const NIST_SC_22 = nist('SC-22', 'Architecture and Provisioning for Name/Address Resolution Service');
const NIST_SC_23 = nist('SC-23', 'Session Authenticity');
const NIST_SI_8 = nist('SI-8', 'Spam Protection');

const NONE: readonly Control[] = Object.freeze([]);

/** By rule id: every built-in rule has a row (a test holds the table and the catalogue in step). */
export const RULE_CONTROLS: Readonly<Record<string, readonly Control[]>> = Object.freeze({
  // The migration rules judge whether and how a zone can move to the new managed rules: mechanics
  // of one vendor change, which no control names. Only a zone still on the rules being retired is
  // at odds with a control: 6.4.2 asks that the web-attack solution be kept running and up to date.
  'migration-incompatible': NONE,
  'migration-too-many-firewall-rules': NONE,
  'migration-expression-too-long': NONE,
  'migration-pending': [PCI_6_4_2],
  'migration-overrides-lost': NONE,
  'migration-validation-stalled': NONE,

  // 4.2.1: certificates protecting data in transit are confirmed valid, not expired or revoked.
  // SC-17: public key certificates are obtained and managed under a certificate policy.
  'certificate-expiry': [PCI_4_2_1, NIST_SC_17],
  'certificate-pack-unhealthy': [PCI_4_2_1, NIST_SC_17],
  // A host name with no active certificate cannot be served over TLS: the transmission protection
  // of 4.2.1 and SC-8 is missing for it.
  'hostname-not-covered': [PCI_4_2_1, NIST_SC_8],
  // 4.2.1: only trusted keys and certificates are accepted, and data crosses public networks
  // encrypted; `flexible` sends it to the origin in clear, `full` accepts any origin certificate.
  'ssl-mode-insecure': [PCI_4_2_1, NIST_SC_8],
  // 4.2.1: the protocol supports only secure versions, with no fallback to insecure ones.
  // SC-13: the cryptography used is of the types the organisation requires.
  'tls-minimum-version': [PCI_4_2_1, NIST_SC_8, NIST_SC_13],
  // TLS 1.2 still meets PCI DSS, so no PCI requirement asks for 1.3; NIST's TLS guideline for
  // SC-8 (SP 800-52 rev. 2) requires servers to support TLS 1.3.
  'tls-1-3-disabled': [NIST_SC_8],
  // Plain HTTP carries the data unprotected: 4.2.1 and SC-8 ask for it to be protected in transit.
  'https-not-enforced': [PCI_4_2_1, NIST_SC_8],
  // HSTS stops a browser falling back to plain HTTP (4.2.1: no fallback to insecure protocols)
  // and protects sessions against stripping and hijacking (SC-23).
  'hsts-weak': [PCI_4_2_1, NIST_SC_8, NIST_SC_23],
  // With universal SSL off and no other pack, proxied names have no certificate: as hostname-not-covered.
  'universal-ssl-off': [PCI_4_2_1, NIST_SC_8],

  // Quotas, expression lengths, paused, duplicate and orphaned rules are upkeep of the rule set;
  // no control requires them.
  'firewall-rule-quota': NONE,
  'firewall-expression-too-long': NONE,
  'firewall-rule-inactive': NONE,
  'firewall-duplicate-expression': NONE,
  'filter-orphaned': NONE,
  // 6.4.2: an automated solution in front of public-facing web applications, actively running,
  // detects and prevents web-based attacks: the managed rules (previous or new) and the OWASP
  // core ruleset are that solution. SC-7: communications are monitored and controlled at the
  // external boundary.
  'managed-rules-disabled': [PCI_6_4_2, NIST_SC_7],
  'managed-ruleset-not-deployed': [PCI_6_4_2, NIST_SC_7],
  'owasp-ruleset-not-deployed': [PCI_6_4_2, NIST_SC_7],
  'legacy-waf-off': [PCI_6_4_2, NIST_SC_7],
  'custom-rules-quota': NONE,
  'custom-rules-expression-too-long': NONE,
  'custom-rules-disabled': NONE,
  // A skip rule exempting a whole site takes it out from behind the web-attack solution (6.4.2)
  // and the boundary's control (SC-7).
  'custom-rules-broad-skip': [PCI_6_4_2, NIST_SC_7],
  // The browser integrity check and Under Attack mode are tuning of the edge; neither framework
  // asks for either.
  'security-level-weak': NONE,
  'under-attack-left-on': NONE,
  // Caching, archiving, obfuscation, hotlinking and geolocation headers are features, not controls.
  'development-mode-on': NONE,
  'always-online-on': NONE,
  'email-obfuscation-off': NONE,
  'hotlink-protection-off': NONE,
  'ip-geolocation-off': NONE,
  'challenge-passage-long': NONE,
  // Bot products help against abuse, but neither framework names bot protection as such.
  'bot-fight-mode-off': NONE,
  'bot-js-detections-off': NONE,
  'bot-ai-bots-not-blocked': NONE,
  'bot-model-auto-update-off': NONE,
  // SC-5: the effects of denial-of-service events are limited, e.g. by rate limits.
  'rate-limiting-missing': [NIST_SC_5],
  // Custom rules that block nothing are a gap only where a policy says what to block; none names it.
  'firewall-no-blocking-rules': NONE,

  // A revealed origin lets traffic go around the edge: around the web-attack solution (6.4.2) and
  // the managed interface through which SC-7 has external traffic pass.
  'dns-origin-exposed': [PCI_6_4_2, NIST_SC_7],
  // The origin refusing connections without the edge's client certificate keeps traffic on the
  // managed interface (SC-7) and authenticates the connecting device (IA-3).
  'origin-pulls-off': [PCI_6_4_2, NIST_SC_7, NIST_IA_3],
  // 1.4.5: internal IP addresses are disclosed only to authorised parties. SC-22: name resolution
  // keeps internal and external roles apart.
  'dns-private-address': [PCI_1_4_5, NIST_SC_22],
  // SC-20: an authoritative name service provides origin authentication and integrity artefacts
  // with its answers: DNSSEC signatures.
  'dnssec-not-active': [NIST_SC_20],
  // CAA limits issuance to the chosen certificate authorities: SC-17's certificates obtained from
  // an approved provider.
  'caa-missing': [NIST_SC_17],
  // Wildcards, proxying and dangling targets are DNS hygiene that no control names, except that an
  // unproxied web record is served around the edge (6.4.2, SC-7) as an exposed origin is.
  'dns-wildcard-record': NONE,
  'dns-record-not-proxied': [PCI_6_4_2, NIST_SC_7],
  'dns-dangling-target': NONE,
  // 5.4.1: mechanisms protect against phishing; the standard's guidance names SPF, DKIM and DMARC.
  // SI-8: spam protection detects and acts on unsolicited (here: spoofed) messages; the control
  // cites SP 800-177 (Trustworthy Email), which recommends these three records.
  'email-spf-missing': [PCI_5_4_1, NIST_SI_8],
  'email-dmarc-missing': [PCI_5_4_1, NIST_SI_8],
  'email-dkim-missing': [PCI_5_4_1, NIST_SI_8],
  // A paused zone sends traffic straight to the origin, past every edge protection (6.4.2, SC-7).
  'zone-not-active': [PCI_6_4_2, NIST_SC_7],

  // A pending invite and an incomplete scan are about this audit's evidence (an account it cannot
  // see, a part it could not read), not about the organisation's configuration.
  'invite-pending': NONE,
  'scan-coverage': NONE,
  // A member without two-factor signs in to the dashboard, which configures every zone of the
  // account, with a password alone (8.4.1 for administrators; IA-2(1) privileged, IA-2(2) the rest).
  'account-member-no-2fa': [PCI_8_4_1, NIST_IA_2_1, NIST_IA_2_2],

  // 6.4.3: the scripts a payment page loads in the browser are inventoried and their integrity
  // assured; client-side security's script monitor is the vendor's mechanism for it (vendor docs:
  // Page Shield, PCI DSS compliance), and it inventories nothing while off.
  'client-side-security-off': [PCI_6_4_3],
  // 11.6.1: unauthorised changes to the scripts and headers of payment pages are detected and
  // personnel are alerted; the code change and malicious script notifications are that alert.
  'client-side-script-alert-missing': [PCI_11_6_1],
  // RA-5(11): a public reporting channel for vulnerabilities in the organisation's systems; the
  // security.txt file (RFC 9116) is the standard way to publish it for a web site.
  'security-txt-missing': [NIST_RA_5_11],
});

/** The controls a built-in rule gives evidence for: empty for rules with no clear mapping and for unknown ids. */
export function controlsFor(ruleId: string): readonly Control[] {
  return Object.prototype.hasOwnProperty.call(RULE_CONTROLS, ruleId) ? RULE_CONTROLS[ruleId]! : NONE;
}

/** A rule's controls: those its own metadata declares (a custom rule's `meta.controls`), else the table's. */
export function controlsOfRule(meta: { id: string; controls?: readonly Control[] | undefined }): readonly Control[] {
  return meta.controls ?? controlsFor(meta.id);
}

/** The controls of a rule named by id: from the catalogue when it holds the rule, else from the table (an audit stored by a rule no longer loaded). */
export function controlsOfId(ruleId: string, rules: ReadonlyMap<string, { meta: { id: string; controls?: readonly Control[] | undefined } }>): readonly Control[] {
  const rule = rules.get(ruleId);
  return rule ? controlsOfRule(rule.meta) : controlsFor(ruleId);
}

/** How reports cite a control: the framework's usual short name and the control, e.g. `PCI DSS 4.2.1`, `NIST SP 800-53 SC-8`. */
const CITED_AS: Record<Framework, string> = { 'PCI DSS 4.0': 'PCI DSS', 'NIST SP 800-53 r5': 'NIST SP 800-53' };

export function controlLabel(control: Control): string {
  return `${CITED_AS[control.framework]} ${control.id}`;
}

/** The controls as one line of labels, `; `-separated (empty for none). */
export function controlLabels(controls: readonly Control[]): string {
  return controls.map(controlLabel).join('; ');
}

/** The frameworks the controls belong to, in FRAMEWORKS order. */
export function frameworksOf(controls: readonly Control[]): Framework[] {
  return FRAMEWORKS.filter((f) => controls.some((c) => c.framework === f));
}

/** What is wrong with a rule's `meta.controls` (a custom rule's), one phrase each; empty when nothing is. */
export function controlProblems(controls: unknown): string[] {
  if (controls === undefined) return [];
  if (!Array.isArray(controls)) return [`meta.controls must be a list of {framework, id, title}`];
  const problems: string[] = [];
  const seen = new Set<string>();
  controls.forEach((c: unknown, i) => {
    const at = `meta.controls[${i}]`;
    if (c === null || typeof c !== 'object') return void problems.push(`${at} must be an object {framework, id, title}`);
    const { framework, id, title } = c as Record<string, unknown>;
    if (!FRAMEWORKS.includes(framework as Framework)) problems.push(`${at}.framework must be one of ${FRAMEWORKS.map((f) => `"${f}"`).join(', ')}`);
    if (typeof id !== 'string' || id.trim() === '') problems.push(`${at}.id must be the requirement or control number, e.g. "4.2.1" or "SC-8"`);
    if (typeof title !== 'string' || title.trim() === '') problems.push(`${at}.title must be a non-empty string`);
    const key = `${String(framework)} ${String(id)}`;
    if (seen.has(key)) problems.push(`${at} repeats ${key}`);
    seen.add(key);
  });
  return problems;
}
