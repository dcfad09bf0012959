import { CA_DOMAINS, caaAllows, parseCaa, relevantCaa, type CaaRecord } from '../src/policy/caa.js';
import { packStatus } from '../src/policy/certificates.js';
import { normaliseHostname } from '../src/policy/hostnames.js';
import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'caa-missing',
    title: 'CAA records name the CAs allowed to issue, including the one that issues the zone\'s packs',
    description:
      'CAA records tell every public CA whether it may issue for the domain; without them any CA may, so a mis-issued certificate for the domain is one mistake or one compromised CA away. CAA that leaves out the CA the zone\'s certificate packs come from is worse: that CA must refuse the next renewal, and the certificate expires.',
    severity: 'medium',
    category: 'dns',
    scope: 'zone',
    resource: 'zone',
    messages: {
      missing: 'the zone has no CAA records at {{zone}}: any certificate authority may issue for it',
      caNotAllowed: 'the CAA records at {{caaName}} do not allow {{ca}} ({{issuers}}), which issues the {{type}} pack for {{hosts}}: its next issuance or renewal will be refused',
    },
    remediation:
      'Add CAA `issue` records at the apex for each CA you use, including the one your certificate packs name (letsencrypt.org, pki.goog, ssl.com, digicert.com, sectigo.com), and `issuewild` where wildcards come from another CA; an `iodef` record gets you told of refused requests.',
    references: ['RFC 8659: DNS Certification Authority Authorization (CAA) Resource Record', 'vendor docs: certificate packs (certificate_authority: lets_encrypt, google, ssl_com, digicert, sectigo)', 'vendor docs: DNS records (CAA: flags, tag, value)'],
  },
  defaultOptions: {},
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);
    const byName = new Map<string, CaaRecord[]>();
    for (const r of records.items) {
      if (r.type !== 'CAA' || r.name === null || r.content === null) continue;
      const caa = parseCaa(r.name, r.content);
      if (!caa) continue;
      const list = byName.get(caa.name) ?? [];
      list.push(caa);
      byName.set(caa.name, list);
    }
    const zone = normaliseHostname(ctx.zone.name);
    let failed = false;
    if (!byName.get(zone)?.length) {
      ctx.fail(ctx.zone.resource, 'missing', { zone });
      failed = true;
    }
    for (const pack of packs.items) {
      const status = packStatus(pack);
      if (status === 'deleted' || status === 'expired' || pack.certificateAuthority === null) continue;
      const issuers = CA_DOMAINS[pack.certificateAuthority];
      // A CA the vendor adds later: its issuer domain is not known here, so nothing is claimed.
      if (!issuers) continue;
      const refused = new Map<string, string[]>();
      for (const host of pack.hosts) {
        const set = relevantCaa(host, byName, zone);
        if (caaAllows(set, issuers, host.startsWith('*.'))) continue;
        const at = set[0]!.name;
        refused.set(at, [...(refused.get(at) ?? []), host]);
      }
      for (const [caaName, hosts] of refused) {
        ctx.fail({ type: 'certificate_pack', id: pack.id, name: hosts.join(', ') }, 'caNotAllowed', { caaName, ca: pack.certificateAuthority, issuers: issuers.join(' or '), type: pack.type ?? 'certificate', hosts: hosts.join(', ') }, 'high');
        failed = true;
      }
    }
    if (!failed) ctx.pass();
  },
});
