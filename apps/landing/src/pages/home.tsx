import { MODULES } from '@erp/contract';
import { Layout } from './layout';
import { MODULE_COPY } from './modules';

const INTEGRATION_POINTS = [
  {
    title: 'A documented REST API',
    text: 'Every record of every module under /api/v1, described by OpenAPI 3.1, with filters, sorting and cursor pagination.',
  },
  {
    title: 'Signed webhooks',
    text: 'Business events delivered to your URLs, signed, retried for days, with a delivery log you can replay from.',
  },
  {
    title: 'A typed client',
    text: 'A dependency-free TypeScript SDK with retries, pagination and signature checks built in.',
  },
  {
    title: 'Keys you control',
    text: 'Scoped API keys with expiry and their own rate limits; revoking one takes effect at once.',
  },
] as const;

/** `/`: what the product is, its modules, what integrators get, and the way to pricing and a demo. */
export function HomePage(props: { origin: string }) {
  return (
    <Layout
      title="one ERP for sales, stock, accounting and support"
      description="A multi-tenant ERP with ten modules you buy as you need them, and an API, webhooks and a typed SDK for everything it holds."
      path="/"
      origin={props.origin}
    >
      <div class="hero">
        <div class="wrap hero-grid">
          <div>
            <p class="eyebrow">ERP for growing companies</p>
            <h1>Run sales, stock, accounting and support in one place</h1>
            <p class="lede">
              Ten modules that share one set of customers, products and documents. Start with the
              ones you need, add the others when you grow, and connect the rest of your tools
              through the API.
            </p>
            <div class="actions">
              <a class="button" href="/pricing">
                See pricing
              </a>
              <a class="button secondary" href="/demo">
                Book a demo
              </a>
            </div>
          </div>
          <SampleOrder />
        </div>
      </div>

      <section aria-labelledby="modules-title">
        <div class="wrap">
          <h2 id="modules-title">Ten modules, one set of records</h2>
          <p class="section-intro">
            Modules share their records: the customer your sales team quotes is the one support
            serves and accounting bills, with no export and no double entry.
          </p>
          <ul class="grid">
            {MODULES.map((module) => (
              <li class="card">
                <h3>{MODULE_COPY[module].label}</h3>
                <p>{MODULE_COPY[module].summary}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section class="alt" aria-labelledby="integrations-title">
        <div class="wrap">
          <h2 id="integrations-title">Built to be integrated</h2>
          <p class="section-intro">
            Your developers get the same API the console uses, with nothing held back.
          </p>
          <ul class="points">
            {INTEGRATION_POINTS.map((point) => (
              <li>
                <strong>{point.title}</strong>
                {point.text}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="next-title">
        <div class="wrap narrow cta">
          <h2 id="next-title">See it with your own data</h2>
          <p>A 30-minute demo with someone who knows your trade, or a plan you can start today.</p>
          <div class="actions">
            <a class="button" href="/demo">
              Book a demo
            </a>
            <a class="button secondary" href="/contact">
              Ask a question
            </a>
          </div>
        </div>
      </section>
    </Layout>
  );
}

/** A sales order as the product shows one: decoration beside the headline, hidden from assistive technology. */
function SampleOrder() {
  return (
    <div class="sample" aria-hidden="true">
      <div class="sample-head">
        <b>Sales order SO-2026-0142</b>
        <span>12 March</span>
      </div>
      <p class="sample-meta">Atelier Dupont · Lyon</p>
      <div class="sample-line">
        <span>Oak table, 180 cm × 2</span>
        <span>€1,960.00</span>
      </div>
      <div class="sample-line">
        <span>Chair, walnut × 8</span>
        <span>€1,520.00</span>
      </div>
      <div class="sample-line">
        <span>Delivery, Lyon area</span>
        <span>€90.00</span>
      </div>
      <div class="sample-total">
        <span>Total excl. VAT</span>
        <span>€3,570.00</span>
      </div>
      <ul class="steps">
        <li class="done">Confirmed</li>
        <li class="done">Delivered</li>
        <li>Invoiced</li>
      </ul>
    </div>
  );
}
