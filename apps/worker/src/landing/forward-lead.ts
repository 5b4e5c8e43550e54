import { type JobPayload, type jobs, PlatformLeadBodySchema } from '@erp/contract';
import type { LandingDeps } from './deps';
import {
  describeAnswer,
  errorCode,
  portalVerdict,
  postToPortal,
  RetryLater,
} from './portal-client';

interface LeadRow {
  id: string;
  kind: string;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  message: string | null;
  details: unknown;
  created_at: Date;
  forwarded_at: Date | null;
}

/**
 * Forwards one contact or demo request to the portal (`/api/v1/internal/leads`, a no-op on a
 * replay of the same id). A lead already forwarded is not sent again.
 */
export function forwardLeadHandler(deps: LandingDeps) {
  return async function forwardLead({ lead_id }: JobPayload<typeof jobs.forwardLead>) {
    const { rows } = await deps.pool.query<LeadRow>(
      `SELECT id, kind, name, email, company, phone, message, details, created_at, forwarded_at
       FROM landing.leads WHERE id = $1`,
      [lead_id],
    );
    const lead = rows[0];
    if (!lead || lead.forwarded_at) return;
    const body = PlatformLeadBodySchema.safeParse({
      id: lead.id,
      kind: lead.kind,
      name: lead.name,
      email: lead.email,
      company: lead.company,
      phone: lead.phone,
      message: lead.message,
      details: lead.details ?? {},
      submitted_at: lead.created_at.toISOString(),
    });
    if (!body.success) {
      deps.logger.error('lead not forwarded: it does not fit the portal contract', { lead_id });
      return;
    }
    const path = '/api/v1/internal/leads';
    const response = await postToPortal(deps, path, body.data);
    const verdict = portalVerdict(response.status);
    if (verdict === 'retry') throw new RetryLater(describeAnswer(path, response));
    if (verdict === 'permanent') {
      deps.logger.error('portal refused a lead: not retried', {
        lead_id,
        status: response.status,
        code: errorCode(response),
      });
      return;
    }
    await deps.pool.query(
      'UPDATE landing.leads SET forwarded_at = now() WHERE id = $1 AND forwarded_at IS NULL',
      [lead_id],
    );
    deps.logger.info('lead forwarded to the portal', { lead_id });
  };
}
