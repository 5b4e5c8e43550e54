/** Stripe events shaped as Stripe sends them (API 2025 shapes), signed with the official package. */
import Stripe from 'stripe';

const stripe = new Stripe('sk_test_e2e_not_a_real_key');

/**
 * `PAYMENT_PLAN_PRICES` of the e2e landing (platform.ts): the price of each seeded plan. The
 * plan of a purchase comes from these prices only, never from the checkout's metadata.
 */
export const E2E_PLAN_PRICES: Record<string, string> = {
  price_e2e_starter: 'starter',
  price_e2e_business: 'business',
  price_e2e_enterprise: 'enterprise',
};

/** The price that buys `plan` (see E2E_PLAN_PRICES). */
export const priceOf = (plan: string) => `price_e2e_${plan}`;

export interface Checkout {
  eventId: string;
  sessionId: string;
  subscriptionId: string;
  slug: string;
  company: string;
  /** What the marketing site put in the checkout's metadata: it decides nothing. */
  planCode: string;
  email: string;
  name: string;
  /** The provider's customer (default `cus_e2e`). */
  customerId?: string;
  /** The reference landing issued (`/api/onboarding/start`), as `client_reference_id`. */
  reference?: string;
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
        customer: c.customerId ?? 'cus_e2e',
        subscription: c.subscriptionId,
        client_reference_id: c.reference ?? null,
        customer_details: { email: c.email, name: c.name },
        metadata: { tenant_slug: c.slug, company_name: c.company, plan_code: c.planCode },
      },
    },
  };
}

/** `customer.subscription.created|updated|deleted` (`created` overrides the event's time). */
export function subscriptionUpdated(input: {
  eventId: string;
  subscriptionId: string;
  /** Metadata the event carries (a tenant, a plan): it decides nothing. */
  slug: string;
  planCode: string;
  status: string;
  /** The price bought (default: the one of `planCode`): it names the plan. */
  price?: string;
  customerId?: string;
  type?: 'created' | 'updated' | 'deleted';
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
    type: `customer.subscription.${input.type ?? 'updated'}`,
    data: {
      object: {
        id: input.subscriptionId,
        object: 'subscription',
        status: input.status,
        customer: input.customerId ?? 'cus_e2e',
        metadata: { tenant_slug: input.slug, plan_code: input.planCode },
        items: {
          object: 'list',
          data: [
            {
              id: 'si_e2e',
              current_period_end: periodEnd,
              price: { id: input.price ?? priceOf(input.planCode), lookup_key: null },
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

/** `POST /api/onboarding/start`: the claim reference landing issues before the checkout. */
export async function startOnboarding(landingUrl: string, planCode: string, email?: string) {
  const response = await fetch(`${landingUrl}/api/onboarding/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ plan_code: planCode, ...(email ? { email } : {}) }),
  });
  if (response.status !== 201) throw new Error(`onboarding start answered ${response.status}`);
  return ((await response.json()) as { reference: string }).reference;
}

/**
 * A whole first purchase as a buyer makes it: landing issues the reference, the checkout
 * carries it, Stripe reports the checkout and the subscription (whose price names the plan:
 * `price`, default the one of `checkout.planCode`).
 */
export async function stripePurchase(
  landingUrl: string,
  secret: string,
  checkout: Omit<Checkout, 'reference'>,
  price = priceOf(checkout.planCode),
) {
  const reference = await startOnboarding(landingUrl, checkout.planCode, checkout.email);
  const sent = await sendStripeEvent(
    landingUrl,
    secret,
    checkoutCompleted({ ...checkout, reference }),
  );
  const subscription = await sendStripeEvent(
    landingUrl,
    secret,
    subscriptionUpdated({
      eventId: `${checkout.eventId}_subscription_created`,
      subscriptionId: checkout.subscriptionId,
      customerId: checkout.customerId,
      slug: checkout.slug,
      planCode: checkout.planCode,
      status: 'active',
      price,
      type: 'created',
    }),
  );
  return { reference, checkout: sent, subscription };
}
