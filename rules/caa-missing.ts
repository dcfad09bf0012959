import { CA_DOMAINS, caaAllows, caaOf, describeProperty, governingProperties, mayStopIssuance, relevantCaa, servedForm, VENDOR_CAA_CAS, type CaaRecord } from '../src/cloudflare/dns/caa.js';
import { isManaged, packStatus } from '../src/cloudflare/ssl/certificates.js';
import { normaliseHostname } from '../src/cloudflare/dns/hostnames.js';
import type { CertificatePack } from '../src/cloudflare/ssl/certificate-pack.js';
import { defineRule } from '../src/policy/rule.js';
import { passUnlessFailed } from '../src/policy/checks/zone-security.js';

/** A pack's hosts whose CAA does not name the pack's CA, with the records that decided it. */
interface Refusal {
  hosts: string[];
  caaNames: Set<string>;
  governing: CaaRecord[];
}

/** The hosts of the pack whose relevant CAA does not let its CA issue; null when all may be issued. */
function refusalOf(pack: CertificatePack, issuers: readonly string[], byName: ReadonlyMap<string, CaaRecord[]>, zone: string): Refusal | null {
  const refusal: Refusal = { hosts: [], caaNames: new Set(), governing: [] };
  for (const host of pack.hosts) {
    const set = relevantCaa(host, byName, zone);
    // A critical tag beside (reported on its record) stops only the CAs that do not support it: for
    // the others the issue properties still decide, so they are judged here all the same.
    const wildcard = host.startsWith('*.');
    if (caaAllows(set, issuers, wildcard)) continue;
    refusal.hosts.push(host);
    refusal.caaNames.add(set[0]!.name);
    for (const r of governingProperties(set, wildcard)) if (!refusal.governing.includes(r)) refusal.governing.push(r);
  }
  return refusal.hosts.length ? refusal : null;
}

