import { mailRecordsOrAnswer } from '../src/policy/checks/mail-records.js';
import { parseSpf, sendsMail, spfAll, spfLookups, spfRedirect } from '../src/cloudflare/dns/email-records.js';
import { defineRule } from '../src/policy/rule.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';

export default defineRule({
  meta: {
    id: 'email-spf-missing',
    title: 'The zone publishes one valid SPF record that refuses unlisted senders (v=spf1 -all where it sends no mail)',
    description:
      'SPF (RFC 7208) is the TXT record at the apex, starting with v=spf1, that lists the hosts allowed to send mail as the domain; receivers, and DMARC built on it, refuse or flag mail from other hosts only when it is there. ' +
      'Two SPF records, or one a receiver cannot parse, answer permerror (RFC 7208 4.5, 4.6): as good as none. ' +
      'A record ending in +all (or a bare all, which is +all) lets every host on the internet send as the domain; ?all, or no all and no redirect (RFC 7208 4.7), gives unlisted hosts "neutral", which refuses nothing. ' +
      'More than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect) make receivers answer permerror (RFC 7208 4.6.4); the rule counts the terms of the record itself, since following includes needs DNS queries the scan does not make, so a record under the limit may still pass it through its includes. ' +
      'A zone with no MX record (or only the null MX of RFC 7505) and no SPF record naming senders is taken to send no mail: the guidance for such domains (UK NCSC, M3AAWG, the vendor\'s own) is the null SPF record v=spf1 -all, reported at low severity. ' +
      'Partial (CNAME setup), secondary and internal zones are not answered from the records the API lists: the rule passes them.',
    severity: 'high',
    category: 'dns',
    scope: 'zone',
    resource: 'zone',
    messages: {
      missing: '{{zone}} has mail servers ({{mx}}) but no SPF record: receivers cannot tell which hosts may send as {{zone}}, so mail forged in its name is not refused',
      nullSpfMissing:
        '{{zone}} has {{mxState}} and no SPF record: if it sends no mail, publish "v=spf1 -all" so receivers refuse mail forged in its name (if it does send mail, publish the SPF record of its senders instead)',
      multiple: '{{zone}} publishes {{count}} SPF records ({{texts}}): receivers answer permerror (RFC 7208 4.5), as if there were none',
      invalid: 'the SPF record "{{text}}" at {{zone}} is not valid ({{errors}}): receivers answer permerror (RFC 7208 4.6), as if there were none',
      allowsAll: 'the SPF record "{{text}}" at {{zone}} ends in {{all}}, which passes every host: anyone on the internet may send mail as {{zone}}',
      neutralAll: 'the SPF record "{{text}}" at {{zone}} ends in {{all}}: mail from hosts it does not list gets "neutral", which refuses nothing',
      noAll: 'the SPF record "{{text}}" at {{zone}} has neither an all mechanism nor a redirect: mail from hosts it does not list gets "neutral" (RFC 7208 4.7), which refuses nothing',
      tooManyLookups:
        'the SPF record at {{zone}} has {{count}} terms that query DNS, more than {{max}} (RFC 7208 4.6.4): receivers answer permerror once evaluation passes the limit{{note}}',
      nullSpfWeak: '{{zone}} has {{mxState}} and its SPF record "{{text}}" authorizes no host but ends in {{all}}: publish "v=spf1 -all" so mail forged in its name fails SPF outright',
    },
    remediation:
      'Publish exactly one TXT record at the apex, for example `POST /zones/{zone_id}/dns_records` with `{"type": "TXT", "name": "<zone>", "content": "\\"v=spf1 include:<your mail provider> -all\\""}`, listing every service that sends as the domain and ending in -all (or ~all while you check with DMARC reports); merge several SPF records into one (`PATCH`/`DELETE /zones/{zone_id}/dns_records/{dns_record_id}`). ' +
      'Replace +all, ?all or a bare all with -all or ~all. Keep the DNS-querying terms at 10 or fewer: replace a and mx with ip4/ip6 ranges and drop includes you no longer use. ' +
      'For a zone that sends no mail, publish `v=spf1 -all` (and a null MX, `{"type": "MX", "name": "<zone>", "content": ".", "priority": 0}`, and DMARC p=reject).',
    references: [
      'RFC 7208: Sender Policy Framework (3.3: several strings of one record are joined; 4.5: one record, v=spf1 then a space or the end, more than one is permerror; 4.6: syntax errors are permerror; 4.6.2: a mechanism without a qualifier is +; 4.6.4: at most 10 DNS-querying terms; 4.7: no match and no redirect is neutral; 5.1: all, mechanisms after it are never tested; 6: redirect and exp once each; 6.1: redirect ignored beside all)',
      'RFC 7505: A "Null MX" No Service Resource Record for Domains That Accept No Mail',
      'UK NCSC / GOV.UK: Protect domains that do not send email (v=spf1 -all, DMARC p=reject, null MX)',
      'M3AAWG: Protecting Parked Domains Best Common Practices (null SPF for domains that send no mail)',
      'CISA BOD 18-01: Enhance Email and Web Security (SPF on every second-level domain, v=spf1 -all for those that send no mail)',
      'vendor docs: How to protect domains that do not send email (v=spf1 -all)',
      'vendor API reference: DNS records (TXT content: quoted character strings of up to 255 bytes, longer ones split; MX content is the mail server, priority apart)',
    ],
    optionHelp: {
      maxLookups: 'the most DNS-querying terms (include, a, mx, ptr, exists, redirect) the SPF record may hold; RFC 7208 4.6.4 sets 10, after which receivers answer permerror',
    },
  },
  defaultOptions: { maxLookups: 10 },
  check(ctx) {
    const mail = mailRecordsOrAnswer(ctx);
    if (!mail) return;
    const zone = mail.zone;
    const sending = sendsMail(mail);
    const mxState = mail.nullMx.length ? 'only the null MX (RFC 7505)' : 'no MX record';
    // A broken or missing SPF record is as bad as it is for the zone: high where mail is sent
    // (forged mail is not refused), low for a zone that sends none (guidance, not an exposure of its mail).
    const noneSeverity = sending ? 'high' : 'low';

    if (mail.spf.length === 0) {
      if (sending) return ctx.fail(ctx.zone.resource, 'missing', { zone, mx: mail.mx.map((r) => r.content).join(', ') }, 'high');
      return ctx.fail(ctx.zone.resource, 'nullSpfMissing', { zone, mxState }, 'low');
    }
    if (mail.spf.length > 1) {
      return ctx.fail(ctx.zone.resource, 'multiple', { zone, count: mail.spf.length, texts: mail.spf.map((s) => `"${s.text}"`).join(', '), records: mail.spf.map((s) => s.record.id) }, noneSeverity);
    }

    const { record, text } = mail.spf[0]!;
    const resource = { type: 'dns_record', id: record.id, name: record.name };
    const policy = parseSpf(text);
    if (policy.errors.length) return ctx.fail(resource, 'invalid', { zone, text, errors: policy.errors.join('; ') }, noneSeverity);
    const all = spfAll(policy);

    if (!sending) {
      // The record authorizes no host (else the zone would be taken to send mail): -all makes that a hard fail.
      if (all?.qualifier === '-') return ctx.pass(resource);
      return ctx.fail(resource, 'nullSpfWeak', { zone, mxState, text, all: all?.text ?? 'no all mechanism (neutral, RFC 7208 4.7)' }, 'low');
    }

    const lookups = spfLookups(policy);
    passUnlessFailed(ctx, (fail) => {
      if (all?.qualifier === '+') fail(resource, 'allowsAll', { zone, text, all: all.text === 'all' ? 'all (a bare all is +all, RFC 7208 4.6.2)' : all.text }, 'high');
      else if (all?.qualifier === '?') fail(resource, 'neutralAll', { zone, text, all: all.text }, 'medium');
      else if (!all && spfRedirect(policy) === null) fail(resource, 'noAll', { zone, text }, 'medium');
      if (lookups.count <= ctx.options.maxLookups) return;
      // Another finding may sit on the record: the lookup count is the zone's SPF evaluation, reported on the zone.
      const note = lookups.delegations.length
        ? `; ${lookups.delegations.join(', ')} add lookups of their own, not counted here (following them needs DNS queries the scan does not make)`
        : '';
      fail(ctx.zone.resource, 'tooManyLookups', { zone, count: lookups.count, max: ctx.options.maxLookups, note, record: record.id, notFollowed: lookups.delegations, countedInRecordOnly: true }, 'medium');
    }, resource);
  },
});
