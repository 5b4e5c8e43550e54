import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantDatabase, type TenantBinding, type TenantDatabase } from './tenant-database';

/**
 * What a connection of the tenant pool carries inside a unit of work (its tenant and `erp_app`,
 * whatever ran before on it) and once the work is over: nothing with a per-transaction binding
 * (behind a transaction-mode pooler the same server connection serves the next client), the
 * role and its last tenant with a session binding.
 */
let tdb: TestDatabase;
const databases: Partial<Record<TenantBinding, TenantDatabase>> = {};
const login = () => new URL(tdb.url).username;
beforeAll(async () => {
  tdb = await createTestDatabase();
  // One connection each: every unit of work meets what the one before left.
  for (const binding of ['session', 'transaction'] as const) {
    databases[binding] = createTenantDatabase({ url: tdb.url, max: 1, binding });
  }
});
afterAll(async () => {
  await Promise.all(Object.values(databases).map((db) => db.close()));
  await tdb.close();
});

/** The role and tenant of a connection, asked outside any transaction. */
async function stateOf(client: pg.PoolClient) {
  const { rows } = await client.query<{
    role: string;
    tenant: string | null;
    worker: string | null;
  }>(
    "SELECT current_user AS role, current_setting('app.tenant_id', true) AS tenant, current_setting('app.worker', true) AS worker",
  );
  return rows[0]!;
}

class Refused extends Error {
  code = 'refused';
}

describe.each(['session', 'transaction'] as const)('the tenant pool, %s binding', (binding) => {
  const db = () => databases[binding]!;

  it('runs every unit of work as erp_app and its tenant, whatever ran before on the connection', async () => {
    // A seeded walk over the ways a unit of work ends, switching among three tenants: a
    // binding trusted after a rollback undid it would show the previous tenant here.
    const tenants = [randomUUID(), randomUUID(), randomUUID()];
    let seed = 17;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const seen: string[] = [];
    for (let step = 0; step < 60; step++) {
      const tenant = tenants[next(3)]!;
      const check = async (client: pg.PoolClient) => {
        const state = await stateOf(client);
        seen.push(`${state.role} ${state.tenant}`);
        expect(state).toMatchObject({ role: 'erp_app', tenant });
      };
      switch (next(6)) {
        case 0:
          await db().run(tenant, check);
          break;
        case 1:
          await db().transaction(tenant, check);
          break;
        case 2:
          // A transaction that fails after its work: rolled back.
          await expect(
            db().transaction(tenant, async (client) => {
              await check(client);
              throw new Refused('no');
            }),
          ).rejects.toBeInstanceOf(Refused);
          break;
        case 3:
          // A statement that fails, inside a transaction and alone.
          await expect(
            db().transaction(tenant, async (client) => {
              await check(client);
              await client.query('SELECT 1/0');
            }),
          ).rejects.toMatchObject({ code: '22012' });
          await expect(
            db().run(tenant, (client) => client.query('SELECT 1/0')),
          ).rejects.toMatchObject({
            code: '22012',
          });
          break;
        case 4: {
          const held = await db().readOnly(tenant);
          await check(held.client);
          await held.end();
          break;
        }
        default: {
          const held = await db().readOnly(tenant);
          await check(held.client);
          await held.abort();
        }
      }
    }
    expect(seen.length).toBeGreaterThanOrEqual(60);
  });

  it('refuses a tenant id that is not a UUID, before any statement', async () => {
    await expect(db().run("x', true); SELECT 1; --", async () => 1)).rejects.toThrow(/UUID/);
    // The connection went back to the pool and still serves.
    const tenant = randomUUID();
    expect(await db().run(tenant, stateOf)).toMatchObject({ tenant });
  });
});

describe('per-transaction binding (behind a transaction-mode pooler)', () => {
  const db = () => databases.transaction!;

  it('binds erp_app and the tenant inside the work only', async () => {
    const tenant = randomUUID();
    let connection: pg.PoolClient | undefined;
    const inside = await db().run(tenant, async (client) => {
      connection = client;
      return stateOf(client);
    });
    expect(inside).toMatchObject({ role: 'erp_app', tenant });
    // The same (only) connection, idle in the pool: the login role, no tenant.
    const after = await stateOf(connection!);
    expect(after.role).toBe(login());
    expect(after.tenant ?? '').toBe('');
  });

  it('leaves nothing after a failed statement, a transaction or a read-only one', async () => {
    const tenant = randomUUID();
    let connection: pg.PoolClient | undefined;
    await expect(
      db().run(tenant, async (client) => {
        connection = client;
        await client.query('SELECT 1/0');
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect((await stateOf(connection!)).role).toBe(login());
    await db().transaction(tenant, async (client) => stateOf(client));
    expect((await stateOf(connection!)).role).toBe(login());
    const held = await db().readOnly(tenant);
    expect(await stateOf(held.client)).toMatchObject({ role: 'erp_app', tenant });
    await held.end();
    expect((await stateOf(held.client)).tenant ?? '').toBe('');
  });

  it('clears a worker flag left on the connection, inside the work', async () => {
    let connection: pg.PoolClient | undefined;
    await db().run(randomUUID(), async (client) => {
      connection = client;
    });
    // As a worker's session setting would be, were it left on a pooled server connection.
    await connection!.query("SET app.worker = 'on'");
    const inside = await db().run(randomUUID(), (client) => stateOf(client));
    expect(inside.worker).toBe('');
    await connection!.query('RESET app.worker');
  });
});

describe('session binding (direct connections)', () => {
  const db = () => databases.session!;

  it('costs a single statement no round trip of its own once the connection holds the tenant', async () => {
    const tenant = randomUUID();
    await db().run(tenant, async () => undefined);
    // What the session's connection is sent from now on: the work's own statements only.
    const sent: string[] = [];
    const inside = await db().run(tenant, async (client) => {
      const query = client.query.bind(client);
      const spy = ((config: unknown, ...rest: unknown[]) => {
        sent.push(typeof config === 'string' ? config : String((config as { text: string }).text));
        return (query as (...a: unknown[]) => unknown)(config, ...rest);
      }) as typeof client.query;
      client.query = spy;
      try {
        return await stateOf(client);
      } finally {
        client.query = query;
      }
    });
    expect(inside).toMatchObject({ role: 'erp_app', tenant });
    expect(sent).toHaveLength(1);
  });

  it('keeps erp_app and the last committed tenant on the idle connection', async () => {
    const first = randomUUID();
    const second = randomUUID();
    let connection: pg.PoolClient | undefined;
    await db().transaction(first, async (client) => {
      connection = client;
    });
    expect(await stateOf(connection!)).toMatchObject({ role: 'erp_app', tenant: first });
    // A transaction for another tenant rolled back: its binding went with it.
    await expect(
      db().transaction(second, async () => {
        throw new Refused('no');
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect(await stateOf(connection!)).toMatchObject({ role: 'erp_app', tenant: first });
    expect(await db().run(second, stateOf)).toMatchObject({ tenant: second });
  });
});
