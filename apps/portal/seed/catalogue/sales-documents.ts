import { CONVERT, isGoods, resourceNamed } from '../goods';
import type { SeedContext, SeededRecord, SeedOverrides } from './context';
import { addressOf, all, byId, endOfMonth, monthsAfter, nth } from './helpers';
import { currencyCode, linesFromList, listFor } from './sales-pricing';
import { stockingWarehouse } from './supply-chain';

type Line = Record<string, unknown>;

/** Delivered to the door in France (DAP); abroad, handed to the customer's carrier (FCA). */
function incotermFor(ctx: SeedContext, customer: SeededRecord): string | null {
  const code = customer.country_code && customer.country_code !== 'FR' ? 'FCA' : 'DAP';
  return all(ctx, 'incoterm').find((i) => i.code === code)?.id ?? null;
}

/**
 * Sales documents that agree with each other: prices come from the customer's price list, an
 * order follows its accepted quote, a delivery its order, a return a delivered note, a
 * commission its salesperson's delivered orders.
 */
export const salesDocumentsSeed: SeedOverrides = {
  blanket_order(ctx) {
    const customer = ctx.pick('customer');
    const list = listFor(ctx, customer, ctx.n);
    const orderDate = ctx.daysAfter('2026-01-08', ctx.n * 9);
    const start = ctx.daysAfter(orderDate, 14);
    const lines = linesFromList(ctx, list, 1 + (ctx.n % 3), (i) => 100 * (1 + ((ctx.n + i) % 5)));
    const active = ctx.status !== 'brouillon' && ctx.status !== 'annule';
    return {
      customer_id: customer.id,
      order_date: orderDate,
      start_date: start,
      end_date: ctx.daysAfter(monthsAfter(start, 12), -1),
      price_list_id: list?.id ?? null,
      payment_term_id: customer.payment_term_id ?? null,
      currency: list ? currencyCode(ctx, list.currency_id) : 'EUR',
      lines: lines.map((line, i) => ({
        ...line,
        called_off_quantity: active ? String(((ctx.n + i) % 4) * 10) : '0',
      })),
    };
  },
  sales_subscription(ctx) {
    const customer = ctx.pick('customer');
    const list = listFor(ctx, customer, ctx.n);
    const period = (['monthly', 'quarterly', 'yearly', 'monthly'] as const)[ctx.n % 4]!;
    const months = { monthly: 1, quarterly: 3, half_yearly: 6, yearly: 12 }[period];
    const start = `2026-${String((ctx.n % 6) + 1).padStart(2, '0')}-01`;
    const renews = ctx.n % 3 !== 2;
    // A terminated subscription ended after its second period; a fixed-term one after a year.
    const ended = ctx.status === 'resilie';
    const end = ended
      ? ctx.daysAfter(monthsAfter(start, 2 * months), -1)
      : renews
        ? null
        : ctx.daysAfter(monthsAfter(start, 12), -1);
    const next = ctx.status === 'brouillon' ? start : monthsAfter(start, months);
    return {
      customer_id: customer.id,
      salesperson_id: customer.salesperson_id ?? null,
      start_date: start,
      end_date: end,
      billing_period: period,
      next_invoice_date: ended || (end && next > end) ? null : next,
      auto_renew: renews && !ended,
      price_list_id: list?.id ?? null,
      payment_term_id: customer.payment_term_id ?? null,
      currency: list ? currencyCode(ctx, list.currency_id) : 'EUR',
      lines: linesFromList(ctx, list, 1 + (ctx.n % 2), (i) => 1 + ((ctx.n + i) % 10)),
    };
  },
  quote(ctx) {
    // An accepted quote answers a won deal; the others answer deals still open.
    const opportunities = all(ctx, 'opportunity');
    const won = opportunities.filter((o) => o.status === 'gagne');
    const open = opportunities.filter((o) => o.status !== 'gagne');
    // The seed accepts every third quote: each gets its own deal.
    const accepted = ctx.status === 'accepte';
    const k = accepted ? Math.floor(ctx.n / 3) : ctx.n - Math.floor(ctx.n / 3);
    const deal = nth(accepted ? won : open, k) ?? nth(opportunities, ctx.n);
    const customer = byId(ctx, 'customer', deal?.customer_id) ?? ctx.pick('customer');
    const list = listFor(ctx, customer, ctx.n);
    const quoteDate = deal
      ? ctx.daysAfter(String(deal.expected_close_date), -20)
      : ctx.daysAfter('2026-01-05', ctx.n * 6);
    const lines = linesFromList(ctx, list, 1 + (ctx.n % 3), (i) => 1 + ((ctx.n + i) % 6));
    return {
      customer_id: customer.id,
      opportunity_id: deal?.id ?? null,
      lead_id: deal?.lead_id ?? customer.lead_id ?? null,
      salesperson_id: customer.salesperson_id ?? null,
      price_list_id: list?.id ?? null,
      incoterm_id: incotermFor(ctx, customer),
      quote_date: quoteDate,
      valid_until: ctx.daysAfter(quoteDate, 30),
      payment_terms_days: customer.payment_terms_days ?? 30,
      ...(list ? { currency: currencyCode(ctx, list.currency_id) } : {}),
      ...(lines.length ? { lines } : {}),
    };
  },
  sales_order(ctx) {
    // The first orders are made from accepted quotes (one each; SPEC §18: confirming one counts
    // on its quote's lines); the others are direct orders priced from the customer's list.
    const accepted = all(ctx, 'quote').filter((q) => q.status === 'accepte');
    const quote = accepted[ctx.n];
    const customer = byId(ctx, 'customer', quote?.customer_id) ?? ctx.pick('customer');
    const orderDate = quote
      ? ctx.daysAfter(String(quote.quote_date), 3 + (ctx.n % 5))
      : ctx.daysAfter('2026-01-12', ctx.n * 7);
    const list = quote
      ? byId(ctx, 'price_list', quote.price_list_id)
      : listFor(ctx, customer, ctx.n);
    const lines = quote
      ? (quote.lines as Line[])
      : linesFromList(ctx, list, 1 + (ctx.n % 3), (i) => 1 + ((ctx.n + i) % 8));
    const blanket = all(ctx, 'blanket_order').find(
      (b) => b.customer_id === customer.id && b.status === 'actif',
    );
    const shipping = ctx.pick('shipping_method');
    return {
      ...(quote
        ? {
            [CONVERT]: {
              source: resourceNamed('quote'),
              id: quote.id,
              conversion: 'make_sales_order',
            },
          }
        : {}),
      quote_id: quote?.id ?? null,
      opportunity_id: quote?.opportunity_id ?? null,
      blanket_order_id: quote ? null : (blanket?.id ?? null),
      customer_id: customer.id,
      salesperson_id: customer.salesperson_id ?? null,
      price_list_id: list?.id ?? null,
      order_date: orderDate,
      delivery_date: ctx.daysAfter(orderDate, 10),
      // Shipped from a stocking warehouse (SPEC §18: its stock is reserved there, leaves there).
      warehouse_id: stockingWarehouse(ctx, ctx.n).id,
      payment_terms_days: quote?.payment_terms_days ?? customer.payment_terms_days ?? 30,
      shipping_method_id: shipping.id,
      incoterm_id: quote?.incoterm_id ?? incotermFor(ctx, customer),
      incoterm_location: customer.city ?? null,
      ...addressOf(customer, ''),
      ...(quote
        ? { currency: quote.currency }
        : list
          ? { currency: currencyCode(ctx, list.currency_id) }
          : {}),
      ...(lines.length ? { lines } : {}),
    };
  },
  delivery(ctx) {
    // Shipped and delivered notes go with confirmed orders, each made from its order (SPEC §18:
    // it counts on the order's lines; the last makes the order `livre`).
    const orders = all(ctx, 'sales_order');
    // One order in four is left to ship (confirmed, its stock reserved).
    const confirmed = orders.filter((o, i) => o.status === 'confirme' && i % 4 !== 1);
    const order = nth(confirmed.length ? confirmed : orders, ctx.n) ?? ctx.pick('sales_order');
    const shippedOf = (lineId: unknown) =>
      all(ctx, 'delivery')
        .filter((d) => d.status === 'expedie' || d.status === 'livre')
        .flatMap((d) => d.lines as Line[])
        .filter((l) => l.source_line_id === lineId)
        .reduce((sum, l) => sum + Number(l.quantity), 0);
    const part = (order.lines as Line[])
      .filter((line) => isGoods(ctx, line.product_id))
      .map((line) => ({
        line_id: String(line.id),
        // Most ship what remains (the order is then delivered); every third, one unit of it.
        quantity: String(
          Math.min(Number(line.quantity) - shippedOf(line.id), ctx.n % 3 === 2 ? 1 : Infinity),
        ),
      }))
      .filter((l) => Number(l.quantity) > 0);
    const method = byId(ctx, 'shipping_method', order.shipping_method_id);
    const shipped = ctx.status === 'expedie' || ctx.status === 'livre';
    return {
      ...(order.status === 'confirme' && part.length
        ? {
            [CONVERT]: {
              source: resourceNamed('sales_order'),
              id: order.id,
              conversion: 'make_delivery',
              lines: part,
            },
          }
        : {}),
      sales_order_id: order.id,
      customer_id: order.customer_id,
      ...(order.warehouse_id ? { warehouse_id: order.warehouse_id } : {}),
      scheduled_date: order.delivery_date ?? ctx.daysAfter(String(order.order_date), 10),
      shipping_method_id: method?.id ?? null,
      carrier: method?.carrier_name ?? null,
      tracking_number: shipped && method?.tracking_url ? ctx.faker.string.numeric(14) : null,
      ...addressOf(order, 'shipping_'),
      lines: (order.lines as Line[])
        .filter((line) => line.product_id)
        .map((line) => ({
          product_id: line.product_id,
          description: line.description,
          quantity: line.quantity,
          unit_of_measure: line.unit_of_measure,
        })),
    };
  },
  sales_commission(ctx) {
    // The orders its salesperson delivered in a month, at the salesperson's rate.
    const people = all(ctx, 'salesperson');
    const orders = all(ctx, 'sales_order').filter(
      (o) => o.status === 'livre' || o.status === 'facture',
    );
    const person =
      nth(
        people.filter((p) => orders.some((o) => o.salesperson_id === p.id)),
        ctx.n,
      ) ?? ctx.pick('salesperson');
    const own = orders.filter((o) => o.salesperson_id === person.id);
    const counted = (own.length ? own : orders.slice(ctx.n % Math.max(orders.length, 1))).slice(
      0,
      3,
    );
    const month = String(counted[0]?.order_date ?? '2026-02-01').slice(0, 7);
    const start = `${month}-01`;
    const rate = String(person.commission_rate ?? '5');
    const lines = counted.map((order) => {
      const base = Number(order.subtotal_cents);
      const invoice = all(ctx, 'invoice').find((i) => i.sales_order_id === order.id);
      return {
        sales_order_id: order.id,
        invoice_id: invoice?.id ?? null,
        base_amount_cents: base,
        commission_rate: rate,
        commission_cents: Math.round((base * Number(rate)) / 100),
      };
    });
    const end = endOfMonth(ctx, start);
    return {
      salesperson_id: person.id,
      start_date: start,
      end_date: end,
      currency: String(counted[0]?.currency ?? 'EUR'),
      base_amount_cents: lines.reduce((sum, l) => sum + l.base_amount_cents, 0),
      commission_cents: lines.reduce((sum, l) => sum + l.commission_cents, 0),
      paid_date: ctx.status === 'paye' ? ctx.daysAfter(end, 10) : null,
      lines,
    };
  },
  sales_return(ctx) {
    // Goods back from a delivered note: part of its lines, at the price they were sold at.
    const deliveries = all(ctx, 'delivery');
    const delivered = deliveries.filter((d) => d.status === 'livre');
    const delivery = nth(delivered.length ? delivered : deliveries, ctx.n)!;
    const order = byId(ctx, 'sales_order', delivery.sales_order_id);
    const reasons = ['damaged_in_transit', 'defective', 'wrong_item', 'no_longer_needed'] as const;
    const reason = reasons[ctx.n % reasons.length]!;
    const condition = {
      damaged_in_transit: 'damaged',
      defective: 'defective',
      wrong_item: 'unopened',
      no_longer_needed: 'unopened',
    }[reason];
    const returnDate = ctx.daysAfter(String(delivery.scheduled_date), 5 + (ctx.n % 10));
    const received = ['recu', 'rembourse', 'termine'].includes(String(ctx.status));
    const resolution =
      ctx.status === 'termine'
        ? reason === 'defective'
          ? 'repair'
          : 'replacement'
        : ctx.n % 2
          ? 'credit_note'
          : 'refund';
    const creditNote =
      ctx.status === 'rembourse' && resolution === 'credit_note'
        ? all(ctx, 'credit_note').find((c) => c.customer_id === delivery.customer_id)
        : undefined;
    const lines = (delivery.lines as Line[]).slice(0, 1 + (ctx.n % 2)).map((line) => {
      const sold = (order?.lines as Line[] | undefined)?.find(
        (l) => l.product_id === line.product_id,
      );
      return {
        product_id: line.product_id,
        description: line.description,
        quantity: String(Math.min(Number(line.quantity), 1 + (ctx.n % 2))),
        unit_of_measure: line.unit_of_measure,
        unit_price_cents: sold?.unit_price_cents ?? null,
        condition,
        restock: condition === 'unopened',
      };
    });
    return {
      customer_id: delivery.customer_id,
      sales_order_id: delivery.sales_order_id,
      delivery_id: delivery.id,
      warehouse_id: delivery.warehouse_id,
      return_date: returnDate,
      received_date: received ? ctx.daysAfter(returnDate, 6) : null,
      reason,
      resolution,
      credit_note_id: creditNote?.id ?? null,
      ...(lines.length ? { lines } : {}),
    };
  },
};
