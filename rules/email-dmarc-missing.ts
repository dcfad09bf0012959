import { mailRecordsOrAnswer } from '../src/policy/checks/mail-records.js';
import { parseDmarc, sendsMail, type DmarcRecord, type TxtRecord } from '../src/cloudflare/dns/email-records.js';
import { defineRule, type Severity } from '../src/policy/rule.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';

/** RFC 7489 6.6.4: mail left out by pct gets the next weaker policy. */
const WEAKER: Readonly<Record<string, string>> = { reject: 'p=quarantine', quarantine: 'p=none (delivered)' };

/** Why receivers cannot use the record (RFC 7489 6.3, 6.6.3; RFC 6376 3.2), or null when they can. */
function problemOf(d: DmarcRecord): string | null {
  if (d.duplicates.length) return `the tag ${d.duplicates.join(', ')} is given more than once, which voids the tag list (RFC 6376 3.2)`;
  if (d.p === null) return d.pRaw === null ? 'it has no p tag' : `p=${d.pRaw} is not none, quarantine or reject`;
  if (d.sp === 'invalid') return 'its sp tag is not none, quarantine or reject';
  return null;
}

export default defineRule({
  meta: {
    id: 'email-dmarc-missing',
    title: 'The zone publishes one valid DMARC record that enforces its policy (p=reject where it sends no mail)',
    description:
      'DMARC (RFC 7489) is the TXT record at _dmarc.<zone>, starting with v=DMARC1, that tells receivers what to do with mail whose From names the domain but passes neither SPF nor DKIM in alignment, and where to report it. Without one, receivers have no policy to apply and the owner hears of no forgery. ' +
      'Two records make receivers apply no DMARC at all (RFC 7489 6.6.3); a record whose v=DMARC1 is not the first tag is discarded; a missing or unknown p (or an unknown sp) voids the record, or makes it p=none when it has a rua address (6.6.3). ' +
      'p=none only asks for reports (medium: a rollout stage, not protection); pct below 100 applies the policy to a sample only, the rest getting the next weaker policy (low); sp=none leaves every subdomain name, existing or not, without a policy (medium). ' +
      'A zone with no MX record (or only the null MX) and no SPF record naming senders is taken to send no mail: no legitimate mail can fail, so the guidance (UK NCSC, M3AAWG, the vendor\'s own) is p=reject at once, and anything less there is reported at low severity. ' +
      'A CNAME at _dmarc.<zone> publishes the policy elsewhere: reading it needs a DNS query the scan does not make, so the zone is unknown. A subdomain zone without its own record falls back to the organizational domain\'s policy (RFC 7489 6.6.3), which this rule cannot see from the zone\'s records. ' +
      'Partial (CNAME setup), secondary and internal zones are not answered from the records the API lists: the rule passes them.',
    severity: 'high',
    category: 'dns',
    scope: 'zone',
    resource: 'zone',
    messages: {
      missing: '{{zone}} has no DMARC record at _dmarc.{{zone}}: receivers have no policy for mail forged in its name and send no reports of it; {{advice}}',
      multiple: '{{zone}} publishes {{count}} DMARC records at _dmarc.{{zone}} ({{texts}}): receivers apply no DMARC policy at all (RFC 7489 6.6.3)',
      invalid: 'the DMARC record "{{text}}" at _dmarc.{{zone}} is not valid: {{problem}}; {{effect}}',
      monitoringOnly: 'the DMARC record at _dmarc.{{zone}} has p=none: receivers only report mail that fails DMARC and deliver it all the same, so mail forged in the name of {{zone}} is not refused',
      partialEnforcement: 'the DMARC record at _dmarc.{{zone}} applies p={{p}} to {{pct}}% of failing mail only; the rest gets {{weaker}} (RFC 7489 6.6.4)',
      nonSendingNotReject: '{{zone}} sends no mail ({{mxState}}) but its DMARC record has p={{p}}: publish p=reject, since no legitimate mail can fail',
      weakSubdomains: 'the DMARC record at _dmarc.{{zone}} has p={{p}} but sp=none: mail forged in the name of any subdomain of {{zone}}, existing or not, gets no DMARC policy',
    },
    remediation:
      'Publish exactly one TXT record at _dmarc, for example `POST /zones/{zone_id}/dns_records` with `{"type": "TXT", "name": "_dmarc.<zone>", "content": "\\"v=DMARC1; p=reject; rua=mailto:dmarc-reports@<zone>\\""}`; v=DMARC1 must come first and p must be none, quarantine or reject. ' +
      'On a zone that sends mail, start at p=none with a rua address, fix what the reports show, then move to p=quarantine and p=reject with pct=100 (or no pct); remove sp=none unless a subdomain really must go unprotected. ' +
      'Merge duplicate records into one (`PATCH`/`DELETE /zones/{zone_id}/dns_records/{dns_record_id}`). On a zone that sends no mail, publish p=reject (with sp=reject) at once.',
    references: [
      'RFC 7489: Domain-based Message Authentication, Reporting, and Conformance (6.1: the record at _dmarc; 6.3: v first and exactly DMARC1, p, sp, pct, rua; 6.4: ABNF; 6.6.3: discarded records, more than one record means no DMARC, an invalid p or sp with a rua is read as p=none; 6.6.4: pct sampling applies the next weaker policy)',
      'RFC 6376 3.2: tag lists, a tag given twice voids the list',
      'UK NCSC / GOV.UK: Protect domains that do not send email (v=DMARC1; p=reject; sp=reject)',
      'M3AAWG: Protecting Parked Domains Best Common Practices; DMARC deployment (p=none is a monitoring stage)',
      'CISA BOD 18-01: Enhance Email and Web Security (DMARC p=reject on every second-level domain)',
      'vendor docs: How to protect domains that do not send email (v=DMARC1; p=reject)',
      'vendor API reference: DNS records (TXT content: quoted character strings, joined)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const mail = mailRecordsOrAnswer(ctx);
    if (!mail) return;
    const zone = mail.zone;
    if (mail.dmarcCname) {
      return ctx.unknown(ctx.zone.resource, `the DMARC policy of ${zone} is published by CNAME at ${mail.dmarcCname.content}: reading it needs a DNS query the scan does not make`);
    }
    const sending = sendsMail(mail);
    const mxState = mail.nullMx.length ? 'only the null MX' : 'no MX record';
    // Nothing enforced where mail is sent is high; on a zone that sends none, guidance only: low.
    const noneSeverity: Severity = sending ? 'high' : 'low';

    // RFC 7489 6.6.3: TXT records at _dmarc that do not start with v=DMARC1 are discarded. Those
    // that name DMARC1 elsewhere (or in another case) were meant as DMARC records: said as invalid.
    const parsed = mail.dmarc.map((t) => ({ ...t, dmarc: parseDmarc(t.text) })).filter((t) => t.dmarc.namesDmarc || t.dmarc.versionFirst);
    const usable = parsed.filter((t) => t.dmarc.versionFirst);
    const ref = (t: TxtRecord) => ({ type: 'dns_record', id: t.record.id, name: t.record.name });

    if (usable.length === 0) {
      for (const t of parsed) {
        ctx.fail(ref(t), 'invalid', { zone, text: t.text, problem: t.dmarc.versionProblem, effect: 'receivers discard it (RFC 7489 6.3, 6.6.3), as if there were no DMARC record' }, noneSeverity);
      }
      if (parsed.length) return;
      const advice = sending
        ? 'publish one, starting at p=none with a rua address and moving to p=reject'
        : `it sends no mail (${mxState}): publish "v=DMARC1; p=reject" so receivers reject mail forged in its name`;
      return ctx.fail(ctx.zone.resource, 'missing', { zone, advice }, noneSeverity);
    }
    if (usable.length > 1) {
      return ctx.fail(ctx.zone.resource, 'multiple', { zone, count: usable.length, texts: usable.map((t) => `"${t.text}"`).join(', '), records: usable.map((t) => t.record.id) }, noneSeverity);
    }

    const t = usable[0]!;
    const d = t.dmarc;
    const resource = ref(t);
    const problem = problemOf(d);
    if (problem) {
      // RFC 7489 6.6.3: with a valid rua, an invalid p or sp is read as p=none; otherwise no DMARC.
      const asNone = d.duplicates.length === 0 && d.hasRua;
      const effect = asNone ? 'receivers read it as p=none, since it has a rua address (RFC 7489 6.6.3)' : 'receivers apply no DMARC policy (RFC 7489 6.6.3)';
      return ctx.fail(resource, 'invalid', { zone, text: t.text, problem, effect }, asNone && sending ? 'medium' : noneSeverity);
    }

    const p = d.p!;
    passUnlessFailed(ctx, (fail) => {
      if (!sending && p !== 'reject') fail(resource, 'nonSendingNotReject', { zone, mxState, p }, 'low');
      else if (p === 'none') fail(resource, 'monitoringOnly', { zone, p }, 'medium');
      else if (d.pct !== null && d.pct < 100) fail(resource, 'partialEnforcement', { zone, p, pct: d.pct, weaker: WEAKER[p] }, 'low');
      // On the zone: the record may carry a finding of its own, and this one is about the zone's subdomains.
      if (p !== 'none' && d.sp === 'none') fail(ctx.zone.resource, 'weakSubdomains', { zone, p, record: t.record.id }, sending ? 'medium' : 'low');
    }, resource);
  },
});
