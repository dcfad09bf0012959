import type { Organisation, Zone } from '../state.js';
import type { DnsReply } from './server.js';
import type { Question } from './wire.js';

/**
 * The outside world's DNS as a public resolver would answer it, so that scans resolve on loopback:
 * names of a running emulator's zones per their records now (empty non-terminals: RFC 8020 2;
 * wildcards: RFC 4592 3.3.1), the zones' assigned name servers (vendor docs: "Nameservers"), and
 * EXTERNAL_HOSTS; else NXDOMAIN. Left out on purpose, as the takeover cases dns-dangling-target
 * reports: `tailspintoys.oldstatus.example.com` (demo) and `northwind.statuspage.example.com` (tests).
 */

/** External hosts the datasets use that exist. */
export const EXTERNAL_HOSTS: readonly string[] = [
  // Mail hosting (the demo's provider, the tests' organisation's, and its hobby site's free mail).
  'mx1.mailhost.example.net',
  'mx2.mailhost.example.net',
  'mx1.shopmail.example.com',
  'mx2.shopmail.example.com',
  'mx.freemail.example.org',
  // SaaS the demo's CNAMEs name: help desk, status page, WordPress hosting, the campaign tool's DKIM key.
  'tailspintoys.helpdesk.example.com',
  'tailspintoys.status-host.example.com',
  'tailspintoys.wphost.example.net',
  'cm.dkim.campaigns.example.com',
  // SaaS and storage the tests' organisation's CNAMEs name.
  'cards-apply.hosting.example.net',
  'acme.jobboard.example.com',
  'northwind-assets.storage.example.net',
];

/** Patterns of external hosts that exist: the generated dataset's origins (`origin-<0-255>.hosting.example.net`). */
export const EXTERNAL_PATTERNS: readonly RegExp[] = [/^origin-\d{1,3}\.hosting\.example\.net$/];

const worlds = new Set<Organisation>();

/** Puts an emulator's organisation into the world while it runs; returns the call that takes it out. */
export function addToWorld(org: Organisation): () => void {
  worlds.add(org);
  return () => void worlds.delete(org);
}

/** The answer the world gives to a question about `name` (lower case, no final dot). */
export function worldAnswer(q: Question): DnsReply {
  const name = q.name;
  if (assignedNameServer(name)) return { rcode: 'noerror' };
  const zone = owningZone(name);
  if (zone) return zoneHas(zone, name) ? { rcode: 'noerror' } : { rcode: 'nxdomain' };
  return externalExists(name) ? { rcode: 'noerror' } : { rcode: 'nxdomain' };
}

export function externalExists(name: string): boolean {
  if (EXTERNAL_PATTERNS.some((p) => p.test(name))) return true;
  return EXTERNAL_HOSTS.some((h) => h === name || h.endsWith(`.${name}`));
}

/** Whether the name is (or is above) a name server assigned to a zone of a running organisation. */
function assignedNameServer(name: string): boolean {
  for (const org of worlds) {
    for (const zone of org.state.zones) if (zone.name_servers.some((ns) => isAtOrAbove(name, ns.toLowerCase().replace(/\.$/, '')))) return true;
  }
  return false;
}

const isAtOrAbove = (name: string, host: string): boolean => host === name || host.endsWith(`.${name}`);

/** The zone of a running organisation the name is at or under, the closest (longest) one. */
function owningZone(name: string): Zone | null {
  let best: Zone | null = null;
  for (const org of worlds) {
    for (const zone of org.state.zones) {
      const z = zone.name.toLowerCase();
      if ((name === z || name.endsWith(`.${z}`)) && (!best || z.length > best.name.length)) best = zone;
    }
  }
  return best;
}

/** Whether the name exists in the zone: its apex, a record's name, a name above a record, or a name a wildcard covers. */
function zoneHas(zone: Zone, name: string): boolean {
  const apex = zone.name.toLowerCase();
  if (name === apex) return true;
  const names = new Set<string>();
  for (let i = 0; i < zone.dns.size; i++) names.add(zone.dns.at(i).name.toLowerCase().replace(/\.$/, ''));
  const exists = (n: string) => n === apex || [...names].some((r) => r === n || r.endsWith(`.${n}`));
  if (exists(name)) return true;
  // The closest encloser's wildcard answers for names below it that do not exist (RFC 4592 3.3.1).
  let encloser = name.slice(name.indexOf('.') + 1);
  while (!exists(encloser)) encloser = encloser.slice(encloser.indexOf('.') + 1);
  return names.has(`*.${encloser}`);
}
