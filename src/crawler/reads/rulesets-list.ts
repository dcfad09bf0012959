import { readDeclarationOf, fillPath, PARTITIONS } from '../../cloudflare/reads.js';
import { DECLARED_ENTRYPOINTS } from '../incremental/read-plan.js';
import { hasManagedPhase } from './managed-entrypoint.js';
import { migration } from './migration.js';
import { DEFERRED } from '../zone-item.js';
import type { ReadModule } from './zone-read.js';
import { rulesetStamp } from '../incremental/stored-zone.js';

/**
 * The zone's rulesets list, without rules: one call says which phase entry points exist (a phase
 * with none costs no call) and which changed since stored (id and version), for the reads after it.
 */
export const rulesetsList: ReadModule = {
  ...readDeclarationOf('rulesets'),
  decidedBy: [migration],
  async run(kit, facts) {
    // Only where an entry point is to be read: a Free zone not migrating, with no custom or rate limiting rules declared, needs none.
    if (!hasManagedPhase(facts) && !DECLARED_ENTRYPOINTS.some((e) => kit.reads?.objects.includes(e))) {
      return kit.book.skip(facts.zone, 'rulesets', 'no entry point of this zone is read: a Free zone that has not started migrating, and no rule reads custom or rate limiting rules');
    }
    const { api, paging } = PARTITIONS.rulesets;
    const items = await kit.reader.readCursorList(facts.zone, 'rulesets', fillPath(api, { zone_id: facts.zone.id }), paging.perPage);
    if (items === null || items === DEFERRED) return;
    const phases = new Map<string, string | null>();
    for (const item of items) {
      if (!item || typeof item !== 'object') continue;
      const r = item as Record<string, unknown>;
      // Only the zone's own entry points: managed rulesets it could deploy are listed too.
      if (r['kind'] !== 'zone' || typeof r['phase'] !== 'string') continue;
      phases.set(r['phase'], rulesetStamp(r));
    }
    facts.phases = phases;
  },
};
