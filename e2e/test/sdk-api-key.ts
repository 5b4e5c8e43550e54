import { expect } from 'vitest';
import type { Platform } from './platform';

/** An admin session creates an API key with these scopes (keys cannot create keys). */
export async function createApiKey(
  platform: Platform,
  scopes: string[],
  rateLimitPerMinute?: number,
): Promise<{ id: string; key: string }> {
  const login = await fetch(`${platform.portalUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: platform.secrets.adminPassword }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const created = await fetch(`${platform.portalUrl}/api/v1/settings/api-keys`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${access_token}`,
      'x-tenant': 'demo',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      name: `sdk e2e ${scopes.join(' ')}`,
      scopes,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      rate_limit_per_minute: rateLimitPerMinute,
    }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string; key: string };
}
