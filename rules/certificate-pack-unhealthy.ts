import { freshCoverage, packStartedAt, packStatus, type PackStartSource } from '../src/cloudflare/ssl/certificates.js';
import { defineRule } from '../src/policy/rule.js';

const HOUR_MS = 3_600_000;

/** Pack statuses that are no trouble (vendor docs: certificate pack statuses); `*_timed_out` always is. */
const HARMLESS = new Set([
  'active',
  'deleted',
  'staging_deployment',
  'staging_active',
  'deactivating',
  'inactive',
  'backup_issued',
  'pending_deletion',
  'pending_cleanup',
  'pending_expiration',
]);

/** Statuses of a pack on its way to active: normal for a while, trouble once the grace period is over. */
const isPending = (status: string) => status === 'initializing' || status === 'holding_deployment' || status.startsWith('pending_');

const hours = (ms: number) => {
  const h = Math.floor(ms / HOUR_MS);
  return h >= 48 ? `${Math.floor(h / 24)} days` : h === 1 ? '1 hour' : `${h} hours`;
};

/** How the pack's start was dated, said in its message. */
function dating(source: PackStartSource, since: string): string {
  // The day only, as the certificate rules' other messages date things.
  const at = since.slice(0, 10);
  if (source === 'created_on') return `created on ${at}`;
  if (source === 'uploaded_on') return `no created_on; its first certificate was uploaded on ${at}`;
  return `no created_on; a scan first saw it on ${at}`;
}

export default defineRule({
  meta: {
    id: 'certificate-pack-unhealthy',
    title: 'Certificate packs are active or on their way',
    description:
      'A certificate pack in trouble serves no certificate for its hosts: HTTPS to them fails or falls back to another certificate. Trouble is a step that timed out (validation, issuance, deployment), validation errors (a CAA record, a missing validation TXT record), an expired pack still serving hosts no active pack covers, or a pack still pending after the grace period. A pending pack is dated by its created_on, else its first certificate\'s upload, else the start of the first scan that saw it (a pack still initializing may come with no date at all), which makes its age a lower bound. Staging, deactivating, inactive, backup and deletion states, and an expired pack whose hosts an active pack serves, are normal.',
    severity: 'medium',
    category: 'tls',
    scope: 'zone',
    resource: 'certificate_pack',
    messages: {
      notActive: 'the certificate pack for {{hosts}} is {{status}}, not active',
      notActiveWithErrors: 'the certificate pack for {{hosts}} is {{status}}, not active: {{errors}}',
      renewalFailing: 'the certificate pack for {{hosts}} is active but its validation reports errors: {{errors}}',
      pendingTooLong: 'the certificate pack for {{hosts}} has been {{status}} for {{age}}, more than the {{grace}}-hour grace period: {{dating}}',
      expiredUnserved: 'the certificate pack for {{hosts}} is expired and no active pack serves {{uncovered}}',
    },
    remediation:
      'Fix what the validation errors name (allow the certificate authority in the CAA records, publish the validation record), then restart validation; for an expired pack, order a new pack for its hosts or delete it when they are no longer served.',
    references: [
      'API spec: Resources and their fields (Certificate pack: status, created_on)',
      'vendor docs: certificate pack statuses (timed-out, pending, staging, backup and deletion states)',
      'vendor docs: certificate pack status values and validation_errors',
      'a captured GET ssl/certificate_packs answer (cf-terraforming test data): an initializing pack with no created_on and no certificates',
    ],
    optionHelp: {
      ignoreStatuses: 'pack statuses that are never reported',
      pendingGraceHours:
        'hours a pack may stay pending (initializing, pending_validation, pending_issuance, ...) before it is reported, counted from its created_on, else its first certificate, else the first scan that saw it',
    },
  },
  defaultOptions: { ignoreStatuses: ['deleted'] as readonly string[], pendingGraceHours: 24 },
  check(ctx) {
    const packs = ctx.zone.certificatePacks();
    if (!packs.known) return ctx.unknown(ctx.zone.resource, packs.reason);
    const ignored = new Set(ctx.options.ignoreStatuses);
    const now = ctx.now.getTime();
    const graceMs = ctx.options.pendingGraceHours * HOUR_MS;
    let clean = true;
    for (const pack of packs.items) {
      const status = packStatus(pack);
      if (status !== null && ignored.has(status)) continue;
      const hosts = pack.hosts.join(', ');
      const resource = { type: 'certificate_pack', id: pack.id, name: hosts || null };
      const data = { hosts: hosts || pack.id, status, type: pack.type, errors: pack.validationErrors.join('; ') };
      const withErrors = pack.validationErrors.length > 0;
      const fail = (messageId: string, extra: Record<string, unknown> = {}, severity?: 'high') => {
        ctx.fail(resource, messageId, { ...data, ...extra }, severity);
        return true;
      };
      const unknown = (reason: string) => {
        ctx.unknown(resource, reason);
        return true;
      };
      /** Reports the pack when it is in trouble or cannot be judged; true when it did. */
      const judge = (): boolean => {
        // Like a zone without a status (zone-not-active): neither the pack nor its certificates say, so it cannot be judged.
        if (status === null) return unknown('neither the certificate pack nor its certificates have a status');
        if (status === 'active') return withErrors && fail('renewalFailing');
        if (status.endsWith('_timed_out') || (withErrors && !HARMLESS.has(status))) return fail(withErrors ? 'notActiveWithErrors' : 'notActive');
        if (HARMLESS.has(status)) return false;
        if (status === 'expired') {
          // Which other certificates are fresh moves with the time.
          const coverage = freshCoverage(packs.items, now, pack, now);
          const uncovered = pack.hosts.filter((h) => !coverage.covers(h));
          return (!pack.hosts.length || uncovered.length > 0) && fail('expiredUnserved', { uncovered: (uncovered.length ? uncovered : [hosts || pack.id]).join(', ') }, 'high');
        }
        if (isPending(status)) {
          const started = packStartedAt(pack, () => ctx.zone.certificatePackFirstSeen(pack.id));
          if (started === null) return unknown(`the certificate pack is ${status} and has no created_on, and no scan is recorded as having seen it`);
          const age = now - started.at;
          if (age <= graceMs) return false;
          const since = new Date(started.at).toISOString();
          // Dated from a scan, the pack is at least that old: it may have been created long before.
          const lowerBound = started.source === 'first_seen';
          return fail('pendingTooLong', { age: `${lowerBound ? 'at least ' : ''}${hours(age)}`, grace: ctx.options.pendingGraceHours, since, sinceFrom: started.source, dating: dating(started.source, since) });
        }
        return unknown(`the certificate pack is ${status}, a status zonewarden does not know`);
      };
      if (judge()) clean = false;
    }
    if (clean) ctx.pass();
  },
});
