import { canonicalName, isAtOrUnder } from '../../common/dns-targets.js';

/** How many names known to exist check a scan's resolver: a few questions a scan, never one a zone. */
const CHECK_NAMES = 3;

/**
 * The name servers the API assigned to a zone, which any resolver reaching the public DNS finds
 * (vendor docs: "Nameservers", "Nameserver options"). Names at or under the zone (custom
 * nameservers) are left out: an internal resolver knowing only the organisation's zones would pass.
 */
export function assignedNameServers(zone: { name?: unknown; name_servers?: unknown }): string[] {
  const own = typeof zone.name === 'string' ? canonicalName(zone.name) : null;
  const listed = Array.isArray(zone.name_servers) ? zone.name_servers : [];
  return listed.filter((n): n is string => typeof n === 'string').map(canonicalName).filter((n) => n !== '' && (own === null || !isAtOrUnder(n, own)));
}

/** Candidates kept per kind: name servers are shared by many zones, so a few cover a whole organisation. */
const CANDIDATES = 16;

/**
 * The names to check the resolver with, chosen as zones are listed: active zones' first (their
 * delegation is proven). Names under another listed zone (account custom nameservers) only when
 * there is no other: an internal resolver knowing the organisation's zones answers them too.
 */
export class KnownNames {
  private readonly active: string[] = [];
  private readonly other: string[] = [];
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

  /** Whether the name is at or under a zone listed so far. */
  private underListedZone(name: string): boolean {
    for (let at = name; at !== ''; at = at.includes('.') ? at.slice(at.indexOf('.') + 1) : '') if (this.zones.has(at)) return true;
    return false;
  }
}
