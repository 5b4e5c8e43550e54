import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startDatabase } from './lib/database';

const db = await startDatabase('scratch_notify', false);
const pool = new pg.Pool({ connectionString: db.url, max: 22 });
const tenant = randomUUID();
await pool.query(`INSERT INTO tenants (id, slug, name, modules) VALUES ($1, 'x', 'x', ARRAY['sales'])`, [tenant]);
await pool.query(`SET app.worker = 'on'`);
await pool.query(`ALTER ROLE CURRENT_USER SET app.worker = 'on'`);
await pool.end();
const pool2 = new pg.Pool({ connectionString: db.url, max: 22, options: '-c app.worker=on' });
const data = JSON.stringify({ object: { id: randomUUID(), a: 'x'.repeat(400) } });
async function run(label: string, sql: string, n = 4000, clients = 20) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    const c = await pool2.connect();
    while (next++ < n) await c.query(sql, [tenant, data]);
    c.release();
  }));
  const s = (performance.now() - t0) / 1000;
  console.log(label, Math.round(n / s), '/s');
}
const plain = `INSERT INTO events (tenant_id, type, resource, resource_id, data) VALUES ($1, 'x.created', 'x', gen_random_uuid(), $2)`;
const notify = `WITH e AS (${plain} RETURNING id) SELECT pg_notify('wh', '') FROM e`;
await pool2.query(`CREATE UNLOGGED TABLE wake (armed boolean NOT NULL)`); await pool2.query(`INSERT INTO wake VALUES (false)`);
await pool2.query(`CREATE FUNCTION wake_t() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF (SELECT armed FROM wake) THEN PERFORM pg_notify('wh',''); END IF; RETURN NULL; END $$`);
for (let r = 0; r < 3; r++) {
  await run('plain', plain);
  await run('notify', notify);
  await pool2.query(`CREATE TRIGGER t AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION wake_t()`);
  await run('trigger-unarmed', plain);
  await pool2.query(`DROP TRIGGER t ON events`);
}
await pool2.end();
await db.stop();
