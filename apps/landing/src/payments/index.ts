import { ApiError } from '@erp/contract';
import type { Hono } from 'hono';
import type { LandingAppEnv, LandingDeps } from '../deps';
import type { PaymentProvider } from '../env';
import type { PaymentAdapter } from './adapter';
import { lemonSqueezyAdapter } from './lemonsqueezy';
import { paddleAdapter } from './paddle';
import { planResolver } from './plan-prices';
import { recordPaymentEvent } from './record';
import { stripeAdapter } from './stripe';

export type { ParsedPaymentEvent, PaymentAdapter } from './adapter';

/** Every supported provider's adapter; `PAYMENT_PROVIDER` picks one. */
export const paymentAdapters: Record<PaymentProvider, PaymentAdapter> = {
  stripe: stripeAdapter,
  paddle: paddleAdapter,
  lemonsqueezy: lemonSqueezyAdapter,
};

/**
 * `POST /api/<PAYMENT_PROVIDER>/webhook` (only the configured provider's path exists): verify
 * the raw body, store the event once, enqueue its forwarding, answer at once. The portal is
 * never called here: the worker forwards, so the provider gets its 2xx even when it is down.
 * Mount after the body limit.
 */
export function registerPaymentRoutes(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  const provider = deps.env.PAYMENT_PROVIDER;
  const adapter = paymentAdapters[provider];
  const plans = planResolver(deps.env.PAYMENT_PLAN_PRICES, {
    identity: deps.env.NODE_ENV === 'development',
  });

  app.post(`/api/${provider}/webhook`, async function receivePaymentEvent(c) {
    const rawBody = await c.req.text();
    try {
      adapter.verify(rawBody, c.req.raw.headers, deps.env.PAYMENT_WEBHOOK_SECRET, deps.now());
    } catch (error) {
      if (error instanceof ApiError)
        deps.logger.warn('payment webhook rejected', {
          request_id: c.get('requestId'),
          provider,
          reason: error.params.reason,
        });
      throw error;
    }
    const event = adapter.parse(parseJson(rawBody), rawBody, plans);
    const recorded = await recordPaymentEvent(deps, provider, event);
    // Type, key and outcome only: the body holds buyers' names and addresses.
    deps.logger.info('payment event received', {
      request_id: c.get('requestId'),
      provider,
      event_type: event.event_type,
      event_key: event.event_key,
      outcome: recorded.outcome,
      duplicate: recorded.duplicate,
      ...(recorded.reason ? { reason: recorded.reason } : {}),
    });
    return c.json({
      received: true as const,
      duplicate: recorded.duplicate,
      outcome: recorded.outcome,
    });
  });
}

function parseJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new ApiError('requete_invalide', 'The request body is not valid JSON.', {
      issues: [{ location: 'body', path: '', code: 'invalid_json', message: 'Invalid JSON' }],
    });
  }
}
