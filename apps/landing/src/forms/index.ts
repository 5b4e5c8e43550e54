import { randomUUID } from 'node:crypto';
import { ApiError } from '@erp/contract';
import { clientAddress, validate } from '@erp/http';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { readFormFields } from '../http/read-form';
import { takeHourlyUnit } from '../http/throttle';
import { pageHeaders, renderLeadForm, wantsHtml } from '../pages';
import { ContactFormSchema, DemoFormSchema } from './schemas';
import { type NewLead, storeLead } from './store-lead';

type LeadFields = Omit<NewLead, 'clientAddress'>;

/**
 * `POST /api/contact` and `POST /api/demo`: validated (a mistyped form costs no quota), then
 * throttled per client address, then stored with its forwarding job. A filled honeypot
 * (`website`) gets the very same answer and nothing is stored.
 *
 * Two audiences, one logic: JSON clients get 202 `{id, status}` or the `{code, params,
 * message}` error; a browser posting the HTML form (`Accept: text/html`) gets a 303 to the
 * thank-you page, or the form again with each error next to its field and what was typed
 * kept, under the error's own status (400, 429...).
 */
export function registerFormRoutes(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  app.post('/api/contact', pageHeaders, function submitContact(c) {
    return submit(c, deps, 'contact', ContactFormSchema, ({ website, ...fields }) => ({
      honeypot: website,
      lead: { kind: 'contact', ...fields, details: {} },
    }));
  });

  app.post('/api/demo', pageHeaders, function submitDemo(c) {
    return submit(c, deps, 'demo', DemoFormSchema, (form) => {
      const { website, team_size, modules_wanted, preferred_date, ...fields } = form;
      const details: NewLead['details'] = {};
      if (team_size !== undefined) details.team_size = team_size;
      if (modules_wanted?.length) details.modules_wanted = [...new Set(modules_wanted)].join(',');
      if (preferred_date) details.preferred_date = preferred_date;
      return { honeypot: website, lead: { kind: 'demo', ...fields, details } };
    });
  });
}

async function submit<S extends z.ZodType>(
  c: Context<LandingAppEnv>,
  deps: LandingDeps,
  kind: NewLead['kind'],
  schema: S,
  toLead: (form: z.infer<S>) => { honeypot: string | undefined; lead: LeadFields },
): Promise<Response> {
  const html = wantsHtml(c);
  let values: Record<string, string | string[]> = {};
  try {
    const fields = await readFormFields(c);
    if (fields && typeof fields === 'object') values = fields as typeof values;
    const { honeypot, lead } = toLead(validate(schema, fields));
    const id = await accept(c, deps, honeypot, lead);
    if (html) return c.redirect(`/${kind}/thanks`, 303);
    return c.json({ id, status: 'received' as const }, 202);
  } catch (error) {
    if (!html || !(error instanceof ApiError)) throw error;
    // The honeypot is never echoed: a bot learns nothing from the page either.
    const { website: _, ...kept } = values;
    return renderLeadForm(c, deps, kind, { values: kept, error });
  }
}

/** Throttles, then stores the lead with its job (or drops a honeypot's); the id answered. */
async function accept(
  c: Context<LandingAppEnv>,
  deps: LandingDeps,
  honeypot: string | undefined,
  lead: LeadFields,
): Promise<string> {
  const address = clientAddress(c, deps.env.TRUST_PROXY);
  await takeHourlyUnit(deps.db, `landing:form:${address}`, deps.env.FORM_RATE_LIMIT_PER_HOUR);
  if (honeypot) {
    deps.logger.info('form honeypot filled', { request_id: c.get('requestId'), kind: lead.kind });
    return randomUUID();
  }
  const id = await storeLead(deps, { ...lead, clientAddress: address });
  deps.logger.info('lead received', {
    request_id: c.get('requestId'),
    kind: lead.kind,
    lead_id: id,
  });
  return id;
}
