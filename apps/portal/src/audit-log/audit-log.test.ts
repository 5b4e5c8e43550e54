import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AuditAction,
  generatePasswordLinkToken,
  hashPasswordLinkToken,
  type PasswordLinkPurpose,
} from '@erp/contract';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, PASSWORD, session } from '../../test/harness';
import { CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from '../../test/oidc-provider';
import { CALLBACK_URL, configureSso, signIn } from '../../test/sso-harness';
import { fakeResolveHost } from '../../test/webhooks-harness';

/**
 * SPEC §12's audit log: each audited operation writes its row (table-driven below), in its
 * transaction; a refused operation writes none (a refused sign-in writes its failure); only
 * admins read it, only their tenant's; and no secret ever reaches a row.
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let provider: TestOidcProvider;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let other: Awaited<ReturnType<typeof portal.provisionTenant>>;
let adminToken: string;
let hooksKey: { id: string; key: string };
/** Every secret the tests handle: none may appear in any row. */
const secrets = new Set<string>([PASSWORD, CLIENT_SECRET]);
const LOG = '/api/v1/settings/audit-log';
const ADDRESS = '203.0.113.9';

beforeAll(async () => {
  portal = await createTestPortal({ SSO_ALLOW_INSECURE_ISSUERS: 'true' }, undefined, {
    resolveHost: fakeResolveHost,
  });
  provider = await startOidcProvider([CALLBACK_URL]);
  tenant = await portal.provisionTenant();
  other = await portal.provisionTenant();
  const admin = await portal.login(tenant.adminEmail);
  adminToken = admin.access_token;
  secrets.add(admin.access_token).add(admin.refresh_token);
  hooksKey = await portal.createKey(tenant, ['webhooks']);
  secrets.add(hooksKey.key);
});
afterAll(async () => {
  await provider?.close();
  await portal?.tdb.close();
});

type Headers = Record<string, string>;
const asAdmin = (): Headers => ({
  ...session(adminToken, tenant.slug),
  'x-forwarded-for': ADDRESS,
});
const asKey = (): Headers => ({ ...apiKey(hooksKey.key, tenant.slug), 'x-forwarded-for': ADDRESS });

async function call(method: string, path: string, body?: unknown, headers: Headers = asAdmin()) {
  return portal.json(
    await portal.request(path, {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

async function login(email: string, password: string, tenantName?: string) {
  return call(
    'POST',
    '/api/v1/auth/login',
    { email, password, ...(tenantName ? { tenant: tenantName } : {}) },
    { 'x-forwarded-for': ADDRESS },
  );
}

interface Row {
  id: string;
  tenant_id: string | null;
  action: AuditAction;
  actor_type: string | null;
  actor_id: string | null;
  target_type: string | null;
  target_id: string | null;
  address: string | null;
  details: Record<string, unknown>;
}

async function allIds(): Promise<Set<string>> {
  const rows = await portal.tdb.db.selectFrom('audit_log').select('id').execute();
  return new Set(rows.map((r) => r.id));
}

/** The rows `work` wrote, oldest first (rows of one transaction share a time: by action). */
async function written(work: () => Promise<unknown>): Promise<Row[]> {
  const before = await allIds();
  await work();
  const rows = await portal.tdb.db
    .selectFrom('audit_log')
    .selectAll()
    .orderBy('at')
    .orderBy('action')
    .execute();
  return rows.filter((r) => !before.has(r.id)) as unknown as Row[];
}

async function issueLink(userId: string, purpose: PasswordLinkPurpose, tenantId: string | null) {
  const token = generatePasswordLinkToken();
  secrets.add(token);
  await portal.tdb.db
    .insertInto('password_tokens')
    .values({
      user_id: userId,
      purpose,
      tenant_id: tenantId,
      token_hash: hashPasswordLinkToken(token),
      expires_at: new Date(Date.now() + 3_600_000),
    })
    .execute();
  return token;
}

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const byAdmin = () => ({ actor_type: 'user', actor_id: tenant.adminId, address: ADDRESS });
const byKey = () => ({ actor_type: 'api_key', actor_id: hooksKey.id, address: ADDRESS });

interface Case {
  name: string;
  /** Does the operation; returns what the rows should be about. */
  run: () => Promise<{ target?: string; user?: string; email?: string } | undefined>;
  rows: (ctx: { target?: string; user?: string; email?: string }) => Partial<Row>[];
}

let keyId = '';
let subscriptionId = '';
let memberId = '';

const cases: Case[] = [
  {
    name: 'API key created',
    run: async () => {
      const res = await call('POST', '/api/v1/settings/api-keys', {
        name: 'ci',
        scopes: ['sales:read'],
        expires_at: future(30),
      });
      expect(res.status).toBe(201);
      secrets.add(res.body.key);
      keyId = res.body.id;
      return { target: keyId };
    },
    rows: ({ target }) => [
      {
        tenant_id: tenant.id,
        action: 'api_key.created',
        ...byAdmin(),
        target_type: 'api_key',
        target_id: target,
        details: expect.objectContaining({ name: 'ci', scopes: ['sales:read'] }),
      },
    ],
  },
  {
    name: 'API key rolled',
    run: async () => {
      const res = await call('POST', `/api/v1/settings/api-keys/${keyId}/roll`, {
        expire_previous_in_hours: 1,
      });
      expect(res.status).toBe(201);
      secrets.add(res.body.key);
      const previous = keyId;
      keyId = res.body.id;
      return { target: keyId, user: previous };
    },
    rows: ({ target, user }) => [
      {
        action: 'api_key.rolled',
        ...byAdmin(),
        target_id: target,
        details: expect.objectContaining({ previous_id: user, expire_previous_in_hours: 1 }),
      },
    ],
  },
  {
    name: 'API key revoked',
    run: async () => {
      expect((await call('DELETE', `/api/v1/settings/api-keys/${keyId}`)).status).toBe(204);
      return { target: keyId };
    },
    rows: ({ target }) => [{ action: 'api_key.revoked', ...byAdmin(), target_id: target }],
  },
  {
    name: 'webhook subscription created (by an API key)',
    run: async () => {
      const res = await call(
        'POST',
        '/api/v1/settings/webhooks',
        { url: 'https://public.example/hook', events: ['quote.created'] },
        asKey(),
      );
      expect(res.status).toBe(201);
      secrets.add(res.body.secret);
      subscriptionId = res.body.id;
      return { target: subscriptionId };
    },
    rows: ({ target }) => [
      {
        action: 'webhook.created',
        ...byKey(),
        target_type: 'webhook_subscription',
        target_id: target,
        details: { url: 'https://public.example/hook', events: ['quote.created'], enabled: true },
      },
    ],
  },
  {
    name: 'webhook subscription changed',
    run: async () => {
      const res = await call('PATCH', `/api/v1/settings/webhooks/${subscriptionId}`, {
        enabled: false,
        description: 'paused',
      });
      expect(res.status).toBe(200);
      return { target: subscriptionId };
    },
    rows: ({ target }) => [
      {
        action: 'webhook.updated',
        ...byAdmin(),
        target_id: target,
        details: { enabled: false, description: 'paused' },
      },
    ],
  },
  {
    name: 'webhook secret rotated',
    run: async () => {
      const res = await call('POST', `/api/v1/settings/webhooks/${subscriptionId}/rotate-secret`, {
        expire_previous_in_hours: 0,
      });
      expect(res.status).toBe(200);
      secrets.add(res.body.secret);
      return { target: subscriptionId };
    },
    rows: ({ target }) => [
      {
        action: 'webhook.secret_rotated',
        ...byAdmin(),
        target_id: target,
        details: expect.objectContaining({ expire_previous_in_hours: 0 }),
      },
    ],
  },
  {
    name: 'webhook subscription deleted',
    run: async () => {
      expect((await call('DELETE', `/api/v1/settings/webhooks/${subscriptionId}`)).status).toBe(
        204,
      );
      return { target: subscriptionId };
    },
    rows: ({ target }) => [
      {
        action: 'webhook.deleted',
        ...byAdmin(),
        target_id: target,
        details: { url: 'https://public.example/hook' },
      },
    ],
  },
  {
    name: 'invitation sent',
    run: async () => {
      const email = `inv-${randomBytes(3).toString('hex')}@${tenant.slug}.test`;
      const res = await call('POST', '/api/v1/settings/users', {
        email,
        name: 'Invitee',
        roles: ['crm:reader'],
      });
      expect(res.status).toBe(201);
      return { target: res.body.id, email };
    },
    rows: ({ target, email }) => [
      {
        action: 'invitation.sent',
        ...byAdmin(),
        target_type: 'invitation',
        target_id: target,
        details: { email, roles: ['crm:reader'] },
      },
    ],
  },
  {
    name: 'invitation accepted: the person becomes a member',
    run: async () => {
      const email = `acc-${randomBytes(3).toString('hex')}@${tenant.slug}.test`;
      const res = await call('POST', '/api/v1/settings/users', {
        email,
        name: 'Accepting',
        roles: ['sales:reader'],
      });
      const token = await portal.invitationLink(res.body.id);
      const accepted = await call(
        'POST',
        '/api/v1/auth/invitations/accept',
        { token, password: 'a brand new password 7' },
        { 'x-forwarded-for': ADDRESS },
      );
      expect(accepted.status).toBe(200);
      secrets.add('a brand new password 7');
      const user = await portal.tdb.pool.query<{ id: string }>(
        'SELECT id FROM users WHERE email = $1',
        [email],
      );
      memberId = user.rows[0]!.id;
      return { user: memberId };
    },
    rows: ({ user }) => [
      expect.objectContaining({ action: 'invitation.sent' }),
      ...(['invitation.accepted', 'member.added'] as const).map((action) => ({
        tenant_id: tenant.id,
        action,
        actor_type: 'user',
        actor_id: user,
        target_type: 'user',
        target_id: user,
        address: ADDRESS,
        details: expect.objectContaining({ roles: ['sales:reader'], how: 'password' }),
      })),
    ],
  },
  {
    name: "member's roles changed",
    run: async () => {
      const res = await call('PATCH', `/api/v1/settings/users/${memberId}`, {
        roles: ['sales:editor'],
      });
      expect(res.status).toBe(200);
      return { target: memberId };
    },
    rows: ({ target }) => [
      {
        action: 'member.updated',
        ...byAdmin(),
        target_id: target,
        details: expect.objectContaining({
          changed: ['roles'],
          roles: ['sales:editor'],
          previous_roles: ['sales:reader'],
        }),
      },
    ],
  },
  {
    name: 'member removed',
    run: async () => {
      expect((await call('DELETE', `/api/v1/settings/users/${memberId}`)).status).toBe(204);
      return { target: memberId };
    },
    rows: ({ target }) => [
      {
        action: 'member.removed',
        ...byAdmin(),
        target_id: target,
        details: expect.objectContaining({ roles: ['sales:editor'] }),
      },
    ],
  },
  {
    name: 'single sign-on saved, then removed',
    run: async () => {
      const saved = await call('PUT', '/api/v1/settings/sso', {
        issuer: provider.issuer,
        client_id: 'erp-portal',
        client_secret: CLIENT_SECRET,
        allowed_domains: ['example.org'],
        default_role: 'sales:reader',
        enforced: false,
      });
      expect(saved.status).toBe(200);
      expect((await call('DELETE', '/api/v1/settings/sso')).status).toBe(204);
      return undefined;
    },
    rows: () => [
      {
        action: 'sso.updated',
        ...byAdmin(),
        target_type: 'sso_settings',
        target_id: tenant.id,
        details: {
          issuer: provider.issuer,
          client_id: 'erp-portal',
          allowed_domains: ['example.org'],
          default_role: 'sales:reader',
          enforced: false,
          client_secret_changed: true,
        },
      },
      { action: 'sso.deleted', ...byAdmin(), details: { issuer: provider.issuer } },
    ],
  },
  {
    name: 'password login into the tenant',
    run: async () => {
      const res = await login(tenant.adminEmail, PASSWORD, tenant.slug);
      expect(res.status).toBe(200);
      secrets.add(res.body.access_token).add(res.body.refresh_token);
      return undefined;
    },
    rows: () => [
      {
        tenant_id: tenant.id,
        action: 'login.succeeded',
        ...byAdmin(),
        details: { method: 'password', email: tenant.adminEmail },
      },
    ],
  },
  {
    name: 'password login refused: a wrong password',
    run: async () => {
      secrets.add('not the password at all');
      expect((await login(tenant.adminEmail, 'not the password at all', tenant.slug)).status).toBe(
        401,
      );
      return undefined;
    },
    rows: () => [
      {
        tenant_id: tenant.id,
        action: 'login.failed',
        ...byAdmin(),
        details: { method: 'password', email: tenant.adminEmail, reason: 'identifiants_invalides' },
      },
    ],
  },
];

describe('each audited operation writes its row', () => {
  for (const c of cases) {
    it(c.name, async () => {
      let ctx: { target?: string; user?: string } = {};
      const rows = await written(async () => {
        ctx = (await c.run()) ?? {};
      });
      const expected = c
        .rows(ctx)
        .map((row) =>
          'asymmetricMatch' in row
            ? row
            : expect.objectContaining({ tenant_id: tenant.id, ...row }),
        );
      expect(rows).toEqual(expected);
    });
  }
});

describe('sign-ins', () => {
  it('an unknown e-mail naming a tenant is recorded in it exactly as a stranger to it would be; naming none, on the platform only', async () => {
    const unknown = `nobody-${randomBytes(3).toString('hex')}@nowhere.test`;
    const elsewhere = await portal.addUser(other, ['sales:reader']);
    const [stranger] = await written(async () =>
      expect((await login(unknown, 'whatever password 1', tenant.slug)).status).toBe(401),
    );
    const [outsider] = await written(async () =>
      expect((await login(elsewhere.email, 'whatever password 1', tenant.slug)).status).toBe(401),
    );
    const strip = (row: Row) => ({
      ...row,
      id: undefined,
      at: undefined,
      details: { ...row.details, email: '' },
    });
    // Whether the e-mail has an account elsewhere is not told to this tenant's admins.
    expect(strip(outsider!)).toEqual(strip(stranger!));
    expect(stranger).toMatchObject({
      tenant_id: tenant.id,
      action: 'login.failed',
      actor_type: null,
      actor_id: null,
      address: ADDRESS,
      details: { method: 'password', email: unknown, reason: 'identifiants_invalides' },
    });
    const platform = await written(async () =>
      expect((await login(unknown, 'whatever password 1')).status).toBe(401),
    );
    expect(platform).toEqual([expect.objectContaining({ tenant_id: null, actor_id: null })]);
  });

  it('a login naming no tenant is recorded in every tenant of the account, the person as actor', async () => {
    const both = await portal.addUser(tenant, ['sales:reader']);
    const added = await call(
      'POST',
      '/api/v1/settings/users',
      { email: both.email, name: 'x', roles: ['crm:reader'] },
      { ...session((await portal.login(other.adminEmail)).access_token, other.slug) },
    );
    expect(added.status).toBe(201);
    const joined = await call(
      'POST',
      '/api/v1/auth/invitations/join',
      { token: await portal.invitationLink(added.body.id) },
      session(both.token),
    );
    expect(joined.status).toBe(200);
    const ok = await written(async () =>
      expect((await login(both.email, PASSWORD)).status).toBe(200),
    );
    expect(ok.map((r) => [r.tenant_id, r.action, r.actor_id]).sort()).toEqual(
      [
        [tenant.id, 'login.succeeded', both.id],
        [other.id, 'login.succeeded', both.id],
      ].sort(),
    );
    const failed = await written(async () =>
      expect((await login(both.email, 'wrong password here')).status).toBe(401),
    );
    expect(failed.map((r) => r.tenant_id).sort()).toEqual([tenant.id, other.id].sort());
  });

  it('the right password into a tenant that is not the account’s is a failure there (tenant_invalide)', async () => {
    const rows = await written(async () =>
      expect((await login(other.adminEmail, PASSWORD, tenant.slug)).status).toBe(403),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        tenant_id: tenant.id,
        action: 'login.failed',
        actor_id: null,
        details: { method: 'password', email: other.adminEmail, reason: 'tenant_invalide' },
      }),
    ]);
  });

  it('a password login into a tenant that requires single sign-on is a failure there (sso_requis)', async () => {
    const enforced = await portal.provisionTenant();
    await configureSso(portal, enforced, provider, { enforced: true });
    const member = await portal.addUser(enforced, ['sales:reader']);
    const rows = await written(async () =>
      expect((await login(member.email, PASSWORD, enforced.slug)).status).toBe(403),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        tenant_id: enforced.id,
        action: 'login.failed',
        actor_id: member.id,
        details: { method: 'password', email: member.email, reason: 'sso_requis' },
      }),
    ]);
  });

  it('throttled attempts verify nothing and record nothing', async () => {
    const email = `throttled-${randomBytes(3).toString('hex')}@nowhere.test`;
    const headers = { 'x-forwarded-for': '198.51.100.77' };
    for (let i = 0; i < 10; i++)
      await call('POST', '/api/v1/auth/login', { email, password: 'wrong password x' }, headers);
    const rows = await written(async () =>
      expect(
        (await call('POST', '/api/v1/auth/login', { email, password: 'wrong password x' }, headers))
          .status,
      ).toBe(429),
    );
    expect(rows).toEqual([]);
  });

  it('single sign-on: a just-in-time member (member.added, login.succeeded), then a refused domain (login.failed)', async () => {
    const sso = await portal.provisionTenant();
    const domain = `${sso.slug}.example`;
    await configureSso(portal, sso, provider, { allowed_domains: [domain] });
    const email = `jit-${randomBytes(3).toString('hex')}@${domain}`;
    const joined = await written(async () => {
      const { callback } = await signIn(portal, provider, {
        tenant: sso.slug,
        identity: { sub: randomUUID(), email, email_verified: true, name: 'Jit' },
      });
      expect(callback.status).toBe(303);
    });
    const user = joined[0]!.actor_id;
    expect(joined).toEqual([
      expect.objectContaining({
        tenant_id: sso.id,
        action: 'member.added',
        actor_type: 'user',
        target_id: user,
        details: { email, roles: ['sales:reader'], invited: false, via: 'sso' },
      }),
      expect.objectContaining({
        tenant_id: sso.id,
        action: 'login.succeeded',
        actor_id: user,
        details: { method: 'sso', email, joined: true },
      }),
    ]);
    const refused = await written(async () => {
      const { callback } = await signIn(portal, provider, {
        tenant: sso.slug,
        identity: { sub: randomUUID(), email: 'eve@elsewhere.test', email_verified: true },
      });
      expect(callback.status).toBe(403);
    });
    expect(refused).toEqual([
      expect.objectContaining({
        tenant_id: sso.id,
        action: 'login.failed',
        actor_id: null,
        details: { method: 'sso', email: 'eve@elsewhere.test', reason: 'acces_refuse' },
      }),
    ]);
  });

  it('a password reset completed is recorded in every tenant of the account', async () => {
    const member = await portal.addUser(tenant, ['sales:reader']);
    const token = await issueLink(member.id, 'password_reset', null);
    const rows = await written(async () =>
      expect(
        (
          await call(
            'POST',
            '/api/v1/auth/password-reset/confirm',
            { token, password: 'reset to this password 9' },
            { 'x-forwarded-for': ADDRESS },
          )
        ).status,
      ).toBe(200),
    );
    secrets.add('reset to this password 9');
    expect(rows).toEqual([
      expect.objectContaining({
        tenant_id: tenant.id,
        action: 'password_reset.completed',
        actor_id: member.id,
        target_id: member.id,
        address: ADDRESS,
      }),
    ]);
  });
});

