import { createClient, events } from '@erp/sdk';
import pg from 'pg';

/** A consumer reading a tenant's whole feed once; resolves to the events it read. */
export type Consumer = () => Promise<number>;

/** Over HTTP, as an integrator without the sdk would: fetch, parse, follow next_cursor. */
export function httpConsumer(
  baseUrl: string,
  key: string,
  tenant: string,
  pageSize: number,
): Consumer {
  return async () => {
    let after = '0';
    let read = 0;
    for (;;) {
      const res = await fetch(`${baseUrl}/api/v1/events?after=${after}&page_size=${pageSize}`, {
        headers: { authorization: `Bearer ${key}`, 'x-tenant-id': tenant },
      });
      if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${await res.text()}`);
      const page = (await res.json()) as {
        data: unknown[];
        next_cursor: string;
        has_more: boolean;
      };
      read += page.data.length;
      after = page.next_cursor;
      if (!page.has_more) return read;
    }
  };
}

/** The sdk's `events()`, caught up once (follow: false). */
export function sdkConsumer(
  baseUrl: string,
  key: string,
  tenant: string,
  pageSize: number,
): Consumer {
  const client = createClient({ baseUrl, apiKey: key, tenantId: tenant });
  return async () => {
    let read = 0;
    for await (const _ of events(client, { after: 0, pageSize, follow: false })) read++;
    return read;
  };
}

/**
 * The floor: the same rows, as the same JSON, by a bare keyset query on one pg connection
 * (no HTTP, no authentication, no numbering call, no row-level security), each page parsed
 * like the consumers above parse theirs.
 */
export async function bareSqlConsumer(databaseUrl: string, tenantId: string, pageSize: number) {
  const client = new pg.Client({ connectionString: databaseUrl, options: '-c app.worker=on' });
  await client.connect();
  const consume: Consumer = async () => {
    let after = '0';
    let read = 0;
    for (;;) {
      const { rows } = await client.query<{ sequence: string; j: string }>({
        name: 'bare_feed',
        text: `SELECT e.sequence::text AS sequence, json_build_object(
            'id', e.id, 'sequence', e.sequence, 'type', e.type,
            'created_at', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'tenant_id', e.tenant_id, 'data', e.data)::text AS j
          FROM events e WHERE e.tenant_id = $1 AND e.sequence > $2::bigint ORDER BY e.sequence LIMIT $3`,
        values: [tenantId, after, pageSize],
      });
      const page = JSON.parse(`{"data":[${rows.map((r) => r.j).join(',')}]}`) as {
        data: unknown[];
      };
      read += page.data.length;
      if (rows.length < pageSize) return read;
      after = rows[rows.length - 1]!.sequence;
    }
  };
  return { consume, close: () => client.end() };
}
