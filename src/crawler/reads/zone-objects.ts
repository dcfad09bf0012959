import { readDeclarationOf, fillPath, PARTITIONS, type DeclarableObject, type ReadPartition } from '../../cloudflare/reads.js';
import { readEntrypoint } from './entrypoint.js';
import type { ReadModule } from './zone-read.js';

/**
 * A zone's single object a rule may declare (`meta.reads`): read when tonight's rules declare it,
 * at its registry path; a phase entry point by its version in the rulesets list (readEntrypoint).
 */
function declaredObject(partition: DeclarableObject & ReadPartition, more: Partial<ReadModule> = {}): ReadModule {
  return {
    ...readDeclarationOf(partition),
    ...more,
    async run(kit, facts) {
      if (!kit.reads?.objects.includes(partition)) return;
      if (partition === 'custom_entrypoint' || partition === 'ratelimit_entrypoint') return readEntrypoint(kit, facts, partition);
      await kit.readObject(facts.zone, partition, fillPath(PARTITIONS[partition].api, { zone_id: facts.zone.id }));
    },
  };
}

/**
 * DNSSEC: changed by logged writes, but a pending state moves on when the registrar publishes the
 * DS record, which no log of this API records: read every night while pending.
 */
export const dnssec = declaredObject('dnssec', { dueByDate: ({ stored }) => stored === null || stored.dnssecPending() });

export const universalSsl = declaredObject('universal_ssl');

/** The custom rules phase entry point, by its version in the rulesets list. */
export const customEntrypoint = declaredObject('custom_entrypoint');

/**
 * The zone's bot settings (Bot Fight Mode, Super Bot Fight Mode or Bot Management, by plan): one
 * object every zone has, changed only by logged writes.
 */
export const botManagement = declaredObject('bot_management');

/** Whether zone-level authenticated origin pulls is on (`{enabled}`, false by default). */
export const originPulls = declaredObject('origin_pulls');

/** The rate limiting rules phase entry point (`http_ratelimit`), by its version in the rulesets list. */
export const ratelimitEntrypoint = declaredObject('ratelimit_entrypoint');

/**
 * Client-side security (formerly Page Shield): one settings object every zone has, `enabled` false
 * until switched on, changed only by writes the account audit log records with the zone (vendor
 * docs: Audit Logs version 2 record every user-initiated action, API or dashboard). Optional: it
 * needs the Page Shield Read permission, which tokens made for the other reads lack; its rules then
 * say what they cannot judge and the scan stays complete.
 */
export const pageShield = declaredObject('page_shield');

/**
 * The security.txt the edge serves for the zone (vendor API reference: Security TXT; `result` null
 * or without `enabled` when none was set up). Changed only by logged writes; its `expires` passing
 * needs no read, the rule judges the stored date against the scan's time. Read with Zone Settings
 * Read, which the scan needs anyway: not optional.
 */
export const securityTxt = declaredObject('security_txt');

/**
 * The account's notification policies (vendor API reference: Notification policies, `GET
 * /accounts/{account_id}/alerting/v3/policies`, served whole): one call per account and scan,
 * whatever its number of zones, kept in the account's own partition (account_objects). Read on
 * every scan, never carried: the account audit log records changes to them with no zone, which
 * the crawler's reading of the log (audit-log.ts) keeps only per zone; one request per account a
 * night costs less than carrying it safely would. Optional: it needs Notifications Read (or
 * Account Settings Read), which a token made for the zone reads may lack.
 */
export const notificationPolicies: ReadModule = {
  ...readDeclarationOf('notification_policies'),
  dueByDate: () => true,
  async run(kit, { zone }) {
    const accountId = zone.account?.id;
    if (!kit.reads?.accounts?.includes('notification_policies') || typeof accountId !== 'string') return;
    await kit.readAccountAnswer(accountId, 'notification_policies', fillPath(PARTITIONS.notification_policies.api, { account_id: accountId }));
  },
};
