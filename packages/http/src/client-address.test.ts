import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address';

async function addressOf(trustProxy: boolean, forwardedFor?: string): Promise<string> {
  const app = new Hono();
  app.get('/', (c) => c.text(clientAddress(c, trustProxy)));
  const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
  const response = await app.request('/', { headers });
  return response.text();
}

describe('clientAddress', () => {
  it('behind a trusted balancer, takes the entry it appended, not one the client wrote', async () => {
    expect(await addressOf(true, '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await addressOf(true, ' 203.0.113.9 ')).toBe('203.0.113.9');
  });

  it('ignores X-Forwarded-For unless the balancer is trusted', async () => {
    expect(await addressOf(false, '6.6.6.6')).toBe('unknown');
  });
});
