import { dkimKey, sendsMail, type MailRecords } from '../src/cloudflare/dns/email-records.js';
import { mailRecordsOrAnswer } from '../src/policy/checks/mail-records.js';
import { defineRule } from '../src/policy/rule.js';

/** What says the zone sends mail, for the message. */
function evidence(mail: MailRecords): string {
  return mail.mx.length ? `MX ${mail.mx.map((r) => r.content).join(', ')}` : 'its SPF record authorizes senders';
}

export default defineRule({
  meta: {
    id: 'email-dkim-missing',
    title: 'A zone that sends mail publishes a DKIM key',
    description:
      'DKIM (RFC 6376) signs outgoing mail with a key whose public half is published at <selector>._domainkey.<zone>; receivers verify the signature, and DMARC passes on an aligned DKIM signature even where SPF fails, as it does for forwarded mail. Without a key, DMARC rests on SPF alone and large mailbox providers treat the mail as unauthenticated. ' +
      'A key is a TXT record under _domainkey with v=DKIM1 (first, if present) and a p= a verifier can use: valid base64 that decodes to a key of the type k= declares (rsa, the default: an RSA public key, bare or in a SubjectPublicKeyInfo, of at least 1,024 bits; ed25519: the 32 bytes of the raw key). A verifier that cannot decode or parse the key fails every signature made with it (RFC 6376 6.1.2), so such a record counts as no key and its reason is named. An empty p= is a revoked key (RFC 6376 3.6.1) and does not count either. Mail providers often publish the key themselves and have the zone point at it with a CNAME under _domainkey (Microsoft 365: selector1 and selector2; Amazon SES Easy DKIM; SendGrid, Mailchimp and others): such a CNAME counts as a key, its target not being read (that needs DNS queries the scan does not make). ' +
      'A zone with no MX record (or only the null MX of RFC 7505) and no SPF record naming senders is taken to send no mail and passes as not applicable. ' +
      'Partial (CNAME setup), secondary and internal zones are not answered from the records the API lists: the rule passes them.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'zone',
    messages: {
      missing: '{{zone}} sends mail ({{evidence}}) but publishes no DKIM key under _domainkey.{{zone}}{{detail}}: its mail cannot carry a signature receivers verify, so DMARC rests on SPF alone, which forwarding breaks',
      onlyRevoked: '{{zone}} sends mail ({{evidence}}) but every DKIM key under _domainkey.{{zone}} is revoked (empty p=, RFC 6376 3.6.1: {{selectors}}): no signature in its name can verify',
    },
    remediation:
      'Turn on DKIM signing at each service that sends as the domain and publish the key it gives: a TXT record, for example `POST /zones/{zone_id}/dns_records` with `{"type": "TXT", "name": "<selector>._domainkey.<zone>", "content": "\\"v=DKIM1; k=rsa; p=<public key>\\""}`, or the CNAME records the provider names (`{"type": "CNAME", "name": "selector1._domainkey.<zone>", "content": "<provider target>", "proxied": false}`). ' +
      'Replace revoked keys (empty p=) with the current ones, and a key record the message calls unusable with the key exactly as the sending service gives it (the whole base64 text, nothing cut off at a 255-byte string boundary; k=ed25519 for an Ed25519 key). If the zone sends no mail, remove its MX records or replace them with the null MX.',
    references: [
      'RFC 6376: DomainKeys Identified Mail (DKIM) Signatures (3.2: tag lists; 3.6.1: key record, v first and DKIM1, k default rsa and unknown types ignored, p base64 and required, empty p is a revoked key; 3.6.2.1: keys at <selector>._domainkey.<domain>; 6.1.2: a key that cannot be decoded or parsed fails verification)',
      'RFC 6376 erratum 3017: the rsa key is an RSAPublicKey, which may be contained in a SubjectPublicKeyInfo',
      'RFC 8301 3.2: verifiers must not accept signatures made with RSA keys of fewer than 1024 bits',
      'RFC 8463 4.2: k=ed25519, p= the base64 of the 32-byte raw Ed25519 public key',
      'RFC 7489 4.2: DMARC passes on an aligned SPF or DKIM result',
      'RFC 7505: A "Null MX" No Service Resource Record for Domains That Accept No Mail',
      'Microsoft Learn: Set up DKIM for a custom domain in Microsoft 365; New-DkimSigningConfig (CNAME records selector1._domainkey and selector2._domainkey point at keys Microsoft publishes)',
      'Amazon SES Developer Guide: Easy DKIM (CNAME records under _domainkey point at DKIM public keys hosted by Amazon SES)',
      'Google: Email sender guidelines (DKIM for every sender to Gmail, SPF and DKIM for bulk senders)',
      'vendor API reference: DNS records (TXT content: quoted character strings, joined; CNAME content is the target)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const mail = mailRecordsOrAnswer(ctx);
    if (!mail) return;
    // A zone that sends no mail signs none: not applicable (its guidance is null SPF and DMARC p=reject).
    if (!sendsMail(mail)) return ctx.pass();
    // Provider keys published by CNAME (Microsoft 365, Amazon SES): the target is the provider's key.
    if (mail.dkimCnames.some((c) => c.target !== '' && c.target !== '.')) return ctx.pass();
    const revoked: string[] = [];
    const unusable: string[] = [];
    for (const t of mail.dkim) {
      const key = dkimKey(t.text);
      if (key.state === 'key') return ctx.pass();
      if (key.state === 'revoked') revoked.push(t.selector);
      else if (key.state === 'invalid') unusable.push(`${t.selector}: ${key.reason}`);
    }
    const zone = mail.zone;
    if (revoked.length && !unusable.length) return ctx.fail(ctx.zone.resource, 'onlyRevoked', { zone, evidence: evidence(mail), selectors: revoked.join(', ') });
    const parts = [...(revoked.length ? [`revoked: ${revoked.join(', ')}`] : []), ...unusable];
    const detail = parts.length ? ` (unusable key records: ${parts.join('; ')})` : '';
    ctx.fail(ctx.zone.resource, 'missing', { zone, evidence: evidence(mail), detail, revoked, unusable });
  },
});
