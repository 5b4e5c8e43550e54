/** Stripe events shaped as Stripe sends them (API 2025 shapes), signed with the official package. */
import Stripe from 'stripe';

const stripe = new Stripe('sk_test_e2e_not_a_real_key');

export interface Checkout {
  eventId: string;
  sessionId: string;
  subscriptionId: string;
  slug: string;
  company: string;
  planCode: string;
  email: string;
  name: string;
}

/** `checkout.session.completed` of a subscription checkout the marketing site opened. */
export function checkoutCompleted(c: Checkout) {
  return {
    id: c.eventId,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: c.sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        customer: 'cus_e2e',
        subscription: c.subscriptionId,
        customer_details: { email: c.email, name: c.name },
        metadata: { tenant_slug: c.slug, company_name: c.company, plan_code: c.planCode },
      },
    },
  };
}

/** `customer.subscription.updated` after a plan change (`created` overrides the event's time). */
export function subscriptionUpdated(input: {
  eventId: string;
  subscriptionId: string;
  slug: string;
  planCode: string;
  status: string;
  /** When the change happened (Unix seconds; default now): the portal ignores an older one. */
  created?: number;
}) {
  const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
  return {
    id: input.eventId,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: input.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    type: 'customer.subscription.updated',
    data: {
      object: {
        id: input.subscriptionId,
        object: 'subscription',
        status: input.status,
        customer: 'cus_e2e',
        metadata: { tenant_slug: input.slug, plan_code: input.planCode },
        items: {
          object: 'list',
          data: [
            {
              id: 'si_e2e',
              current_period_end: periodEnd,
              price: { id: 'price_e2e', lookup_key: input.planCode },
            },
          ],
        },
      },
    },
  };
}

/** POSTs a Stripe event to landing's webhook, signed as Stripe would. */
export async function sendStripeEvent(landingUrl: string, secret: string, event: object) {
  const payload = JSON.stringify(event);
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  const started = performance.now();
  const response = await fetch(`${landingUrl}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return { response, body: await response.json(), ms: performance.now() - started };
}
