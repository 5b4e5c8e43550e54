import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, mockPortal, testClient } from './server';

const server = mockPortal();

describe('select, embed, count and export through the client', () => {
  it('sends select and embed as repeated parameters, which the portal reads as one list', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${BASE_URL}/api/v1/sales-orders`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({
          data: [{ id: 'a', number: 'SO-1' }],
          next_cursor: null,
          total: 1,
        });
      }),
    );
    const { data } = await testClient().get('/api/v1/sales-orders', {
      query: { select: ['number', 'total_cents'], embed: ['customer'] },
      headers: { prefer: 'count=exact' },
    });
    expect(url?.searchParams.getAll('select')).toEqual(['number', 'total_cents']);
    expect(url?.searchParams.getAll('embed')).toEqual(['customer']);
    expect(data?.total).toBe(1);
  });

  it('returns an export as text', async () => {
    server.use(
      http.get(
        `${BASE_URL}/api/v1/sales-orders/export`,
        () =>
          new HttpResponse('id,number\r\na,SO-1\r\n', { headers: { 'content-type': 'text/csv' } }),
      ),
    );
    const { data } = await testClient().get('/api/v1/sales-orders/export', {
      query: { format: 'csv' },
    });
    expect(data).toBe('id,number\r\na,SO-1\r\n');
  });
});
