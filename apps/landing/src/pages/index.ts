import { ApiError } from '@erp/contract';
import { browserSecurityHeaders, validate } from '@erp/http';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { readFormFields } from '../http/read-form';
import { claimForClient } from '../onboarding';
import type { PublicPortal } from '../proxy';
import { registerAssetRoutes } from './assets';
import { type FormErrors, type FormValues, formErrors } from './form-errors';
import { HomePage } from './home';
import { ContactPage, DemoPage, type LeadKind, ThanksPage } from './lead-forms';
import { ClaimedPage, OnboardingPage } from './onboarding';
import { loadPlans } from './plans';
import { PricingPage } from './pricing';
import { renderPage, siteOrigin } from './render';

export { wantsHtml } from './render';

/** SPEC §14's headers on everything a browser renders (the CSP refuses any inline script). */
export const pageHeaders = browserSecurityHeaders();

const PAGE_PATHS = [
  '/',
  '/pricing',
  '/contact',
  '/demo',
  '/contact/thanks',
  '/demo/thanks',
  '/onboarding',
];

const ClaimFormSchema = z.strictObject({ reference: z.string().trim().min(1).max(200) });

/**
 * The marketing pages (SPEC §14), server-rendered, no client script: home, pricing (the plans
 * through `portal`, the public proxy's own path), the contact and demo forms (posting to the
 * §8 endpoints, which answer browsers with these pages), and onboarding, where a new customer
 * claims the first login. Every one gets `browserSecurityHeaders()`.
 */
export function registerPages(
  app: Hono<LandingAppEnv>,
  deps: LandingDeps,
  portal: PublicPortal,
): void {
  registerAssetRoutes(app);
  for (const path of PAGE_PATHS) app.use(path, pageHeaders);
  const origin = (c: Context<LandingAppEnv>) => siteOrigin(c, deps.env.TRUST_PROXY);
  const consoleLogin = `${deps.env.CONSOLE_URL ?? deps.env.PORTAL_URL}/login`;

  app.get('/', (c) => renderPage(c, HomePage({ origin: origin(c) })));
  app.get('/pricing', async function pricingPage(c) {
    const plans = await loadPlans(c, deps, portal);
    return renderPage(c, PricingPage({ origin: origin(c), plans }), {
      // Without the plans the page must not be kept in place of the real one.
      caching: plans ? 'revalidate' : 'private',
    });
  });
  app.get('/contact', (c) => renderLeadForm(c, deps, 'contact', { values: {} }));
  app.get('/demo', (c) => renderLeadForm(c, deps, 'demo', { values: {} }));
  for (const kind of ['contact', 'demo'] as const) {
    app.get(`/${kind}/thanks`, (c) => renderPage(c, ThanksPage({ origin: origin(c), kind })));
  }

  app.get('/onboarding', (c) => {
    const reference = c.req.query('reference')?.slice(0, 200) ?? '';
    return renderPage(c, OnboardingPage({ origin: origin(c), state: { values: { reference } } }), {
      caching: 'private',
    });
  });
  app.post('/onboarding', async function claimPage(c) {
    let values: FormValues = {};
    try {
      values = (await readFormFields(c)) as FormValues;
      const { reference } = validate(ClaimFormSchema, values);
      const claim = await claimForClient(c, deps, reference);
      if (claim) {
        const page = ClaimedPage({ origin: origin(c), claim, consoleUrl: consoleLogin });
        return renderPage(c, page, { caching: 'private' });
      }
      return refused(c, values, 404, {
        code: 'introuvable',
        fields: {},
        form: [
          'There is no account to claim for this reference. It may have been claimed already, or have expired (after 24 hours); if you paid a moment ago, your account is still being set up: try again in a minute.',
        ],
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return refused(c, values, error.status, formErrors(error));
    }
  });

  function refused(
    c: Context<LandingAppEnv>,
    values: FormValues,
    status: number,
    errors: FormErrors,
  ) {
    const page = OnboardingPage({ origin: origin(c), state: { values, errors } });
    return renderPage(c, page, { status: status as 400, caching: 'private' });
  }
}

/**
 * The contact or demo page; with `state.errors`, the answer to a refused submission: status
 * from the error (400 `requete_invalide`, 429 `limite_depassee`...), its headers
 * (Retry-After), what was typed kept, never stored by a cache.
 */
export function renderLeadForm(
  c: Context<LandingAppEnv>,
  deps: LandingDeps,
  kind: LeadKind,
  state: { values: FormValues; error?: ApiError },
): Promise<Response> {
  const origin = siteOrigin(c, deps.env.TRUST_PROXY);
  const errors = state.error && formErrors(state.error);
  const props = { origin, state: { values: state.values, errors } };
  const page = kind === 'contact' ? ContactPage(props) : DemoPage(props);
  if (!state.error) return renderPage(c, page);
  for (const [name, value] of Object.entries(state.error.headers)) c.header(name, value);
  return renderPage(c, page, { status: state.error.status as 400, caching: 'private' });
}
