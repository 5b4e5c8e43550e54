import { randomUUID } from 'node:crypto';
import { clientAddress, validate } from '@erp/http';
import type { Context, Hono } from 'hono';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { takeHourlyUnit } from '../http/throttle';
import { readFormFields } from './read-form';
import { ContactFormSchema, DemoFormSchema } from './schemas';
import { type NewLead, storeLead } from './store-lead';

/**
 * `POST /api/contact` and `POST /api/demo`: validated (a mistyped form costs no quota), then
 * throttled per client address, then stored with its forwarding job → 202. A filled honeypot
 * (`website`) gets the very same answer and nothing is stored.
 */
export function registerFormRoutes(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  app.post('/api/contact', async function submitContact(c) {
    const form = validate(ContactFormSchema, await readFormFields(c));
    const { website, ...fields } = form;
    return accept(c, deps, website, { kind: 'contact', ...fields, details: {} });
  });

  app.post('/api/demo', async function submitDemo(c) {
    const form = validate(DemoFormSchema, await readFormFields(c));
    const { website, team_size, modules_wanted, preferred_date, ...fields } = form;
    const details: NewLead['details'] = {};
    if (team_size !== undefined) details.team_size = team_size;
    if (modules_wanted?.length) details.modules_wanted = [...new Set(modules_wanted)].join(',');
    if (preferred_date) details.preferred_date = preferred_date;
    return accept(c, deps, website, { kind: 'demo', ...fields, details });
  });
}

async function accept(
  c: Context<LandingAppEnv>,
  deps: LandingDeps,
  honeypot: string | undefined,
  lead: Omit<NewLead, 'clientAddress'>,
) {
  const address = clientAddress(c, deps.env.TRUST_PROXY);
  await takeHourlyUnit(deps.db, `landing:form:${address}`, deps.env.FORM_RATE_LIMIT_PER_HOUR);
  if (honeypot) {
    deps.logger.info('form honeypot filled', { request_id: c.get('requestId'), kind: lead.kind });
    return c.json({ id: randomUUID(), status: 'received' as const }, 202);
  }
  const id = await storeLead(deps, { ...lead, clientAddress: address });
  deps.logger.info('lead received', {
    request_id: c.get('requestId'),
    kind: lead.kind,
    lead_id: id,
  });
  return c.json({ id, status: 'received' as const }, 202);
}
