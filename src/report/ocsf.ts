import { controlLabel, controlsFor, controlsOfRule, frameworksOf, type Control } from '../policy/compliance.js';
import type { Finding, Status } from '../policy/findings.js';
import type { AnyRule, Severity } from '../policy/rule.js';
import { PACKAGE } from '../common/package-info.js';
import { chunkedWriter } from '../common/chunked-write.js';
import type { ScanRow } from '../snapshot/reader.js';

/**
 * Findings as OCSF 1.3.0 events, a JSON object per line, for SIEMs: each a Compliance Finding (class
 * 2003, category 2 "Findings"), since zonewarden checks configuration against policy (Detection Finding
 * is for threats seen in activity). An export is one scan's state, so every event is activity 1
 * "Create"; a SIEM follows a finding across nights by `finding_info.uid` (the fingerprint). A pass
 * (`--passes`) is Resolved, as Security Hub resolves a passed control's findings. What OCSF has no
 * attribute for (the rule's data, the account, the waiver) is under `unmapped.zonewarden`.
 */

export const OCSF_VERSION = '1.3.0';

const CLASS = { uid: 2003, name: 'Compliance Finding' } as const;
const CATEGORY = { uid: 2, name: 'Findings' } as const;
const ACTIVITY = { id: 1, name: 'Create' } as const;

/** OCSF severity_id: 1 Informational, 2 Low, 3 Medium, 4 High, 5 Critical. */
const SEVERITY: Record<Severity, [number, string]> = { info: [1, 'Informational'], low: [2, 'Low'], medium: [3, 'Medium'], high: [4, 'High'], critical: [5, 'Critical'] };
/** Finding status_id: 1 New, 3 Suppressed, 4 Resolved; compliance status_id: 0 Unknown, 1 Pass, 3 Fail. */
const STATUS: Record<Status, { finding: [number, string]; compliance: [number, string] }> = {
  fail: { finding: [1, 'New'], compliance: [3, 'Fail'] },
  unknown: { finding: [1, 'New'], compliance: [0, 'Unknown'] },
  waived: { finding: [3, 'Suppressed'], compliance: [3, 'Fail'] },
  pass: { finding: [4, 'Resolved'], compliance: [1, 'Pass'] },
};

/** A rule mapped to no framework is its own standard: OCSF requires `standards`. */
const OWN_STANDARD = 'zonewarden';

/** OCSF 1.3.0 `compliance` (schema.ocsf.io/1.3.0/objects/compliance): `standards` (required), `requirements` as cited. */
function complianceOf(ruleId: string, controls: readonly Control[], status: [number, string]): Record<string, unknown> {
  return {
    control: ruleId,
    standards: controls.length ? frameworksOf(controls) : [OWN_STANDARD],
    ...(controls.length ? { requirements: controls.map(controlLabel) } : {}),
    status_id: status[0],
    status: status[1],
  };
}

/** One finding as an OCSF Compliance Finding event. `rule` is absent for a rule no longer in the catalogue. */
export function ocsfEvent(f: Finding, scan: ScanRow, rule: AnyRule | undefined, controls: readonly Control[] = rule ? controlsOfRule(rule.meta) : controlsFor(f.rule)): Record<string, unknown> {
  const time = Date.parse(scan.startedAt);
  const [severityId, severity] = SEVERITY[f.severity];
  const { finding, compliance } = STATUS[f.status];
  const resources: Array<Record<string, unknown>> = [{ uid: f.resource.id, name: f.resource.name ?? undefined, type: f.resource.type }];
  if (f.zone && !(f.resource.type === 'zone' && f.resource.id === f.zone.id)) resources.push({ uid: f.zone.id, name: f.zone.name ?? undefined, type: 'zone' });
  return {
    class_uid: CLASS.uid,
    class_name: CLASS.name,
    category_uid: CATEGORY.uid,
    category_name: CATEGORY.name,
    activity_id: ACTIVITY.id,
    activity_name: ACTIVITY.name,
    type_uid: CLASS.uid * 100 + ACTIVITY.id,
    type_name: `${CLASS.name}: ${ACTIVITY.name}`,
    time,
    severity_id: severityId,
    severity,
    status_id: finding[0],
    status: finding[1],
    ...(f.waiver ? { status_detail: `waived until ${f.waiver.expires} by ${f.waiver.owner}: ${f.waiver.reason}` } : {}),
    message: f.message,
    metadata: {
      version: OCSF_VERSION,
      uid: `${scan.id}:${f.fingerprint}`,
      product: { name: 'zonewarden', vendor_name: 'zonewarden', version: PACKAGE.version },
    },
    finding_info: {
      uid: f.fingerprint,
      title: rule?.meta.title ?? f.rule,
      desc: f.message,
      types: [f.category],
      created_time: time,
      analytic: { uid: f.rule, name: f.rule, type_id: 1, type: 'Rule' },
    },
    compliance: complianceOf(f.rule, controls, compliance),
    // A pass needs nothing done (as in the CSV).
    ...(rule && f.status !== 'pass' ? { remediation: { desc: rule.meta.remediation, ...(rule.meta.references.length ? { references: [...rule.meta.references] } : {}) } } : {}),
    resources,
    unmapped: {
      zonewarden: {
        scan: scan.id,
        rule: f.rule,
        category: f.category,
        status: f.status,
        severity: f.severity,
        message_id: f.messageId,
        account: f.account,
        zone: f.zone,
        data: f.data,
        ...(f.waiver ? { waiver: f.waiver } : {}),
      },
    },
  };
}

/** One finding as a line of OCSF JSON: for lines written after those of writeOcsf (the passes judged again, report --passes). */
export const ocsfLine = (f: Finding, scan: ScanRow, rules: ReadonlyMap<string, AnyRule>): string =>
  `${JSON.stringify(ocsfEvent(f, scan, rules.get(f.rule)))}\n`;

/** Writes the findings as OCSF JSON lines, in the order given (stored findings come worst first). */
export function writeOcsf(findings: Iterable<Finding>, scan: ScanRow, rules: ReadonlyMap<string, AnyRule>, write: (text: string) => void): void {
  const out = chunkedWriter(write);
  for (const f of findings) out.push(ocsfLine(f, scan, rules));
  out.flush();
}
