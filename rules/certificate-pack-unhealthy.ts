import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'certificate-pack-unhealthy',
    title: 'Certificate packs are active',
    description:
      'A certificate pack that is not active (validation timed out, issuance failed, expired, still pending) serves no certificate for its hosts: HTTPS to them fails or falls back to another certificate. Its validation errors usually name the cause, such as a CAA record or a missing validation TXT record.',
    severity: 'medium',
    category: 'tls',
    scope: 'zone',
    resource: 'certificate_pack',
    messages: {
      notActive: 'the certificate pack for {{hosts}} is {{status}}, not active',
      notActiveWithErrors: 'the certificate pack for {{hosts}} is {{status}}, not active: {{errors}}',
    },
    remediation:
      'Fix what the validation errors name (allow the certificate authority in the CAA records, publish the validation record), then restart validation; delete packs that are no longer needed.',
    references: ['API spec: Resources and their fields (Certificate pack: status)', 'api-facts: certificate pack status values and validation_errors'],
    optionHelp: {
      ignoreStatuses: 'pack statuses that are not reported (a deleted pack serves nothing and is meant not to)',
    },
  },
  defaultOptions: { ignoreStatuses: ['deleted'] as readonly string[] },
  check(ctx) {
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);
    const ignored = new Set(ctx.options.ignoreStatuses);
    let clean = true;
    for (const pack of packs.items) {
      if (pack.status === 'active' || (pack.status !== null && ignored.has(pack.status))) continue;
      clean = false;
      const hosts = pack.hosts.join(', ');
      const resource = { type: 'certificate_pack', id: pack.id, name: hosts || null };
      // Like a zone without a status (zone-not-active): the field is missing, so the pack cannot be judged.
      if (pack.status === null) {
        ctx.unknown(resource, 'the certificate pack has no status');
        continue;
      }
      const data = { hosts: hosts || pack.id, status: pack.status, type: pack.type, errors: pack.validationErrors.join('; ') };
      ctx.fail(resource, pack.validationErrors.length ? 'notActiveWithErrors' : 'notActive', data);
    }
    if (clean) ctx.pass();
  },
});
