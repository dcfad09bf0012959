import { LIST_ENDPOINTS, type ListEndpoint } from '../../src/api/endpoints.js';
import { runScript, type PagedList } from './read-organisation.js';

// The script after some care: 8 zones at once, and every list at the largest page the API allows,
// except DNS at 5,000 a page as zonewarden reads it (a 100,000-record page is some 40 MB of JSON).
const perPage = Object.fromEntries(
  Object.entries(LIST_ENDPOINTS).map(([list, e]: [string, ListEndpoint]) => [list, e.crawlPerPage ?? e.maxPerPage]),
) as Record<PagedList, number>;

await runScript({ concurrency: 8, perPage });
