import type { SeedOverrides } from './context';

type Line = Record<string, unknown>;

/** Sales documents that agree with each other: an order follows its quote, a delivery its order. */
export const salesSeed: SeedOverrides = {
  quote(ctx) {
    const quoteDate = ctx.daysAfter('2026-01-05', ctx.n * 6);
    return { quote_date: quoteDate, valid_until: ctx.daysAfter(quoteDate, 30) };
  },
  sales_order(ctx) {
    const quote = ctx.pick('quote');
    const orderDate = ctx.daysAfter(String(quote.quote_date), 3 + (ctx.n % 5));
    return {
      quote_id: quote.id,
      customer_id: quote.customer_id,
      lines: quote.lines,
      order_date: orderDate,
      delivery_date: ctx.daysAfter(orderDate, 10),
    };
  },
  delivery(ctx) {
    const order = ctx.pick('sales_order');
    return {
      sales_order_id: order.id,
      customer_id: order.customer_id,
      scheduled_date: order.delivery_date ?? ctx.daysAfter(String(order.order_date), 10),
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
};
