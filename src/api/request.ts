import type { ApiAnswer } from './envelope.js';

/** Request shapes, apart from the client so that the list readers and the endpoint table need not import it. */

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Off: a timed-out attempt is not retried as it was (lists read large pages again in smaller ones). */
  retryTimeouts?: boolean;
}

/** The part of the client a page/per_page list reads through (ApiClient is one). */
export interface PageSource {
  get<T>(path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  /** Page sizes learnt from timeouts, by route template, so later lists start small. */
  readonly learntPerPage: Map<string, number>;
}
