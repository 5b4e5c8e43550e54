import { landingJobs } from '@erp/contract';
import { sql } from '@erp/db';
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
 * Stores the lead and enqueues its forwarding to the portal in one statement (so one
 * transaction): no lead without its job, no job without its lead. The job key makes a replay
 * of the enqueue a no-op; the worker retries up to 25 times while the portal is down.
 */
export async function storeLead(deps: Pick<LandingDeps, 'db'>, lead: NewLead): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    WITH lead AS (
      INSERT INTO landing.leads (kind, name, email, company, phone, message, details, client_address)
      VALUES (${lead.kind}, ${lead.name}, ${lead.email}, ${lead.company ?? null}, ${lead.phone ?? null},
              ${lead.message ?? null}, ${JSON.stringify(lead.details)}::jsonb, ${lead.clientAddress})
      RETURNING id
    ), job AS (
      SELECT graphile_worker.add_job(
        ${landingJobs.forwardLead}, json_build_object('lead_id', lead.id),
        job_key => 'lead:' || lead.id, max_attempts => 25) AS queued
      FROM lead
    )
    SELECT lead.id FROM lead, job`.execute(deps.db);
  const id = rows[0]?.id;
  if (!id) throw new Error('lead not stored');
  return id;
}
