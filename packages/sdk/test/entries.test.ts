import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as whole from '../src/index';
import { createClient, eq, op } from '../src/sales';
import { API_KEY, BASE_URL, mockPortal } from './server';

const server = mockPortal();
const SRC = path.resolve(import.meta.dirname, '../src');

describe('module entries', () => {
  it('make the same requests as the whole entry', async () => {
    const seen: string[] = [];
    server.use(
      http.get(`${BASE_URL}/api/v1/sales-orders`, ({ request }) => {
        seen.push(`${request.url} ${request.headers.get('authorization')}`);
        return HttpResponse.json({ data: [{ id: 'a', number: 'SO-1' }], next_cursor: null });
      }),
    );
    const options = { baseUrl: BASE_URL, apiKey: API_KEY, tenantId: 'demo' };
    const query = { query: { status: eq('confirme'), page_size: 1 } };
    const fromModule = await createClient(options).get('/api/v1/sales-orders', query);
    const fromWhole = await whole.createClient(options).get('/api/v1/sales-orders', query);
    expect(fromModule.data).toEqual(fromWhole.data);
    expect(seen).toEqual([
      `${BASE_URL}/api/v1/sales-orders?status=eq.confirme&page_size=1 Bearer ${API_KEY}`,
      `${BASE_URL}/api/v1/sales-orders?status=eq.confirme&page_size=1 Bearer ${API_KEY}`,
    ]);
    expect(op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: 'x' } })).toEqual(
      whole.op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: 'x' } }),
    );
  });

  it('all export the client, the filters, the errors and the helpers', async () => {
    // One entry per module file codegen wrote (the shared pieces and the webhooks are no module).
    const entries = (await readdir(path.join(SRC, 'gen')))
      .map((name) => name.replace('.gen.d.ts', ''))
      .filter((name) => name !== 'shared' && name !== 'webhooks')
      .map((module) => `${module}.ts`);
    expect(entries).toHaveLength(11);
    for (const entry of entries) {
      const module = await import(path.join(SRC, entry));
      for (const name of [
        'createClient',
        'op',
        'batch',
        'ref',
        'history',
        'in_',
        'order',
        'ApiError',
      ])
        expect(module[name], `${entry}: ${name}`).toBeDefined();
    }
  });
});
