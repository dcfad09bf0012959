import { label } from '../drift/words.js';
import { resourceText, type Finding } from '../policy/findings.js';

/**
 * The findings the HTML report writes into its groups as HTML, for a reader without the page script
 * (which draws every row from the compressed findings). Written rows cost page size at every load, so
 * each group gets its first rows and each view a budget, spent on the worst rules and riskiest zones.
 */

/** Rows written in one group. */
export const GROUP_ROWS = 25;
/** Rows written in one view (by rule, by zone): a row is about 450 bytes of HTML, so 1,000 are 0.45 MB. */
export const VIEW_ROWS = 1_000;

/** The key of the group of findings outside any zone. */
export const NO_ZONE = '';

export interface ShownRow {
  status: string;
  severity: string;
  rule: string;
  account: string;
  zone: string;
  zoneId: string;
  resource: string;
  message: string;
  /** The date (YYYY-MM-DD) of the first scan of its unbroken run of failures; '' when not failing. */
  since: string;
}

/** How many rows each group may write: groups in the view's order, each up to `perGroup`, until `budget` is spent. */
export function allowances(groups: Iterable<{ key: string; size: number }>, perGroup = GROUP_ROWS, budget = VIEW_ROWS): Map<string, number> {
  const allowed = new Map<string, number>();
  let left = budget;
  for (const { key, size } of groups) {
    const take = Math.min(size, perGroup, left);
    allowed.set(key, take);
    left -= take;
  }
  return allowed;
}

/** Collects each group's rows, up to its allowance, from the findings in listing order (worst first). */
export class GroupRows {
  readonly byRule = new Map<string, ShownRow[]>();
  readonly byZone = new Map<string, ShownRow[]>();

  constructor(
    private readonly allowed: { rules: ReadonlyMap<string, number>; zones: ReadonlyMap<string, number> },
    private readonly firstSeen: (f: Finding) => string = () => '',
  ) {}

  add(f: Finding): void {
    const zoneId = f.zone?.id ?? NO_ZONE;
    const toRule = this.room(this.byRule, this.allowed.rules, f.rule);
    const toZone = this.room(this.byZone, this.allowed.zones, zoneId);
    if (!toRule && !toZone) return;
    const row: ShownRow = {
      status: f.status,
      severity: f.severity,
      rule: f.rule,
      account: f.account?.name ?? '',
      zone: f.zone ? (f.zone.name ?? f.zone.id) : '',
      zoneId,
      resource: resourceText(f.resource, label),
      message: f.message,
      since: this.firstSeen(f).slice(0, 10),
    };
    toRule?.push(row);
    toZone?.push(row);
  }

  /** The group's list when it still has room, else null. */
  private room(groups: Map<string, ShownRow[]>, allowed: ReadonlyMap<string, number>, key: string): ShownRow[] | null {
    const limit = allowed.get(key) ?? 0;
    if (limit === 0) return null;
    let rows = groups.get(key);
    if (!rows) groups.set(key, (rows = []));
    return rows.length < limit ? rows : null;
  }
}

/** The findings as they pass, each also offered to `rows`: one read of the audit feeds the page's data and its written groups. */
export function* collecting(findings: Iterable<Finding>, rows: GroupRows): Generator<Finding> {
  for (const f of findings) {
    rows.add(f);
    yield f;
  }
}
