import { describe, expect, it } from 'vitest';
import type { ApiClient, RequestOptions } from '../../src/api/client.js';
import { readCursorList } from '../../src/api/cursor-list.js';
import type { ApiAnswer, ResultInfo } from '../../src/api/envelope.js';

/**
 * Cursor paging alone: a stand-in client serves pages from a table keyed by the cursor asked for
 * (none for the first), so each case states exactly what the API answered.
 */
type Page = { result: unknown[]; info: ResultInfo | null };

function pagesClient(pages: Record<string, Page>): { client: ApiClient; asked: Array<string | undefined> } {
  const asked: Array<string | undefined> = [];
  const client = {
    get: async (_path: string, options: RequestOptions = {}): Promise<ApiAnswer<unknown[]>> => {
      const cursor = options.query?.['cursor'] as string | undefined;
      asked.push(cursor);
      const page = pages[cursor ?? ''];
      if (!page) throw new Error(`no page for cursor ${cursor}`);
      return { status: 200, result: page.result, resultInfo: page.info, messages: [] };
    },
  } as unknown as ApiClient;
  return { client, asked };
}

const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
const PAGE = { param: 'limit', value: 3 };

describe('readCursorList', () => {
  it('follows result_info.cursor to the page without one', async () => {
    // vendor's API reference: cursor-paged lists carry result_info.cursor while more pages follow.
    const { client, asked } = pagesClient({ '': { result: items(0, 3), info: { cursor: 'b' } }, b: { result: items(3, 2), info: {} } });
    const read = await readCursorList(client, '/x', { pageSize: PAGE });
    expect(read).toEqual({ items: items(0, 5), pages: 2, truncated: false });
    expect(asked).toEqual([undefined, 'b']);
  });

  it('ends a list that must be whole as truncated when a full page names no next page', async () => {
    const pages = { '': { result: items(0, 3), info: { count: 3 } } };
    const strict = await readCursorList(pagesClient(pages).client, '/x', { pageSize: PAGE, fullPageNeedsCursor: true });
    expect(strict).toMatchObject({ truncated: true, truncatedReason: 'no-cursor', pages: 1 });
    // Without the option a page without a cursor is the last, however full.
    const lenient = await readCursorList(pagesClient(pages).client, '/x', { pageSize: PAGE });
    expect(lenient).toMatchObject({ truncated: false, pages: 1 });
  });

  it('takes a short page without a cursor as the last, even when the list must be whole', async () => {
    const { client } = pagesClient({ '': { result: items(0, 3), info: { cursor: 'b' } }, b: { result: items(3, 1), info: null } });
    expect(await readCursorList(client, '/x', { pageSize: PAGE, fullPageNeedsCursor: true })).toEqual({ items: items(0, 4), pages: 2, truncated: false });
  });

  it('stops at a cursor served twice, and at the page cap, as truncated', async () => {
    const loop = pagesClient({ '': { result: items(0, 3), info: { cursor: 'b' } }, b: { result: items(3, 3), info: { cursor: 'b' } } });
    expect(await readCursorList(loop.client, '/x', { pageSize: PAGE })).toMatchObject({ truncated: true, truncatedReason: 'repeated-cursor', pages: 2 });
    const long = pagesClient({ '': { result: items(0, 3), info: { cursor: 'b' } }, b: { result: items(3, 3), info: { cursor: 'c' } }, c: { result: [], info: {} } });
    expect(await readCursorList(long.client, '/x', { pageSize: PAGE, maxPages: 2 })).toMatchObject({ truncated: true, truncatedReason: 'page-cap', pages: 2 });
  });

  it('gives up as truncated after three empty pages in a row that each name a next, and follows fewer', async () => {
    // A server minting a fresh cursor with every empty page would take the page cap's thousand calls.
    const endless: Record<string, Page> = { '': { result: items(0, 3), info: { cursor: 'e1' } } };
    for (let i = 1; i <= 20; i++) endless[`e${i}`] = { result: [], info: { cursor: `e${i + 1}` } };
    const stuck = pagesClient(endless);
    expect(await readCursorList(stuck.client, '/x', { pageSize: PAGE })).toMatchObject({ truncated: true, truncatedReason: 'empty-pages', pages: 4 });
    expect(stuck.asked).toHaveLength(4);
    // Two empty pages between full ones are followed: the items after them are read.
    const gaps = pagesClient({
      '': { result: items(0, 3), info: { cursor: 'a' } },
      a: { result: [], info: { cursor: 'b' } },
      b: { result: [], info: { cursor: 'c' } },
      c: { result: items(3, 2), info: {} },
    });
    expect(await readCursorList(gaps.client, '/x', { pageSize: PAGE })).toEqual({ items: items(0, 5), pages: 4, truncated: false });
  });
});
