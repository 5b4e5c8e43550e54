import { PUBLIC_URL_HOSTS, REFUSED_URL_HOSTS } from '@erp/webhooks/address-forms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { fakeResolveHost, HOOKS, subscribe, webhookWorld } from '../../test/webhooks-harness';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;
let strict: Portal;
let world: Awaited<ReturnType<typeof webhookWorld>>;
const resolved: string[] = [];
beforeAll(async () => {
  strict = await createTestPortal({}, undefined, {
    resolveHost: (hostname) => {
      resolved.push(hostname);
      return fakeResolveHost(hostname);
    },
  });
  world = await webhookWorld(strict);
});
afterAll(() => strict.tdb.close());

const create = (portal: Portal, url: string, headers = world.admin) =>
  portal.post(HOOKS, { url, events: ['lead.created'] }, headers).then(portal.json);

describe('subscriber URLs (private URLs not allowed)', () => {
  it('refuses plain http', async () => {
    const res = await create(strict, 'http://public.example/hooks');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    expect(res.body.params.issues).toEqual([
      expect.objectContaining({ location: 'json', path: 'url', code: 'https_required' }),
    ]);
  });

  it('refuses IP literals in private, loopback and link-local ranges, however spelled', async () => {
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://127.1.2.3:8443/hooks',
      'https://10.0.0.1/hooks',
      'https://172.16.5.4/hooks',
      'https://192.168.0.10/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/',
      'https://100.64.0.1/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://[::]/',
    ]) {
      const res = await create(strict, url);
      expect(res.status, url).toBe(400);
      expect(res.body.params.issues[0]).toMatchObject({ path: 'url', code: 'private_address' });
    }
  });

  it('refuses every non-public address in the shared table of spellings (IPv6 forms included)', async () => {
    const accepted: string[] = [];
    for (const host of REFUSED_URL_HOSTS) {
      const res = await create(strict, `https://${host}:8443/hooks`);
      if (res.status !== 400 || res.body.params.issues[0]?.code !== 'private_address')
        accepted.push(`${host} → ${res.status}`);
    }
    expect(accepted).toEqual([]);
  });

  it('accepts the public addresses of the shared table, however spelled', async () => {
    for (const host of PUBLIC_URL_HOSTS) {
      const res = await create(strict, `https://${host}/hooks`);
      expect(res.status, host).toBe(201);
    }
  });

  it('refuses names that resolve to IPv6 spellings of private addresses', async () => {
    for (const url of [
      'https://compat6.example/',
      'https://sixtofour.example/',
      'https://nat64.example/',
    ]) {
      const res = await create(strict, url);
      expect(res.status, url).toBe(400);
      expect(res.body.params.issues[0]).toMatchObject({ path: 'url', code: 'private_address' });
    }
  });

  it('refuses names that resolve to such an address, and localhost without asking DNS', async () => {
    resolved.length = 0;
    for (const url of [
      'https://localhost/hooks',
      'https://api.localhost/hooks',
      'https://LOCALHOST./hooks',
      'https://internal.example/hooks',
      'https://metadata.example/',
      'https://mixed.example/',
      'https://loop6.example/',
    ]) {
      const res = await create(strict, url);
      expect(res.status, url).toBe(400);
      expect(res.body.params.issues[0]).toMatchObject({ path: 'url', code: 'private_address' });
    }
    expect(resolved).toEqual([
      'internal.example',
      'metadata.example',
      'mixed.example',
      'loop6.example',
    ]);
  });

  it('accepts public addresses and names, and names that do not resolve', async () => {
    for (const url of [
      'https://public.example/hooks?x=1',
      'https://six.example/',
      'https://93.184.216.34:8443/hooks',
      'https://[2606:2800:220:1:248:1893:25c8:1946]/',
      'https://does-not-resolve.example/hooks',
    ]) {
      const res = await create(strict, url);
      expect(res.status, url).toBe(201);
      expect(res.body.url).toBe(url);
    }
  });

  it('applies the same rules to a changed URL, leaving the subscription as it was', async () => {
    const created = await subscribe(strict, world.admin);
    for (const url of ['https://internal.example/x', 'http://public.example/x']) {
      const res = await strict
        .request(`${HOOKS}/${created.id}`, {
          method: 'PATCH',
          headers: { ...world.admin, 'content-type': 'application/json' },
          body: JSON.stringify({ url }),
        })
        .then(strict.json);
      expect(res.status, url).toBe(400);
      expect(res.body.params.issues[0].path).toBe('url');
    }
    const fetched = await strict
      .request(`${HOOKS}/${created.id}`, { headers: world.admin })
      .then(strict.json);
    expect(fetched.body.url).toBe(created.url);
  });

  it('does not wait on a resolver that hangs: the name counts as unresolved', async () => {
    const hanging = await createTestPortal({}, strict.tdb, {
      resolveHost: () => new Promise<string[]>(() => {}),
    });
    const started = Date.now();
    const res = await create(hanging, 'https://slow.example/hooks');
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('subscriber URLs with WEBHOOK_ALLOW_PRIVATE_URLS=true (development)', () => {
  it('accepts http and private addresses', async () => {
    const dev = await createTestPortal({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, strict.tdb, {
      resolveHost: fakeResolveHost,
    });
    for (const url of [
      'http://localhost:4000/hooks',
      'http://127.0.0.1:4000/hooks',
      'https://internal.example/hooks',
      'http://[::1]:4000/',
    ]) {
      const res = await create(dev, url);
      expect(res.status, url).toBe(201);
    }
  });

  it('still refuses what is not an absolute http(s) URL, or carries credentials', async () => {
    const dev = await createTestPortal({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, strict.tdb);
    for (const url of ['file:///etc/passwd', 'localhost:4000', 'http://u:p@localhost/']) {
      const res = await create(dev, url);
      expect(res.status, url).toBe(400);
      expect(res.body.params.issues[0].path).toBe('url');
    }
  });
});
