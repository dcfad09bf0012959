import { defineRule } from '../src/policy/rule.js';

/** RFC 9116 2.5.3 and 2.5.5: the two fields a security.txt must have. */
function problemsOf(contact: string[], expires: Date | null, expiresText: string | null): string[] {
  const problems: string[] = [];
  if (contact.length === 0) problems.push('no Contact (RFC 9116 2.5.3: at least one is required)');
  if (expires === null) problems.push(expiresText === null ? 'no Expires (RFC 9116 2.5.5: required once)' : `an Expires that is not a date ("${expiresText}")`);
  return problems;
}

export default defineRule({
  meta: {
    id: 'security-txt-missing',
    title: 'A zone that serves pages publishes a current security.txt with a contact',
    description:
      "A security.txt (RFC 9116) at /.well-known/security.txt tells whoever finds a vulnerability where to report it; without one, reports go to a generic mailbox, social media or nowhere. The vendor serves one for the zone from its security settings (Security Center, every plan). RFC 9116 requires a Contact (2.5.3) and one Expires (2.5.5), and a file past its Expires is to be treated as stale (2.5.5), so a file that lacks either or has expired fails too, with a message of its own. Only zones that serve pages through the edge (active, not paused, with a proxied A, AAAA or CNAME record) are judged; other zones pass as not applicable. A zone serving its own security.txt from the origin can waive the finding: the rule reads only the vendor's. Low: nothing is exposed, but a reporter may not reach you.",
    severity: 'low',
    category: 'zone',
    scope: 'zone',
    resource: 'zone',
    reads: ['security_txt'],
    messages: {
      missing: 'the zone serves pages but publishes no security.txt: a researcher who finds a vulnerability has no published way to report it',
      expired: "the zone's security.txt expired on {{expires}}: RFC 9116 has readers treat its contacts as stale",
      incomplete: "the zone's security.txt is incomplete: {{problems}}",
    },
    remediation:
      'Publish one: `PUT /zones/{zone_id}/security-center/securitytxt` with `{"enabled": true, "contact": ["mailto:security@example.com"], "expires": "<a date less than a year ahead>", "policy": [...]}` (dashboard: Security > Settings, security.txt), and renew Expires before it passes (RFC 9116 recommends less than a year ahead).',
    references: [
      'RFC 9116 (A File Format to Aid in Security Vulnerability Disclosure): 2.5.3 Contact required, 2.5.5 Expires required and data past it is stale, 3 location /.well-known/security.txt',
      'vendor API reference: Security TXT (GET/PUT/DELETE /zones/{zone_id}/security-center/securitytxt: enabled, contact, expires, encryption, policy, acknowledgments, canonical, hiring, preferred_languages)',
      'vendor docs: Security Center, security.txt (served by the edge for the zone)',
      'vendor docs: proxy status (DNS-only records bypass the edge, which serves nothing for them)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = ctx.zone.securityTxt();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    const txt = read.value && read.value.enabled === true ? read.value : null;
    if (txt) {
      const problems = problemsOf(txt.contact, txt.expires, txt.expiresText);
      if (problems.length === 0) {
        // RFC 9116 2.5.5: from its Expires on, the file is stale.
        if (txt.expires!.getTime() > ctx.now.getTime()) return ctx.pass();
      }
    }
    const serves = ctx.zone.servesPages();
    if (!serves.known) return ctx.unknown(ctx.zone.resource, serves.reason);
    if (!serves.value) return ctx.pass();
    if (!txt) return ctx.fail(ctx.zone.resource, 'missing');
    const problems = problemsOf(txt.contact, txt.expires, txt.expiresText);
    if (problems.length === 0) return ctx.fail(ctx.zone.resource, 'expired', { expires: txt.expires!.toISOString() });
    if (txt.expires !== null && txt.expires.getTime() <= ctx.now.getTime()) problems.push(`it expired on ${txt.expires.toISOString()}`);
    ctx.fail(ctx.zone.resource, 'incomplete', { problems: problems.join('; ') });
  },
});
