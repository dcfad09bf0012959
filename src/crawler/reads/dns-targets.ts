import { unbelievedAnswer, type DnsTargetItem } from '../../common/dns-target-answer.js';
import { canonicalName, isAtOrUnder, recordTarget } from '../../common/dns-targets.js';
import { readDeclarationOf } from '../../cloudflare/reads.js';
import { dnsRecords } from './dns-records.js';
import type { ReadModule } from './zone-read.js';

/**
 * The names the zone's CNAME, MX, NS and SRV records point at, resolved through DNS and stored
 * with the scan (one row per name), so that dns-dangling-target judges them offline, at audit time.
 * Read only when an enabled rule declares `dns_targets`.
 *
 * Before the first target is asked, the resolver is checked against names known to exist (the
 * name servers the API assigned to the scanned zones: resolve/known-names.ts); when it denies them,
 * or says nothing about them, no target is asked and each is stored as unknown.
 *
 * Names at or under the zone itself are not asked: the audit judges them from the zone's own
 * records (except in a partial setup, where the organisation's own DNS answers for the zone). Names under another zone of the organisation are asked like any other, since zones are
 * read concurrently and the crawl cannot know yet whether the name's zone is in the scan; the audit
 * judges them from the snapshot's records when it is, and uses the stored answer only when not.
 *
 * Refreshed every night, from the records read tonight or carried forward: the outside world
 * changes with no entry in any audit log (a SaaS app deprovisioned, a domain left to expire), and
 * that is exactly when a record starts to dangle; waiting for the zone's full-read turn (up to
 * --full-every nights) would leave the takeover window open for days. DNS questions cost nothing of
 * the API budget, each name is asked once per scan however many zones point at it, and unchanged
 * answers are stored once across scans.
 */
export const dnsTargets: ReadModule = {
  ...readDeclarationOf('dns_targets'),
  dueByDate: () => true,
  // What it resolves is the records': while they wait for the repair pass, it waits with them.
  decidedBy: [dnsRecords],
  async run(kit, { zone }) {
    if (!kit.reads?.resolved?.includes('dns_targets')) return;
    // A crawl given no resolver (a library caller, a write command's rescan) asks nothing: the
    // partition stays unrecorded and the rule says the targets were not resolved.
    const resolver = kit.resolver;
    if (!resolver) return;
    const records = kit.dnsRecordsTonight(zone);
    // Not read whole tonight (failed, in the repair pass too): the rule reports the records' gap,
    // and the targets are resolved again on the next scan.
    if (records === null) {
      kit.skip(zone, 'dns_targets', "the zone's DNS records were not read in this scan: there is nothing to resolve");
      return;
    }
    // In a partial (CNAME) setup the organisation's own DNS answers for the zone, not these records: its names are asked too.
    const own = (zone as { type?: unknown }).type === 'partial' ? null : canonicalName(zone.name);
    const types = new Map<string, Set<string>>();
    for (const r of records) {
      let data: unknown;
      if (r.type === 'SRV') data = (JSON.parse(r.raw) as Record<string, unknown>)['data'];
      const target = recordTarget(r.type, r.content, data);
      if (target === null || (own !== null && isAtOrUnder(target, own))) continue;
      let set = types.get(target);
      if (!set) types.set(target, (set = new Set()));
      set.add(r.type!);
    }
    const names = [...types.keys()].sort();
    // Asked nothing of a resolver that denies names known to exist (or cannot be checked): its
    // "no such name" would be a dangling target each, and the scan says why once, in its summary.
    const check = names.length ? await resolver.check() : null;
    const answers = check && !check.trusted ? names.map(() => unbelievedAnswer(check)) : await Promise.all(names.map((name) => resolver.resolve(name)));
    const items: DnsTargetItem[] = names.map((name, i) => {
      const a = answers[i]!;
      return { name, type: [...types.get(name)!].sort().join(','), answer: a.answer, ...(a.answer === 'unknown' ? { reason: a.reason } : {}) };
    });
    const partition = kit.partition('zone', zone.id, 'dns_targets');
    partition.write(items);
    partition.finish({ state: 'ok', pages: 0, items: items.length });
  },
};
