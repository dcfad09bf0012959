import { accountEntrypoint } from './account-entrypoint.js';
import { accountMembers } from './account-members.js';
import { certificatePacks } from './certificate-packs.js';
import { dnsRecords } from './dns-records.js';
import { dnsTargets } from './dns-targets.js';
import { filters, firewallRules } from './firewall-rules.js';
import { managedEntrypoint } from './managed-entrypoint.js';
import { migration } from './migration.js';
import { rulesetsList } from './rulesets-list.js';
import { securityInsights } from './security-insights.js';
import { zoneSettings } from './zone-settings.js';
import { botManagement, customEntrypoint, dnssec, notificationPolicies, originPulls, pageShield, ratelimitEntrypoint, securityTxt, universalSsl } from './zone-objects.js';
import type { ReadModule } from './zone-read.js';

/** In order: the migration decides the managed phase, the rulesets list whether entry points exist and changed. */
export const ZONE_READS: readonly ReadModule[] = [
  dnsRecords,
  dnsTargets,
  certificatePacks,
  firewallRules,
  filters,
  migration,
  rulesetsList,
  managedEntrypoint,
  accountEntrypoint,
  zoneSettings,
  dnssec,
  universalSsl,
  customEntrypoint,
  ratelimitEntrypoint,
  botManagement,
  originPulls,
  accountMembers,
  pageShield,
  securityTxt,
  notificationPolicies,
  securityInsights,
];

export type { ReadModule } from './zone-read.js';
