import { readDeclarationOf, fillPath, PARTITIONS, type DeclarableObject, type ReadPartition } from '../../cloudflare/reads.js';
import { readEntrypoint } from './entrypoint.js';
import type { ReadModule } from './zone-read.js';

/** A zone's object read when tonight's rules declare it (`meta.reads`); an entry point by its version (readEntrypoint). */
function declaredObject(partition: DeclarableObject & ReadPartition, more: Partial<ReadModule> = {}): ReadModule {
  return {
    ...readDeclarationOf(partition),
    ...more,
    async run(kit, facts) {
      if (!kit.reads?.objects.includes(partition)) return;
      if (partition === 'custom_entrypoint' || partition === 'ratelimit_entrypoint') return readEntrypoint(kit, facts, partition);
      await kit.reader.readObject(facts.zone, partition, fillPath(PARTITIONS[partition].api, { zone_id: facts.zone.id }));
    },
  };
}

/** A pending DNSSEC moves on when the registrar publishes the DS record, unlogged: read every night while pending. */
export const dnssec = declaredObject('dnssec', { dueByDate: ({ stored }) => stored === null || stored.dnssecPending() });

export const universalSsl = declaredObject('universal_ssl');

export const customEntrypoint = declaredObject('custom_entrypoint');

export const botManagement = declaredObject('bot_management');

export const originPulls = declaredObject('origin_pulls');

export const ratelimitEntrypoint = declaredObject('ratelimit_entrypoint');

/**
 * Client-side security (formerly Page Shield): changed only by writes the account audit log records
 * (vendor docs: Audit Logs version 2). Optional: Page Shield Read is a permission tokens often lack.
 */
export const pageShield = declaredObject('page_shield');

/** The security.txt (vendor API reference: Security TXT); its `expires` passing needs no read, the rule judges it. */
export const securityTxt = declaredObject('security_txt');

/**
 * The account's notification policies (vendor API reference: Notification policies, served whole),
 * one call per account and scan. Never carried: the audit log records their changes with no zone,
 * and audit-log.ts keeps changes per zone. Optional: Notifications Read is often lacking.
 */
export const notificationPolicies: ReadModule = {
  ...readDeclarationOf('notification_policies'),
  dueByDate: () => true,
  async run(kit, { zone }) {
    const accountId = zone.account?.id;
    if (!kit.reads?.accounts?.includes('notification_policies') || typeof accountId !== 'string') return;
    await kit.accountReads.answer(accountId, 'notification_policies', fillPath(PARTITIONS.notification_policies.api, { account_id: accountId }));
  },
};
