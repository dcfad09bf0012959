import { canonicalName, isAtOrUnder } from '../../common/dns-targets.js';

/** How many names known to exist check a scan's resolver: a few questions a scan, never one a zone. */
export const CHECK_NAMES = 3;

/**
 * The names a zone's listing says exist: the name servers the API assigned to it (`name_servers`).
 * The vendor assigns them when the zone is added and serves the zone from them (vendor docs:
 * "Nameservers", "Nameserver options": assigned automatically, with static addresses), so any
 * resolver that reaches the public DNS finds them; an active zone's registrar delegates to them,
 * which is how it became active. Names at or under the zone itself (zone custom nameservers) are
 * left out: an internal resolver that knows the organisation's own zones and nothing outside them
 * would pass a check made with them, and the targets it must judge are outside.
 */
export function assignedNameServers(zone: { name?: unknown; name_servers?: unknown }): string[] {
  const own = typeof zone.name === 'string' ? canonicalName(zone.name) : null;
  const listed = Array.isArray(zone.name_servers) ? zone.name_servers : [];
  return listed.filter((n): n is string => typeof n === 'string').map(canonicalName).filter((n) => n !== '' && (own === null || !isAtOrUnder(n, own)));
}

/** Candidates kept per kind: name servers are shared by many zones, so a few cover a whole organisation. */
const CANDIDATES = 16;

/**
 * The names to check the resolver with, chosen as zones are listed: those of active zones first
 * (their delegation is proven), up to CHECK_NAMES distinct names. Names under another zone of the
 * scan (account custom nameservers, which the vendor lets an account name under one of its own
 * zones) are asked only where the zones listed so far offer no other name: an internal resolver
 * that knows the organisation's zones answers them too, and a vendor-assigned name tells it apart.
 */
export class KnownNames {
  private readonly active: string[] = [];
  private readonly other: string[] = [];
  /** The zones listed so far. */
  private readonly zones = new Set<string>();

  offer(zone: { name?: unknown; status?: unknown; name_servers?: unknown }): void {
    if (typeof zone.name === 'string') this.zones.add(canonicalName(zone.name));
    const into = zone.status === 'active' ? this.active : this.other;
    for (const name of assignedNameServers(zone)) {
      if (into.length >= CANDIDATES || this.active.includes(name) || this.other.includes(name)) continue;
      into.push(name);
    }
  }

  pick(): string[] {
    const all = [...this.active, ...this.other.filter((n) => !this.active.includes(n))];
    const outside = all.filter((n) => !this.underListedZone(n));
    return (outside.length > 0 ? outside : all).slice(0, CHECK_NAMES);
  }

  /** Whether the name is at or under a zone listed so far (its parent names looked up one by one). */
  private underListedZone(name: string): boolean {
    for (let at = name; at !== ''; at = at.includes('.') ? at.slice(at.indexOf('.') + 1) : '') if (this.zones.has(at)) return true;
    return false;
  }
}
