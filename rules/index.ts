import type { AnyRule } from '../src/policy/rule.js';
import certificateExpiry from './certificate-expiry.js';
import certificatePackUnhealthy from './certificate-pack-unhealthy.js';
import dnsOriginExposed from './dns-origin-exposed.js';
import dnsPrivateAddress from './dns-private-address.js';
import filterOrphaned from './filter-orphaned.js';
import firewallDuplicateExpression from './firewall-duplicate-expression.js';
import firewallExpressionTooLong from './firewall-expression-too-long.js';
import firewallRuleInactive from './firewall-rule-inactive.js';
import firewallRuleQuota from './firewall-rule-quota.js';
import hostnameNotCovered from './hostname-not-covered.js';
import invitePending from './invite-pending.js';
import managedRulesDisabled from './managed-rules-disabled.js';
import migrationExpressionTooLong from './migration-expression-too-long.js';
import migrationIncompatible from './migration-incompatible.js';
import migrationOverridesLost from './migration-overrides-lost.js';
import migrationPending from './migration-pending.js';
import migrationTooManyFirewallRules from './migration-too-many-firewall-rules.js';
import migrationValidationStalled from './migration-validation-stalled.js';
import scanCoverage from './scan-coverage.js';
import zoneNotActive from './zone-not-active.js';
import sslModeInsecure from './ssl-mode-insecure.js';
import tlsMinimumVersion from './tls-minimum-version.js';
import tls13Disabled from './tls-1-3-disabled.js';
import httpsNotEnforced from './https-not-enforced.js';
import hstsWeak from './hsts-weak.js';
import universalSslOff from './universal-ssl-off.js';
import caaMissing from './caa-missing.js';
import dnssecNotActive from './dnssec-not-active.js';
import securityLevelWeak from './security-level-weak.js';
import legacyWafOff from './legacy-waf-off.js';
import managedRulesetNotDeployed from './managed-ruleset-not-deployed.js';
import customRulesQuota from './custom-rules-quota.js';
import customRulesExpressionTooLong from './custom-rules-expression-too-long.js';
import customRulesDisabled from './custom-rules-disabled.js';
import customRulesBroadSkip from './custom-rules-broad-skip.js';
import dnsWildcardRecord from './dns-wildcard-record.js';
import dnsRecordNotProxied from './dns-record-not-proxied.js';
import emailSpfMissing from './email-spf-missing.js';
import emailDmarcMissing from './email-dmarc-missing.js';
import emailDkimMissing from './email-dkim-missing.js';
import underAttackLeftOn from './under-attack-left-on.js';
import developmentModeOn from './development-mode-on.js';
import alwaysOnlineOn from './always-online-on.js';
import emailObfuscationOff from './email-obfuscation-off.js';
import hotlinkProtectionOff from './hotlink-protection-off.js';
import ipGeolocationOff from './ip-geolocation-off.js';
import challengePassageLong from './challenge-passage-long.js';
import botFightModeOff from './bot-fight-mode-off.js';
import botJsDetectionsOff from './bot-js-detections-off.js';
import botAiBotsNotBlocked from './bot-ai-bots-not-blocked.js';
import botModelAutoUpdateOff from './bot-model-auto-update-off.js';
import rateLimitingMissing from './rate-limiting-missing.js';
import firewallNoBlockingRules from './firewall-no-blocking-rules.js';
import owaspRulesetNotDeployed from './owasp-ruleset-not-deployed.js';
import originPullsOff from './origin-pulls-off.js';
import clientSideSecurityOff from './client-side-security-off.js';
import securityTxtMissing from './security-txt-missing.js';
import clientSideScriptAlertMissing from './client-side-script-alert-missing.js';
import dnsDanglingTarget from './dns-dangling-target.js';
import accountMemberNo2fa from './account-member-no-2fa.js';

/** The rule catalogue, in the order `zonewarden rules` lists it. One file per rule, named by its id. */
export const RULES: readonly AnyRule[] = [
  migrationIncompatible,
  migrationTooManyFirewallRules,
  migrationExpressionTooLong,
  migrationPending,
  migrationOverridesLost,
  migrationValidationStalled,
  certificateExpiry,
  certificatePackUnhealthy,
  hostnameNotCovered,
  sslModeInsecure,
  tlsMinimumVersion,
  tls13Disabled,
  httpsNotEnforced,
  hstsWeak,
  universalSslOff,
  firewallRuleQuota,
  firewallExpressionTooLong,
  firewallRuleInactive,
  firewallDuplicateExpression,
  filterOrphaned,
  managedRulesDisabled,
  managedRulesetNotDeployed,
  owaspRulesetNotDeployed,
  legacyWafOff,
  customRulesQuota,
  customRulesExpressionTooLong,
  customRulesDisabled,
  customRulesBroadSkip,
  securityLevelWeak,
  underAttackLeftOn,
  developmentModeOn,
  alwaysOnlineOn,
  emailObfuscationOff,
  hotlinkProtectionOff,
  ipGeolocationOff,
  challengePassageLong,
  botFightModeOff,
  botJsDetectionsOff,
  botAiBotsNotBlocked,
  botModelAutoUpdateOff,
  rateLimitingMissing,
  firewallNoBlockingRules,
  dnsOriginExposed,
  originPullsOff,
  dnsPrivateAddress,
  dnssecNotActive,
  caaMissing,
  dnsWildcardRecord,
  dnsRecordNotProxied,
  dnsDanglingTarget,
  emailSpfMissing,
  emailDmarcMissing,
  emailDkimMissing,
  zoneNotActive,
  clientSideSecurityOff,
  securityTxtMissing,
  clientSideScriptAlertMissing,
  invitePending,
  scanCoverage,
  accountMemberNo2fa,
];
