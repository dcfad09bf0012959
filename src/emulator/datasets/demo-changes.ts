import { zoneChange } from '../audit-log.js';
import { formatApiTime } from '../clock.js';
import { logDashboardWrite } from '../night.js';
import type { Organisation, Zone } from '../state.js';

/**
 * What changes in the demo organisation between the first demo run and the next: a certificate
 * renewed, a DNS record edited and a firewall rule paused, so that the second run shows what
 * drift looks like (a finding fixed, one new, configuration changed) and nothing else. Every time
 * set here is derived from the clock's start, the demo's stable epoch, so that a third run finds
 * the same organisation as the second and shows no drift. The edit and the pause are made by a
 * person in the dashboard, so the account's audit log records them (vendor docs: audit logs record
 * creates, updates and deletes); the renewal is the vendor's, which it does not.
 */

export interface DemoChange {
  zone: string;
  what: string;
}

/** The zones the second run changes: the tests of the demo name them from here. */
export const DEMO_CHANGED_ZONES = Object.freeze({
  /** Its certificate, within its renewal window, is renewed. */
  renewed: 'tailspintoys-eu.example',
  /** Its first DNS-only record gets a new TTL. */
  edited: 'wingtiptoys.example',
  /** Its challenge rule is paused. */
  paused: 'wingtiptoys-wholesale.example',
});

const DAY_MS = 86_400_000;

function zoneNamed(org: Organisation, name: string): Zone {
  const zone = org.state.zones.find((z) => z.name === name);
  if (!zone) throw new Error(`demo changes: the demo organisation has no zone ${name}`);
  return zone;
}

export function applyDemoChanges(org: Organisation): DemoChange[] {
  const epoch = org.clock.start.getTime();
  const at = (ms: number) => formatApiTime(new Date(epoch + ms));
  const changes: DemoChange[] = [];

  // The EU shop's 90-day certificate, inside its renewal window with days left, is renewed for 90 days.
  const shop = zoneNamed(org, DEMO_CHANGED_ZONES.renewed);
  for (const pack of shop.certificatePacks) {
    for (const cert of pack.certificates) {
      const expires = cert.expires_on === undefined ? null : Date.parse(cert.expires_on);
      if (expires === null || expires <= epoch || expires > epoch + 30 * DAY_MS) continue;
      cert.expires_on = at(90 * DAY_MS);
      cert.uploaded_on = at(60_000);
      cert.modified_on = at(60_000);
      changes.push({ zone: shop.name, what: `certificate ${cert.id} renewed until ${cert.expires_on}` });
    }
  }

  // Wingtip's first DNS-only record (its MX, ahead of the mail move) gets a new TTL: configuration drift that no check judges.
  const wingtip = zoneNamed(org, DEMO_CHANGED_ZONES.edited);
  const record = Array.from({ length: wingtip.dns.size }, (_, i) => wingtip.dns.at(i)).find((r) => !r.proxied);
  if (record) {
    const before = record.ttl;
    record.ttl = before === 3600 ? 1800 : 3600;
    record.modified_on = at(60_000);
    changes.push({ zone: wingtip.name, what: `DNS record ${record.type} ${record.name}: TTL ${before} -> ${record.ttl}` });
    // Logged at the emulator's time now, before the scan that follows asks.
    logDashboardWrite(org, zoneChange(wingtip, { type: 'update', product: 'dns_records', resourceType: 'dns_record', resourceId: record.id, description: 'DNS record updated', request: { ttl: record.ttl }, response: record }), 'PATCH', `/zones/${wingtip.id}/dns_records/${record.id}`, org.clock.now());
  }

  // The wholesale portal's challenge of catalogue scrapers is paused after a partner complained.
  const wholesale = zoneNamed(org, DEMO_CHANGED_ZONES.paused);
  const rule = [...wholesale.firewallRules.values()].find((r) => !r.paused && r.action === 'managed_challenge');
  if (rule) {
    rule.paused = true;
    rule.modified_on = at(60_000);
    changes.push({ zone: wholesale.name, what: `firewall rule "${rule.description}" paused` });
    logDashboardWrite(org, zoneChange(wholesale, { type: 'update', product: 'firewall_rules', resourceType: 'firewall_rule', resourceId: rule.id, description: 'Firewall rule updated', request: { paused: true }, response: { id: rule.id, paused: true } }), 'PUT', `/zones/${wholesale.id}/firewall/rules/${rule.id}`, org.clock.now());
  }

  org.touch();
  return changes;
}
