import type { ListSummary } from '../api/paginate.js';

/** Whether a finished list is whole, and if not, why: truncated, or items listed but not served. */
export function listProblem(s: ListSummary): string | null {
  if (s.truncated) return `list truncated (${s.truncatedReason})`;
  if (s.shortfall > 0) return `the server listed ${s.totalCount} items but served ${s.items}`;
  return null;
}
