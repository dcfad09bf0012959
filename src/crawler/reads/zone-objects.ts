import { ACCOUNT_READS, fillPath, ZONE_OBJECT_READS } from '../../api/endpoints.js';
import { readEntrypoint } from './entrypoint.js';
import type { ZoneRead } from './zone-read.js';

/**
 * DNSSEC: changed by logged writes, but a pending state moves on when the registrar publishes the
 * DS record, which no log of this API records: read every night while pending.
 */
export const dnssec: ZoneRead = {
  name: 'DNSSEC',
  endpoint: `GET ${ZONE_OBJECT_READS.dnssec}`,
  scope: 'zone',
  partitions: ['dnssec'],
  refresh: 'date',
  dueByDate: ({ stored }) => stored === null || stored.dnssecPending(),
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('dnssec')) return;
    await kit.readObject(zone, 'dnssec', fillPath(ZONE_OBJECT_READS.dnssec, { zone_id: zone.id }));
  },
};

export const universalSsl: ZoneRead = {
  name: 'Universal SSL settings',
  endpoint: `GET ${ZONE_OBJECT_READS.universal_ssl}`,
  scope: 'zone',
  partitions: ['universal_ssl'],
  refresh: 'zone-changed',
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('universal_ssl')) return;
    await kit.readObject(zone, 'universal_ssl', fillPath(ZONE_OBJECT_READS.universal_ssl, { zone_id: zone.id }));
  },
};

/** The custom rules phase entry point, by its version in the rulesets list. */
export const customEntrypoint: ZoneRead = {
  name: 'custom rules entry point',
  endpoint: `GET ${ZONE_OBJECT_READS.custom_entrypoint}`,
  scope: 'zone',
  partitions: ['custom_entrypoint'],
  refresh: 'ruleset-version',
  async run(kit, facts) {
    if (!kit.reads?.objects.includes('custom_entrypoint')) return;
    await readEntrypoint(kit, facts, 'custom_entrypoint', 'http_request_firewall_custom');
  },
};

/**
 * The zone's bot settings (Bot Fight Mode, Super Bot Fight Mode or Bot Management, by plan): one
 * object every zone has, changed only by logged writes.
 */
export const botManagement: ZoneRead = {
  name: 'bot management settings',
  endpoint: `GET ${ZONE_OBJECT_READS.bot_management}`,
  scope: 'zone',
  partitions: ['bot_management'],
  refresh: 'zone-changed',
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('bot_management')) return;
    await kit.readObject(zone, 'bot_management', fillPath(ZONE_OBJECT_READS.bot_management, { zone_id: zone.id }));
  },
};

/** Whether zone-level authenticated origin pulls is on (`{enabled}`, false by default). */
export const originPulls: ZoneRead = {
  name: 'authenticated origin pulls setting',
  endpoint: `GET ${ZONE_OBJECT_READS.origin_pulls}`,
  scope: 'zone',
  partitions: ['origin_pulls'],
  refresh: 'zone-changed',
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('origin_pulls')) return;
    await kit.readObject(zone, 'origin_pulls', fillPath(ZONE_OBJECT_READS.origin_pulls, { zone_id: zone.id }));
  },
};

/** The rate limiting rules phase entry point (`http_ratelimit`), by its version in the rulesets list. */
export const ratelimitEntrypoint: ZoneRead = {
  name: 'rate limiting rules entry point',
  endpoint: `GET ${ZONE_OBJECT_READS.ratelimit_entrypoint}`,
  scope: 'zone',
  partitions: ['ratelimit_entrypoint'],
  refresh: 'ruleset-version',
  async run(kit, facts) {
    if (!kit.reads?.objects.includes('ratelimit_entrypoint')) return;
    await readEntrypoint(kit, facts, 'ratelimit_entrypoint', 'http_ratelimit');
  },
};

/**
 * Client-side security (formerly Page Shield): one settings object every zone has, `enabled` false
 * until switched on, changed only by writes the account audit log records with the zone (vendor
 * docs: Audit Logs version 2 record every user-initiated action, API or dashboard). Optional: it
 * needs the Page Shield Read permission, which tokens made for the other reads lack; its rules then
 * say what they cannot judge and the scan stays complete.
 */
export const pageShield: ZoneRead = {
  name: 'client-side security settings',
  endpoint: `GET ${ZONE_OBJECT_READS.page_shield}`,
  scope: 'zone',
  partitions: ['page_shield'],
  refresh: 'zone-changed',
  optional: true,
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('page_shield')) return;
    await kit.readObject(zone, 'page_shield', fillPath(ZONE_OBJECT_READS.page_shield, { zone_id: zone.id }));
  },
};

/**
 * The security.txt the edge serves for the zone (vendor API reference: Security TXT; `result` null
 * or without `enabled` when none was set up). Changed only by logged writes; its `expires` passing
 * needs no read, the rule judges the stored date against the scan's time. Read with Zone Settings
 * Read, which the scan needs anyway: not optional.
 */
export const securityTxt: ZoneRead = {
  name: 'security.txt',
  endpoint: `GET ${ZONE_OBJECT_READS.security_txt}`,
  scope: 'zone',
  partitions: ['security_txt'],
  refresh: 'zone-changed',
  async run(kit, { zone }) {
    if (!kit.reads?.objects.includes('security_txt')) return;
    await kit.readObject(zone, 'security_txt', fillPath(ZONE_OBJECT_READS.security_txt, { zone_id: zone.id }));
  },
};

/**
 * The account's notification policies (vendor API reference: Notification policies, `GET
 * /accounts/{account_id}/alerting/v3/policies`, served whole): one call per account and scan,
 * whatever its number of zones, kept in the account's own partition (account_objects). Read on
 * every scan, never carried: the account audit log records changes to them with no zone, which
 * the crawler's reading of the log (audit-log.ts) keeps only per zone; one request per account a
 * night costs less than carrying it safely would. Optional: it needs Notifications Read (or
 * Account Settings Read), which a token made for the zone reads may lack.
 */
export const notificationPolicies: ZoneRead = {
  name: 'notification policies',
  endpoint: `GET ${ACCOUNT_READS.notification_policies}`,
  scope: 'account',
  partitions: ['notification_policies'],
  refresh: 'date',
  optional: true,
  dueByDate: () => true,
  async run(kit, { zone }) {
    const accountId = zone.account?.id;
    if (!kit.reads?.accounts?.includes('notification_policies') || typeof accountId !== 'string') return;
    await kit.readAccountAnswer(accountId, 'notification_policies', fillPath(ACCOUNT_READS.notification_policies, { account_id: accountId }));
  },
};
