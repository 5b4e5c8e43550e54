import type { SeedOverrides } from './context';
import { all, monthsAfter, nth } from './helpers';
import {
  CUSTOMER_GROUPS,
  INCOTERMS,
  PROMOTIONS,
  SALES_TEAMS,
  SHIPPING_METHODS,
} from './sales-data';
import { currencyRecord, factorOf, PRICE_LISTS, pricedLists } from './sales-pricing';

/** Sales settings (prices, segments, teams, carriers, promotions) that agree with what they refer to. */
export const salesSettingsSeed: SeedOverrides = {
  price_list(ctx) {
    const spec = PRICE_LISTS[ctx.n % PRICE_LISTS.length]!;
    const year = ctx.status === 'archive' ? 2025 : ctx.status === 'publie' ? 2026 : 2027;
    const sale = spec.code.startsWith('WINTER');
    return {
      code: spec.code,
      name: spec.name,
      currency_id: currencyRecord(ctx, spec.currency)?.id,
      prices_include_tax: spec.code.startsWith('RETAIL'),
      is_default: spec.code === 'RETAIL-EUR',
      valid_from: sale ? '2026-01-07' : `${year}-01-01`,
      valid_until: sale ? '2026-02-03' : `${year}-12-31`,
    };
  },
  price_list_item(ctx) {
    // Published lists first, so quotes and orders find prices; every fourth item is a quantity
    // break on the previous item's product.
    const lists = all(ctx, 'price_list');
    const published = lists.filter((l) => l.status === 'publie');
    const pool = published.length ? published : lists;
    const isBreak = ctx.n % 4 === 3;
    const k = isBreak ? ctx.n - 1 : ctx.n;
    const list = nth(pool, k) ?? ctx.pick('price_list');
    const product = ctx.pick('product', k);
    const base = Number(product.sale_price_cents ?? 4_900 + ((k * 1_370) % 40_000));
    const price = Math.round(base * factorOf(list) * (isBreak ? 0.92 : 1));
    return {
      price_list_id: list.id,
      product_id: product.id,
      currency_id: list.currency_id,
      unit_price_cents: price,
      min_quantity: isBreak ? '10' : '1',
      unit_of_measure_id: null,
      discount_percent: null,
      valid_from: list.valid_from ?? null,
      valid_until: list.valid_until ?? null,
    };
  },
  customer_group(ctx) {
    const [code, name, discount, credit] = CUSTOMER_GROUPS[ctx.n % CUSTOMER_GROUPS.length]!;
    return {
      code,
      name,
      parent_id: null,
      price_list_id: nth(pricedLists(ctx), ctx.n)?.id ?? null,
      payment_term_id: ctx.pick('payment_term').id,
      default_discount_percent: discount,
      credit_limit_cents: credit,
    };
  },
  sales_team(ctx) {
    const [code, name, mailbox] = SALES_TEAMS[ctx.n % SALES_TEAMS.length]!;
    return {
      code: ctx.n < SALES_TEAMS.length ? code : `${code}-${ctx.n}`,
      name:
        ctx.n < SALES_TEAMS.length ? name : `${name} ${Math.floor(ctx.n / SALES_TEAMS.length) + 1}`,
      email: `${mailbox}demo.example`,
      monthly_target_cents: 5_000_000 + (ctx.n % 4) * 2_500_000,
    };
  },
  salesperson(ctx) {
    const employee = ctx.pick('employee');
    const first = String(employee.first_name);
    const last = String(employee.last_name);
    return {
      code: `${first[0]}${last.slice(0, 2)}${ctx.n + 1}`.toUpperCase(),
      name: `${first} ${last}`,
      employee_id: employee.id,
      email: employee.email ?? null,
      phone: employee.phone ?? null,
      commission_rate: String(3 + (ctx.n % 5)),
    };
  },
  sales_target(ctx) {
    const person = ctx.pick('salesperson');
    const quarter = ctx.n % 4;
    const start = `2026-${String(quarter * 3 + 1).padStart(2, '0')}-01`;
    return {
      name: `Q${quarter + 1} 2026 – ${person.name}`,
      salesperson_id: person.id,
      sales_team_id: person.sales_team_id ?? null,
      territory_id: person.territory_id ?? null,
      product_category_id: null,
      target_quantity: null,
      start_date: start,
      end_date: ctx.daysAfter(monthsAfter(start, 3), -1),
      target_amount_cents: 3_000_000 + (ctx.n % 5) * 1_500_000,
      currency: 'EUR',
    };
  },
  shipping_method(ctx) {
    const [code, name, carrier, level, pricing, fixed, days, url] =
      SHIPPING_METHODS[ctx.n % SHIPPING_METHODS.length]!;
    return {
      code,
      name,
      carrier_name: carrier,
      service_level: level,
      pricing_method: pricing,
      fixed_price_cents: fixed,
      price_per_kg_cents: pricing === 'by_weight' ? 45 + (ctx.n % 3) * 10 : null,
      free_over_cents: pricing === 'fixed' ? 50_000 : null,
      max_weight_kg: level === 'freight' ? '1000' : '30',
      transit_days: days,
      tracking_url: url,
    };
  },
  incoterm(ctx) {
    const [code, name, edition, mode, risk] = INCOTERMS[ctx.n % INCOTERMS.length]!;
    return { code, name, edition, transport_mode: mode, risk_transfer: risk };
  },
  promotion(ctx) {
    const spec = PROMOTIONS[ctx.n % PROMOTIONS.length]!;
    return {
      promo_code: null,
      discount_percent: null,
      discount_amount_cents: null,
      free_product_id: null,
      free_quantity: null,
      min_quantity: null,
      min_amount_cents: null,
      product_id: null,
      product_category_id: null,
      customer_group_id: null,
      ...spec,
      ...(spec.applies_to === 'product' ? { product_id: ctx.pick('product').id } : {}),
      ...(spec.applies_to === 'product_category'
        ? { product_category_id: ctx.pick('product_category').id }
        : {}),
      ...(spec.applies_to === 'customer_group'
        ? { customer_group_id: ctx.pick('customer_group').id }
        : {}),
      ...(spec.reward_type === 'free_product' ? { free_product_id: ctx.pick('product').id } : {}),
      max_uses: spec.program_type === 'coupons' ? 500 : null,
      max_uses_per_customer: spec.program_type === 'automatic' ? null : 1,
      is_combinable: spec.reward_type === 'free_shipping',
      priority: 10 * (ctx.n % 5),
    };
  },
  coupon(ctx) {
    const promotions = all(ctx, 'promotion');
    const withCodes = promotions.filter((p) => p.program_type === 'coupons');
    const promotion = nth(withCodes.length ? withCodes : promotions, ctx.n)!;
    const customer = ctx.pick('customer');
    const order = all(ctx, 'sales_order').find((o) => o.customer_id === customer.id);
    const used = ctx.n % 3 === 1 && ctx.status === 'actif' ? 1 : 0;
    return {
      code: `${promotion.promo_code ?? 'BON'}-${ctx.faker.string.alphanumeric({ length: 5, casing: 'upper' })}`,
      promotion_id: promotion.id,
      customer_id: ctx.n % 2 ? customer.id : null,
      sales_order_id: ctx.n % 2 && order ? order.id : null,
      expiry_date: promotion.end_date ?? null,
      max_uses: 1,
      times_used: used,
      last_used_date: used ? promotion.start_date : null,
    };
  },
};
