import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, throttleKey } from './client-address';

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

describe('throttleKey (SPEC §3: IPv6 by its /64, IPv4 by its address)', () => {
  it('one /64 is one key, whatever the spelling; another /64 another', () => {
    const key = throttleKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(throttleKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(throttleKey('2001:db8:1:2:0:0:0:9')).toBe(key);
    expect(throttleKey('2001:db8:1:3::1')).not.toBe(key);
    expect(throttleKey('::1')).toBe('0:0:0:0::/64');
  });

  it('IPv4, also IPv4-mapped, is its own address', () => {
    expect(throttleKey('203.0.113.9')).toBe('203.0.113.9');
    expect(throttleKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(throttleKey('::FFFF:203.0.113.9')).toBe('203.0.113.9');
    expect(throttleKey('203.0.113.10')).not.toBe(throttleKey('203.0.113.9'));
  });

  it('anything else is kept, bounded', () => {
    expect(throttleKey('unknown')).toBe('unknown');
    expect(throttleKey('x'.repeat(500))).toHaveLength(100);
  });
});
