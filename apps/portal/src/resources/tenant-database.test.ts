import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantDatabase, type TenantDatabase } from './tenant-database';

/**
 * What a connection of the tenant pool carries once a unit of work is over: nothing. Behind a
 * transaction-mode pooler the same server connection serves the next client, another tenant's
 * request or another app's, so neither the role nor the tenant may outlive the transaction.
 */
let tdb: TestDatabase;
let tenantDb: TenantDatabase;
const login = () => new URL(tdb.url).username;
beforeAll(async () => {
  tdb = await createTestDatabase();
  tenantDb = createTenantDatabase({ url: tdb.url, max: 1 });
});
afterAll(async () => {
  await tenantDb.close();
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

describe('the tenant pool', () => {
  it('binds erp_app and the tenant inside the work only', async () => {
    const tenant = randomUUID();
    let connection: pg.PoolClient | undefined;
    const inside = await tenantDb.run(tenant, async (client) => {
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
      tenantDb.run(tenant, async (client) => {
        connection = client;
        await client.query('SELECT 1/0');
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect((await stateOf(connection!)).role).toBe(login());
    await tenantDb.transaction(tenant, async (client) => stateOf(client));
    expect((await stateOf(connection!)).role).toBe(login());
    const held = await tenantDb.readOnly(tenant);
    expect(await stateOf(held.client)).toMatchObject({ role: 'erp_app', tenant });
    await held.end();
    expect((await stateOf(held.client)).tenant ?? '').toBe('');
  });

  it('clears a worker flag left on the connection, inside the work', async () => {
    let connection: pg.PoolClient | undefined;
    await tenantDb.run(randomUUID(), async (client) => {
      connection = client;
    });
    // As a worker's session setting would be, were it left on a pooled server connection.
    await connection!.query("SET app.worker = 'on'");
    const inside = await tenantDb.run(randomUUID(), (client) => stateOf(client));
    expect(inside.worker).toBe('');
    await connection!.query('RESET app.worker');
  });
});
