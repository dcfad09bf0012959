import type { ApiClient } from '../api/client.js';
import { fillPath, type ListEndpoint } from '../api/endpoints.js';
import type { QueryValue } from '../api/request.js';
import { ZonewardenError } from '../common/errors.js';

/** Whole lists for the write commands, which decide from them: a list that stopped early is an error. */
export class IncompleteList extends ZonewardenError {
  constructor(message: string) {
    super('ZW_LIST_INCOMPLETE', message);
  }
}

export async function listAll<T = unknown>(client: ApiClient, endpoint: ListEndpoint, params: Record<string, string> = {}, query: Record<string, QueryValue> = {}): Promise<T[]> {
  const list = client.list<T>(fillPath(endpoint.template, params), { perPage: endpoint.maxPerPage, minPerPage: endpoint.minPerPage, query: { ...endpoint.query, ...query } });
  const items = (await list.all()) as T[];
  if (list.summary.truncated || list.summary.shortfall > 0) throw new IncompleteList(`${endpoint.template}: the list came back incomplete; try again`);
  return items;
}
