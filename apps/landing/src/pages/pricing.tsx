import { Layout } from './layout';
import { MODULE_COPY } from './modules';
import { formatPrice, type Plan } from './plans';

/**
 * `/pricing`: the portal's public plans, cheapest first as the portal orders them. Without
 * them (portal down) the page still answers, says so, and offers the contact form.
 */
export function PricingPage(props: { origin: string; plans: Plan[] | undefined }) {
  return (
    <Layout
      title="Pricing"
      description="Plans by the month or by the year, each with its modules and number of users. Start with the modules you need and upgrade when you grow."
      path="/pricing"
      origin={props.origin}
    >
      <div class="hero compact">
        <div class="wrap">
          <h1>Pricing</h1>
          <p class="lede">
            One price per company, by the month or by the year. Every plan includes the API,
            webhooks and the typed SDK.
          </p>
        </div>
      </div>
      <section aria-label="Plans">
        <div class="wrap">
          {props.plans ? <PlanList plans={props.plans} /> : <PlansUnavailable />}
        </div>
      </section>
    </Layout>
  );
}

function PlanList(props: { plans: Plan[] }) {
  if (props.plans.length === 0) {
    return (
      <div class="notice" role="status">
        <p>
          No plan is on sale at the moment. <a href="/contact">Contact us</a> for a quote.
        </p>
      </div>
    );
  }
  return (
    <ul class="plans">
      {props.plans.map((plan) => (
        <li class="plan">
          <h2 id={`plan-${plan.code}`}>{plan.name}</h2>
          <p class="plan-summary">{plan.description}</p>
          <p class="price">
            {formatPrice(plan.monthly_price_cents, plan.currency)} <span>per month</span>
          </p>
          <p class="yearly">
            or {formatPrice(plan.yearly_price_cents, plan.currency)} per year
            {yearlySaving(plan) > 0 && ` (save ${formatPrice(yearlySaving(plan), plan.currency)})`}
          </p>
          <p class="users">
            {plan.max_users === null ? 'Unlimited users' : `Up to ${plan.max_users} users`}
          </p>
          <p class="includes">
            Includes {plan.modules.length} module{plan.modules.length === 1 ? '' : 's'}
          </p>
          <ul>
            {plan.modules.map((module) => (
              <li>{MODULE_COPY[module].label}</li>
            ))}
          </ul>
          <a class="button" href="/demo" aria-label={`Book a demo of the ${plan.name} plan`}>
            Book a demo
          </a>
        </li>
      ))}
    </ul>
  );
}

/** What paying by the year saves over twelve months. */
function yearlySaving(plan: Plan): number {
  return plan.monthly_price_cents * 12 - plan.yearly_price_cents;
}

function PlansUnavailable() {
  return (
    <div class="notice error" role="status">
      <h2>Our plans cannot be shown right now</h2>
      <p>
        The service that holds them is not answering. Please try again in a few minutes, or{' '}
        <a href="/contact">write to us</a> and we will send you the prices.
      </p>
    </div>
  );
}
