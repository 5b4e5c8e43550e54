import type { PlatformLeadBody, PlatformLeadSchema } from '@erp/contract';
import type { PlatformLeadsTable, Selectable } from '@erp/db';
import type { z } from 'zod';
import type { Deps } from '../deps';
import { mapWriteError } from '../resources';

type PlatformLead = z.infer<typeof PlatformLeadSchema>;

/**
 * Stores a lead landing forwarded, keyed by landing's id: a replay (landing's job retried
 * after a lost answer) writes nothing and gets the row stored the first time.
 */
export async function recordLead(
  deps: Deps,
  input: PlatformLeadBody,
): Promise<{ created: boolean; lead: PlatformLead }> {
  try {
    const inserted = await deps.db
      .insertInto('platform_leads')
      .values({
        id: input.id,
        kind: input.kind,
        name: input.name,
        email: input.email,
        company: input.company ?? null,
        phone: input.phone ?? null,
        message: input.message ?? null,
        details: JSON.stringify(input.details ?? {}),
        submitted_at: input.submitted_at,
        received_at: deps.now(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { created: true, lead: toLead(inserted) };
  } catch (error) {
    mapWriteError(error, 'write');
  }
  // A concurrent first insert has committed by now: ON CONFLICT waited for it.
  const stored = await deps.db
    .selectFrom('platform_leads')
    .selectAll()
    .where('id', '=', input.id)
    .executeTakeFirstOrThrow();
  return { created: false, lead: toLead(stored) };
}

function toLead(row: Selectable<PlatformLeadsTable>): PlatformLead {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    message: row.message,
    details: row.details as PlatformLead['details'],
    submitted_at: new Date(row.submitted_at).toISOString(),
    received_at: row.received_at.toISOString(),
  };
}