describe('refused operations write nothing', () => {
  const refusals: [string, () => Promise<{ status: number }>, number][] = [
    [
      'a key with a scope the tenant did not buy',
      () =>
        call('POST', '/api/v1/settings/api-keys', {
          name: 'x',
          scopes: ['nope:read'],
          expires_at: future(1),
        }),
      400,
    ],
    [
      'revoking an unknown key',
      () => call('DELETE', `/api/v1/settings/api-keys/${randomUUID()}`),
      404,
    ],
    [
      'a webhook to a private address',
      () =>
        call('POST', '/api/v1/settings/webhooks', {
          url: 'https://10.0.0.1/hook',
          events: ['quote.created'],
        }),
      400,
    ],
    [
      'rotating another tenant’s secret',
      () => call('POST', `/api/v1/settings/webhooks/${randomUUID()}/rotate-secret`, {}),
      404,
    ],
    [
      'demoting the last admin',
      () => call('PATCH', `/api/v1/settings/users/${tenant.adminId}`, { roles: ['sales:reader'] }),
      409,
    ],
    [
      'adding an existing member',
      () =>
        call('POST', '/api/v1/settings/users', {
          email: tenant.adminEmail,
          name: 'Again',
          roles: ['admin'],
        }),
      409,
    ],
    [
      'single sign-on with an issuer that does not answer',
      () =>
        call('PUT', '/api/v1/settings/sso', {
          issuer: 'http://127.0.0.1:9/nothing',
          client_id: 'x',
          client_secret: 'a secret that is refused 1',
          allowed_domains: [],
          default_role: 'sales:reader',
          enforced: false,
        }),
      400,
    ],
  ];
  for (const [name, run, status] of refusals) {
    it(name, async () => {
      const rows = await written(async () => expect((await run()).status).toBe(status));
      expect(rows).toEqual([]);
    });
  }
});