export default defineRule({
  meta: {
    id: 'caa-missing',
    title: 'CAA records restrict issuance, and allow the CA of each certificate the vendor adds no CAA records for',
    description:
      'CAA records (RFC 8659) tell every public CA whether it may issue for a name; without an `issue` property any CA may, so a mis-issued certificate is one mistake or one compromised CA away. ' +
      'Only issue, issuewild and iodef are understood by every CA: a record marked critical with any other tag (contactemail, issuemail, or one in no registry) makes every CA that does not support that tag refuse to issue, the vendor\'s renewals included. ' +
      'CAA that leaves out the CA of a certificate you upload makes that CA refuse its renewal. ' +
      'For the certificates the vendor manages (universal, advanced, total TLS) on a full-setup zone, the vendor adds CAA records the API does not list for the CAs its CAA page names (Google Trust Services, Let\'s Encrypt, SSL.com, Sectigo), so for those the visible records are not what CAs see: such a pack renews, and passes with a note (shown with `--passes`) when the visible records leave its CA out; a managed pack from another CA (DigiCert) gets no such record and is judged as an uploaded certificate. ' +
      'Partial (CNAME setup) and secondary zones are answered by other DNS servers, and internal zones are not in public DNS at all: the rule passes them.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'zone',
    messages: {
      missing: 'the zone has no CAA records at {{zone}}: any certificate authority may issue for it',
      unrestricted: 'the CAA records at {{zone}} ({{tags}}) hold no issue property, so they restrict nothing: any certificate authority may issue for {{zone}}',
      criticalUnknown:
        'the CAA record {{record}} at {{caaName}} marks the tag {{tag}} critical (flags {{flags}}): CAs that do not support the critical tag {{tag}} must refuse to issue for {{caaName}} and the names below it without CAA of their own, the vendor\'s renewals included; only issue, issuewild and iodef are understood by every CA',
      caNotAllowed:
        'the CAA records at {{caaName}} allow {{allowed}}, not {{ca}} ({{issuers}}), which {{certificate}} for {{hosts}}: that CA must refuse to renew or replace it{{note}}',
      managedNotNamed:
        'the visible CAA records at {{caaName}} allow {{allowed}}, not {{ca}} ({{issuers}}), which issues the {{type}} pack for {{hosts}}; the vendor adds CAA records for this CA that the API does not list, so CAs see more than this and the pack still renews',
    },
    remediation:
      'Add CAA `issue` records at the apex for each CA you use, `issuewild` where wildcards come from another CA, and an `iodef` record to be told of refused requests. ' +
      'For a certificate you upload, name its CA (letsencrypt.org, pki.goog, ssl.com, digicert.com, sectigo.com, ...). ' +
      'The vendor\'s own certificates from the CAs it adds CAA records for (Google Trust Services, Let\'s Encrypt, SSL.com, Sectigo) need nothing from you on a full setup; naming their CA (the pack\'s certificate authority) as well makes the records say what CAs see. ' +
      'For a pack the vendor manages from a CA it adds no CAA records for (DigiCert), name that CA too, or order the pack from another CA. ' +
      'Remove the critical flag (128) from a record whose tag is not issue, issuewild or iodef, or remove the record.',
    references: [
      'RFC 8659: DNS Certification Authority Authorization (CAA) Resource Record (3: relevant record set; 4: no issue property restricts nothing; 4.1: flags, a critical property with an unknown or unsupported tag forbids issuance, tags case-insensitive; 4.2: issue, empty issuer; 4.3: issuewild)',
      'Let\'s Encrypt: CAA (supports the issue, issuewild and iodef tags only)',
      'RFC 8657: CAA record extensions for account URI and ACME method binding (accounturi, validationmethods)',
      'IANA: Certification Authority Restriction Properties registry',
      'vendor docs: Add CAA records (records the vendor adds, not listed, for universal and advanced certificates: pki.goog, letsencrypt.org, ssl.com, sectigo.com; full setup only)',
      'vendor docs: Internal DNS, internal zones (no vendor nameservers; queried only through the vendor\'s Gateway resolver)',
      'vendor docs: certificate packs (type; certificate_authority: lets_encrypt, google, ssl_com, digicert, sectigo)',
      'vendor docs: DNS records (CAA: data {flags, tag, value})',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    // vendor docs (Add CAA records; Internal DNS): CAA set here counts on a full setup only; partial,
    // secondary and internal zones' records are not what CAs resolve. A pass: a note would be noise.
    if (!ctx.zone.publicDnsIsHere) return ctx.pass();
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);
    const zone = normaliseHostname(ctx.zone.name);
    const byName = new Map<string, CaaRecord[]>();
    passUnlessFailed(ctx, (fail) => {
      for (const r of records.items) {
        // vendor docs (DNS records): a CAA record may come with data {flags, tag, value} and no content.
        const caa = caaOf(r);
        if (!caa) continue;
        byName.set(caa.name, [...(byName.get(caa.name) ?? []), caa]);
        if (mayStopIssuance(caa)) {
          fail({ type: 'dns_record', id: r.id, name: r.name }, 'criticalUnknown', { caaName: caa.name, record: servedForm(r), tag: caa.tag, flags: caa.flags }, 'high');
        }
      }

      const apex = byName.get(zone) ?? [];
      if (apex.length === 0) fail(ctx.zone.resource, 'missing', { zone });
      else if (!apex.some(mayStopIssuance) && governingProperties(apex, false).length === 0) {
        // RFC 8659 4: a set of iodef, issuewild or unknown non-critical tags does not restrict the name
        // itself. One with a critical tag beyond those is reported on that record instead.
        fail(ctx.zone.resource, 'unrestricted', { zone, tags: [...new Set(apex.map((r) => r.tag))].sort().join(', ') });
      }

      for (const pack of packs.items) {
        const status = packStatus(pack);
        if (status === 'deleted' || status === 'expired' || pack.certificateAuthority === null) continue;
        const issuers = CA_DOMAINS[pack.certificateAuthority];
        // A CA the vendor adds later: its issuer domain is not known here, so nothing is claimed.
        if (!issuers) continue;
        const refusal = refusalOf(pack, issuers, byName, zone);
        if (!refusal) continue;
        const hosts = refusal.hosts.join(', ');
        const data = {
          caaName: [...refusal.caaNames].join(', '),
          ca: pack.certificateAuthority,
          issuers: issuers.join(' or '),
          type: pack.type ?? 'certificate',
          hosts,
          certificate: isManaged(pack) ? `issues the vendor-managed ${pack.type ?? 'certificate'} pack` : `issued the uploaded ${pack.type ?? 'certificate'} certificate`,
          note: isManaged(pack) ? '; the vendor adds CAA records only for pki.goog, letsencrypt.org, ssl.com and sectigo.com, not for this CA' : '',
          allowed: [...new Set(refusal.governing.map(describeProperty))].join(', '),
          properties: refusal.governing.map((r) => ({ name: r.name, tag: r.tag, issuer: r.issuer, parameters: r.parameters })),
        };
        // vendor docs (Add CAA records): for managed packs the vendor adds issue and issuewild records
        // for the CAs it uses (pki.goog, letsencrypt.org, ssl.com, sectigo.com), so such a pack renews
        // whatever the listed records say: it passes, with a note.
        const resource = { type: 'certificate_pack', id: pack.id, name: hosts };
        if (isManaged(pack) && VENDOR_CAA_CAS.has(pack.certificateAuthority)) ctx.pass(resource, 'managedNotNamed', data);
        else fail(resource, 'caNotAllowed', data, 'high');
      }
    });
  },
});
