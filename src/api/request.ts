import type { ApiAnswer } from './envelope.js';

/**
 * What a request carries besides its method and path, and what a page reader needs of the client.
 * In a module of its own so that the list readers (paginate.ts) and the endpoint table depend on
 * these shapes, not on the client that implements them.
 */

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Whether a timed-out attempt is retried as it was. Lists turn it off for large pages, which
   * they fetch again in smaller ones instead.
   */
  retryTimeouts?: boolean;
}

/** The part of the client a page/per_page list reads through (ApiClient is one). */
export interface PageSource {
  get<T>(path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  /** Page sizes learnt from timeouts, by route template, so later lists start small. */
  readonly learntPerPage: Map<string, number>;
}
