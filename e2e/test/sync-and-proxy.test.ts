import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Platform, startPlatform } from './platform';

let platform: Platform;
let session: Record<string, string>;
beforeAll(async () => {
  platform = await startPlatform();
  const login = await fetch(`${platform.portalUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: platform.secrets.adminPassword }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  session = { authorization: `Bearer ${access_token}`, 'x-tenant': 'demo' };
});
afterAll(() => platform?.close());

interface PortalAccess {
  last_result: { status: string | null; http_status: number | null; counts: unknown };
}

async function portalAccess(): Promise<PortalAccess> {
  const response = await fetch(`${platform.portalUrl}/api/v1/settings/portal-access`, {
    headers: session,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as PortalAccess;
}

async function setSyncUrl(syncUrl: string | null): Promise<void> {
  const response = await fetch(`${platform.portalUrl}/api/v1/settings/portal-access`, {
    method: 'PUT',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ sync_url: syncUrl }),
  });
  expect(response.status).toBe(200);
}

describe('ERP sync: worker → landing, reported in Settings → Portal access', () => {
  it('the worker pushes tenants and plans at start; landing and the portal both show it', async () => {
    const health = await eventually('landing to have received a push', async () => {
      const response = await fetch(`${platform.landingUrl}/api/erp-sync/health`);
      const body = (await response.json()) as { status: string; counts: Record<string, number> };
      return body.status === 'ok' ? body : undefined;
    });
    const tenants = await platform.db.db.selectFrom('tenants').select('id').execute();
    const plans = await platform.db.db
      .selectFrom('plans')
      .select('code')
      .where('is_public', '=', true)
      .execute();
    expect(health.counts).toMatchObject({ tenants: tenants.length, plans: plans.length });
    const access = await eventually('the portal to show the result', async () => {
      const state = await portalAccess();
      return state.last_result.status === 'ok' ? state : undefined;
    });
    expect(access.last_result.counts).toMatchObject({ tenants: tenants.length });
  });

  it('a failed push shows in the portal’s last result, and the next one recovers', async () => {
    await setSyncUrl(`${platform.landingUrl}/api/no-such-receiver`);
    const failed = await eventually('a failed push', async () => {
      const state = await portalAccess();
      return state.last_result.status === 'failed' ? state : undefined;
    });
    expect(failed.last_result.http_status).toBe(404);
    await setSyncUrl(null);
    await eventually('a successful push again', async () => {
      const state = await portalAccess();
      return state.last_result.status === 'ok' ? state : undefined;
    });
  });
});

describe('the public proxy in front of the real portal', () => {
  const paths = [
    '/api/v1/public/subscription-plans',
    '/api/v1/public/plans',
    '/api/v1/public/no-such-thing',
  ];
  for (const path of paths) {
    it(`GET ${path} matches the portal byte for byte`, async () => {
      const headers = { 'x-request-id': `e2e-${path.length}` };
      const direct = await fetch(platform.portalUrl + path, { headers });
      const proxied = await fetch(platform.landingUrl + path, { headers });
      expect(proxied.status).toBe(direct.status);
      expect(Buffer.from(await proxied.arrayBuffer())).toEqual(
        Buffer.from(await direct.arrayBuffer()),
      );
      for (const name of ['content-type', 'cache-control', 'x-request-id']) {
        expect(proxied.headers.get(name), name).toBe(direct.headers.get(name));
      }
    });
  }

  const escapes = [
    '/api/v1/public/../internal/tenants',
    '/api/v1/public/%2e%2e/internal/tenants',
    '/api/v1/public/..%2finternal/tenants',
    '/api/v1/public/%2E%2E%2Finternal%2Ftenants',
    '/api/v1/public/..%5cinternal/tenants',
    '/api/v1/public/%252e%252e/internal/tenants',
    '/api/v1/public//../../internal/tenants',
  ];
  for (const path of escapes) {
    it(`POST ${path} never reaches the portal's internal routes`, async () => {
      const slug = `escape-${escapes.indexOf(path)}`;
      const response = await rawRequest(
        'POST',
        platform.landingUrl,
        path,
        {
          'content-type': 'application/json',
          'x-api-key': platform.secrets.internalApiKey,
        },
        JSON.stringify({
          slug,
          name: 'Escaped',
          plan_code: 'starter',
          admin: { email: `${slug}@example.test`, name: 'Mallory' },
        }),
      );
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'introuvable' });
      const tenant = await platform.db.db
        .selectFrom('tenants')
        .select('id')
        .where('slug', '=', slug)
        .executeTakeFirst();
      expect(tenant).toBeUndefined();
    });
  }
});

/** A request whose path goes out exactly as written (fetch would resolve the dot segments). */
function rawRequest(
  method: string,
  base: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, method, path, headers },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
