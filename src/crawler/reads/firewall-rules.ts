import { readDeclarationOf } from '../../cloudflare/reads.js';
import type { ReadModule } from './zone-read.js';

/**
 * Firewall rules and their filters. Since 2025-06-15 the vendor serves them as a view of the
 * zone's custom rules (vendor docs: firewall rules upgrade): changed only by logged writes, and
 * counted against the rule quota once, as custom rules (see firewall-rule-quota).
 */
export const firewallRules: ReadModule = {
  ...readDeclarationOf('firewall_rules'),
  run: async (kit, { zone }) => void (await kit.readZoneList(zone, 'firewallRules', 'firewall_rules')),
};

export const filters: ReadModule = {
  ...readDeclarationOf('filters'),
  run: async (kit, { zone }) => void (await kit.readZoneList(zone, 'filters', 'filters')),
};
