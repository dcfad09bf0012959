import { readDeclarationOf } from '../../cloudflare/reads.js';
import type { ReadModule } from './zone-read.js';

/** Since 2025-06-15 served as a view of the zone's custom rules (vendor docs: firewall rules upgrade). */
export const firewallRules: ReadModule = {
  ...readDeclarationOf('firewall_rules'),
  run: async (kit, { zone }) => void (await kit.readZoneList(zone, 'firewallRules', 'firewall_rules')),
};

export const filters: ReadModule = {
  ...readDeclarationOf('filters'),
  run: async (kit, { zone }) => void (await kit.readZoneList(zone, 'filters', 'filters')),
};