describe('GET /api/v1/settings/audit-log', () => {
  it('is newest first, names actors as they are called now, pages by cursor and filters by action and actor', async () => {
    await portal.tdb.db
      .updateTable('users')
      .set({ name: 'Renamed Admin' })
      .where('id', '=', tenant.adminId)
      .execute();
    const first = await call('GET', `${LOG}?page_size=3`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(3);
    const ids = first.body.data.map((r: { id: string }) => r.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const second = await call('GET', `${LOG}?page_size=3&cursor=${first.body.next_cursor}`);
    expect(second.body.data[0].id < ids[2]).toBe(true);

    const created = await call('GET', `${LOG}?action=api_key.created`);
    expect(created.body.data.length).toBeGreaterThanOrEqual(2);
    for (const row of created.body.data) expect(row.action).toBe('api_key.created');
    const ci = created.body.data.find(
      (r: { details: { name: string } }) => r.details.name === 'ci',
    );
    expect(ci).toMatchObject({
      actor: { type: 'user', id: tenant.adminId, name: 'Renamed Admin' },
      target: { type: 'api_key' },
      address: ADDRESS,
    });

    const byTheKey = await call('GET', `${LOG}?actor=${hooksKey.id}`);
    expect(byTheKey.body.data).toEqual([
      expect.objectContaining({
        action: 'webhook.created',
        actor: { type: 'api_key', id: hooksKey.id, name: 'test key' },
      }),
    ]);
    expect(byTheKey.body.next_cursor).toBeNull();
  });

  it('refuses bad filters and forged cursors with requete_invalide', async () => {
    for (const query of [
      'action=api_key.stolen',
      'actor=42',
      'cursor=bm90IGEgY3Vyc29y',
      'page_size=0',
    ]) {
      const res = await call('GET', `${LOG}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
    }
  });

  it('is for admins through a session: members and API keys get acces_refuse, strangers 401', async () => {
    const member = await portal.addUser(tenant, ['sales:editor']);
    const res = await call('GET', LOG, undefined, session(member.token, tenant.slug));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'admin' } });
    const key = await call('GET', LOG, undefined, apiKey(hooksKey.key, tenant.slug));
    expect(key.status).toBe(403);
    expect(key.body.params).toEqual({ required: 'session' });
    expect((await call('GET', LOG, undefined, {})).status).toBe(401);
  });

  it('shows a tenant its own rows only', async () => {
    const token = (await portal.login(other.adminEmail)).access_token;
    const theirs = await call('GET', `${LOG}?page_size=200`, undefined, session(token, other.slug));
    expect(theirs.status).toBe(200);
    const mine = await portal.tdb.db
      .selectFrom('audit_log')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .execute();
    const shown = new Set(theirs.body.data.map((r: { id: string }) => r.id));
    expect(mine.length).toBeGreaterThan(10);
    for (const row of mine) expect(shown.has(row.id)).toBe(false);
    const filtered = await call(
      'GET',
      `${LOG}?actor=${tenant.adminId}`,
      undefined,
      session(token, other.slug),
    );
    expect(filtered.body.data).toEqual([]);
    // Naming the other tenant is refused, as for any tenant one is not a member of.
    expect((await call('GET', LOG, undefined, session(token, tenant.slug))).status).toBe(403);
  });
});

describe('the table', () => {
  it('holds no secret, token, password or key used in these tests', async () => {
    const { rows } = await sql<{ text: string }>`
      SELECT concat_ws(' ', action, address, details::text) AS text FROM audit_log`.execute(
      portal.tdb.db,
    );
    expect(rows.length).toBeGreaterThan(20);
    const everything = rows.map((r) => r.text).join('\n');
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(everything.includes(secret), `a secret in the audit log: ${secret.slice(0, 6)}…`).toBe(
        false,
      );
    }
    // API keys' and webhook secrets' random parts too, in case a row held them cut differently.
    expect(everything).not.toMatch(/service_live_|whsec_|pwt_|rt_[A-Za-z0-9_-]{20}/);
  });

  it('is append-only: no update, no delete, no truncate; a deleted tenant takes its rows', async () => {
    const db = portal.tdb.db;
    await expect(sql`UPDATE audit_log SET action = 'x'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(/append-only/);
    const gone = await portal.provisionTenant();
    await call('POST', '/api/v1/auth/login', {
      email: gone.adminEmail,
      password: PASSWORD,
      tenant: gone.slug,
    });
    const count = async () =>
      (
        await db
          .selectFrom('audit_log')
          .select(db.fn.countAll<number>().as('n'))
          .where('tenant_id', '=', gone.id)
          .executeTakeFirstOrThrow()
      ).n;
    expect(Number(await count())).toBe(1);
    await db.deleteFrom('tenants').where('id', '=', gone.id).execute();
    expect(Number(await count())).toBe(0);
  });
});
