import { unbelievedAnswer, type DnsTargetItem } from '../../common/dns-target-answer.js';
import { canonicalName, isAtOrUnder, recordTarget } from '../../common/dns-targets.js';
import { entryOf } from '../../common/map-entry.js';
import { readDeclarationOf } from '../../cloudflare/reads.js';
import { recordsTonight } from '../resolve/records-tonight.js';
import { dnsRecords } from './dns-records.js';
import type { ReadModule } from './zone-read.js';

/**
 * The names the zone's CNAME, MX, NS and SRV records point at, resolved through DNS and stored (a
 * row per name) for dns-dangling-target to judge offline; only when an enabled rule declares
 * `dns_targets`. Nothing is asked of a resolver that fails its check (resolve/known-names.ts).
 * Names at or under the zone are judged from its own records, not asked (except in a partial setup);
 * names under another zone are asked, since zones are read concurrently and the crawl cannot know
 * yet whether that zone is in the scan. Refreshed every night: the outside world changes unlogged
 * (a SaaS app deprovisioned, a domain left to expire), which is when a record starts to dangle, and
 * DNS questions cost nothing of the API budget.
 */
export const dnsTargets: ReadModule = {
  ...readDeclarationOf('dns_targets'),
  dueByDate: () => true,
  // What it resolves is the records': while they wait for the repair pass, it waits with them.
  decidedBy: [dnsRecords],
  async run(kit, { zone }) {
    if (!kit.reads?.resolved?.includes('dns_targets')) return;
    // No resolver (a library caller, a write command's rescan): unrecorded, the rule says so.
    const resolver = kit.resolver;
    if (!resolver) return;
    const records = recordsTonight(kit.writer, zone.id);
    // Not read whole tonight: the rule reports the records' gap.
    if (records === null) {
      kit.book.skip(zone, 'dns_targets', "the zone's DNS records were not read in this scan: there is nothing to resolve");
      return;
    }
    // In a partial (CNAME) setup the organisation's own DNS answers for the zone, not these records: its names are asked too.
    const own = (zone as { type?: unknown }).type === 'partial' ? null : canonicalName(zone.name);
    const types = new Map<string, Set<string>>();
    for (const r of records) {
      const data = r.type === 'SRV' ? (JSON.parse(r.raw) as Record<string, unknown>)['data'] : undefined;
      const target = recordTarget(r.type, r.content, data);
      if (target === null || (own !== null && isAtOrUnder(target, own))) continue;
      entryOf(types, target, () => new Set()).add(r.type!);
    }
    const names = [...types.keys()].sort();
    // A resolver that denies names known to exist would make every target dangle: it is asked nothing.
    const check = names.length ? await resolver.check() : null;
    const answers = check && !check.trusted ? names.map(() => unbelievedAnswer(check)) : await Promise.all(names.map((name) => resolver.resolve(name)));
    const items: DnsTargetItem[] = names.map((name, i) => {
      const a = answers[i]!;
      return { name, type: [...types.get(name)!].sort().join(','), answer: a.answer, ...(a.answer === 'unknown' ? { reason: a.reason } : {}) };
    });
    const partition = kit.book.partition('zone', zone.id, 'dns_targets');
    partition.write(items);
    partition.finish({ state: 'ok', pages: 0, items: items.length });
  },
};
