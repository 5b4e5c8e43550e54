import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, eq } from '../src/index';
import { BASE_URL, mockPortal, testClient } from './server';

const server = mockPortal();
const ORDERS = `${BASE_URL}/api/v1/sales-orders`;

/** Three pages of two orders behind cursors c1 and c2; records every query it gets. */
function threePages() {
  const queries: URLSearchParams[] = [];
  const pages: Record<string, { data: { id: string }[]; next_cursor: string | null }> = {
    '': { data: [{ id: 'o1' }, { id: 'o2' }], next_cursor: 'c1' },
    c1: { data: [{ id: 'o3' }, { id: 'o4' }], next_cursor: 'c2' },
    c2: { data: [{ id: 'o5' }], next_cursor: null },
  };
  server.use(
    http.get(ORDERS, ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      return HttpResponse.json(pages[query.get('cursor') ?? '']);
    }),
  );
  return queries;
}

describe('paginate', () => {
  it('follows next_cursor across pages, keeping the filters on each', async () => {
    const queries = threePages();
    const ids: string[] = [];
    for await (const order of testClient().paginate('/api/v1/sales-orders', {
      query: { status: eq('confirme'), page_size: 2 },
    })) {
      ids.push(order.id);
    }
    expect(ids).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect(queries.map((q) => q.get('cursor'))).toEqual([null, 'c1', 'c2']);
    expect(
      queries.every((q) => q.get('status') === 'eq.confirme' && q.get('page_size') === '2'),
    ).toBe(true);
  });

  it('ends at an empty page without another request', async () => {
    const queries: URLSearchParams[] = [];
    server.use(
      http.get(ORDERS, ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json({ data: [], next_cursor: null });
      }),
    );
    const rows = [];
    for await (const order of testClient().paginate('/api/v1/sales-orders')) rows.push(order);
    expect(rows).toEqual([]);
    expect(queries).toHaveLength(1);
  });

  it('stops early when the loop breaks', async () => {
    const queries = threePages();
    for await (const order of testClient().paginate('/api/v1/sales-orders')) {
      if (order.id === 'o2') break;
    }
    expect(queries).toHaveLength(1);
  });

  it('throws the ApiError of a failed page after the rows before it', async () => {
    server.use(
      http.get(ORDERS, ({ request }) =>
        new URL(request.url).searchParams.get('cursor')
          ? HttpResponse.json(
              { code: 'filtre_invalide', params: {}, message: 'Bad cursor.' },
              { status: 400 },
            )
          : HttpResponse.json({ data: [{ id: 'o1' }], next_cursor: 'c1' }),
      ),
    );
    const ids: string[] = [];
    const failure = await (async () => {
      for await (const order of testClient().paginate('/api/v1/sales-orders')) ids.push(order.id);
    })().catch((error: unknown) => error);
    expect(ids).toEqual(['o1']);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe('filtre_invalide');
  });
});

describe('pages', () => {
  it('gives one result per page, from a given cursor on', async () => {
    const queries = threePages();
    const pages = [];
    for await (const page of testClient().pages('/api/v1/sales-orders', {
      query: { cursor: 'c1' },
    })) {
      if (page.error) throw page.error;
      pages.push(page.data.data.map((o) => o.id));
    }
    expect(pages).toEqual([['o3', 'o4'], ['o5']]);
    expect(queries.map((q) => q.get('cursor'))).toEqual(['c1', 'c2']);
  });

  it('yields the error result of a failed page and stops', async () => {
    server.use(
      http.get(ORDERS, () =>
        HttpResponse.json(
          { code: 'acces_refuse', params: { required: 'sales:read' }, message: 'No.' },
          { status: 403 },
        ),
      ),
    );
    const results = [];
    for await (const page of testClient().pages('/api/v1/sales-orders')) results.push(page);
    expect(results).toHaveLength(1);
    expect(results[0]?.error?.code).toBe('acces_refuse');
  });
});
