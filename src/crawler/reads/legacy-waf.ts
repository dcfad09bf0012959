import { fillPath, LIST_ENDPOINTS } from '../../api/endpoints.js';
import { listProblem } from '../list-problem.js';
import type { ReadKit } from '../read-kit.js';
import type { ZoneItem } from '../zone-item.js';
import type { ZoneFacts } from './zone-read.js';

/**
 * The previous managed rules of a zone not migrated: packages, each package's groups and rules,
 * and an Enterprise zone's URI-based overrides. A Free zone has none (Pro plans and above).
 */
export async function legacyWaf(kit: ReadKit, facts: ZoneFacts): Promise<void> {
  const zone = facts.zone;
  const plan = zone.plan?.legacy_id;
  if (plan === 'free') {
    for (const e of ['waf_packages', 'waf_groups', 'waf_rules', 'waf_overrides'] as const) kit.book.skip(zone, e, 'the previous managed rules exist on Pro plans and above; a Free zone has none');
    return;
  }
  await readPackages(kit, zone);
  if (plan === 'enterprise') await kit.readZoneList(zone, 'wafOverrides', 'waf_overrides');
  else kit.book.skip(zone, 'waf_overrides', 'URI-based overrides exist on Enterprise zones only');
}

async function readPackages(kit: ReadKit, zone: ZoneItem): Promise<void> {
  // Groups and rules are read per package: they wait with the packages for the repair pass.
  const packagesOk = await kit.readZoneList(zone, 'wafPackages', 'waf_packages', () => readPackages(kit, zone));
  if (packagesOk === null) return;
  if (!packagesOk) {
    const retired = kit.book.retired(zone.id, 'waf_packages');
    // Groups and rules live under the packages: retired with them, else unreadable without them.
    const state = retired ? 'retired' : 'failed';
    const message = retired?.message ?? 'the WAF packages could not be read';
    for (const e of ['waf_groups', 'waf_rules'] as const) {
      kit.book.partition('zone', zone.id, e).finish({ state, pages: 0, items: 0, httpStatus: retired?.status, message });
      kit.book.missing('zone', zone.id, zone.name, e, state, message, retired ? 'retired' : 'missing');
    }
    return;
  }
  const packageIds = kit.writer.itemsReadTonight(zone.id, 'waf_packages');
  await readPackageLists(kit, zone, packageIds, 'waf_groups', 'wafGroups');
  await readPackageLists(kit, zone, packageIds, 'waf_rules', 'wafRules');
}

/** Groups or rules of every package, as one partition of the zone. */
async function readPackageLists(kit: ReadKit, zone: ZoneItem, packageIds: string[], partition: 'waf_groups' | 'waf_rules', key: 'wafGroups' | 'wafRules'): Promise<void> {
  const writer = kit.book.partition('zone', zone.id, partition);
  let pages = 0;
  let items = 0;
  let problem: string | null = null;
  try {
    for (const packageId of packageIds) {
      const list = kit.reader.listAt(kit.client(zone), fillPath(LIST_ENDPOINTS[key].template, { zone_id: zone.id, package_id: packageId }), LIST_ENDPOINTS[key]);
      for await (const page of list) writer.write(page);
      pages += list.summary.pages;
      items += list.summary.items;
      problem ??= listProblem(list.summary);
    }
    writer.finish({ state: problem ? 'failed' : 'ok', pages, items, truncated: problem !== null, message: problem });
    if (problem) kit.book.missing('zone', zone.id, zone.name, partition, 'failed', problem);
  } catch (err) {
    if (kit.book.deferred(err, writer, () => readPackageLists(kit, zone, packageIds, partition, key))) return;
    kit.book.failed(writer, err, pages, items, zone.name);
  }
}
