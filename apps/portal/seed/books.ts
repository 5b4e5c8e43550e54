import type { Resource } from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../src/http/context';
import { runOperation } from '../src/resources';
import { DEMO_YEAR, type SeededRecord } from './catalogue';

/** What installBooks makes (SPEC §17): the chart, the journals, the fiscal years and periods. */
const BOOKS = ['account', 'journal', 'fiscal_year', 'accounting_period'];

/**
 * The records of the tenant's installed books, by resource name, as the API lists them: the
 * seed's documents post to these accounts and journals, in these periods.
 */
export async function installedBooks(
  client: pg.PoolClient,
  tenantId: string,
  resources: readonly Resource[],
  actor: ActorRef,
): Promise<Map<string, SeededRecord[]>> {
  const installed = new Map<string, SeededRecord[]>();
  for (const resource of resources.filter((r) => BOOKS.includes(r.name))) {
    const page = await runOperation(
      client,
      tenantId,
      { resource, kind: 'list', query: {}, pageSize: 200 },
      actor,
    );
    installed.set(resource.name, (JSON.parse(page.body!) as { data: SeededRecord[] }).data);
  }
  return installed;
}

/**
 * Closes the first month of the demo's fiscal year once the seed has posted in it, as an
 * accountant closes a month whose books are done: from then on a posting dated in it is
 * refused (`periode_cloturee`) and a reversal takes the first open date.
 */
export async function closeFirstMonth(
  client: pg.PoolClient,
  tenantId: string,
  periods: Resource,
  records: ReadonlyMap<string, readonly SeededRecord[]>,
  actor: ActorRef,
): Promise<void> {
  const first = records
    .get(periods.name)
    ?.find(
      (p) =>
        p.start_date === `${DEMO_YEAR}-01-01` && p.period_type === 'month' && p.status === 'ouvert',
    );
  if (!first) return;
  await runOperation(
    client,
    tenantId,
    { resource: periods, kind: 'action', id: first.id, action: 'close' },
    actor,
  );
}
