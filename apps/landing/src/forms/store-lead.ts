import { jobs } from '@erp/contract';
import { enqueueJob, sql } from '@erp/db';
import type { LandingDeps } from '../deps';

/** A validated contact or demo request, as `landing.leads` keeps it. */
export interface NewLead {
  kind: 'contact' | 'demo';
  name: string;
  email: string;
  company?: string;
  phone?: string;
  message?: string;
  /** Form-specific answers: strings, numbers, booleans (what the portal's lead accepts). */
  details: Record<string, string | number | boolean>;
  clientAddress: string;
}

/**
 * Stores the lead and enqueues its forwarding to the portal in one transaction: no lead
 * without its job, no job without its lead. The job key makes a replay of the enqueue a no-op;
 * the worker retries while the portal is down.
 */
export async function storeLead(deps: Pick<LandingDeps, 'db'>, lead: NewLead): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`
      INSERT INTO landing.leads (kind, name, email, company, phone, message, details, client_address)
      VALUES (${lead.kind}, ${lead.name}, ${lead.email}, ${lead.company ?? null}, ${lead.phone ?? null},
              ${lead.message ?? null}, ${JSON.stringify(lead.details)}::jsonb, ${lead.clientAddress})
      RETURNING id`.execute(trx);
    const id = rows[0]?.id;
    if (!id) throw new Error('lead not stored');
    await enqueueJob(trx, jobs.forwardLead, { lead_id: id });
    return id;
  });
}
