import { CONVERT, isGoods, resourceNamed } from '../goods';
import type { SeedContext, SeededRecord, SeedOverrides } from './context';
import {
  binsOf,
  byId,
  carriers,
  cycle,
  familyProducts,
  groupCode,
  inUse,
  type Line,
  lotOf,
  orderQuantity,
  recordsOf,
  stockingWarehouse,
  stockLine,
  stockRoot,
  suppliersFor,
} from './supply-chain';

/**
 * The demo's purchasing: supplier groups and suppliers that sell what the product list holds,
 * and the procure-to-stock chain in order — request, request for quotation, the suppliers'
 * quotations, the purchase order made from the accepted one (or from a blanket order, or from
 * the supplier's price list), its goods receipt, returns and landed costs — each document
 * carrying its predecessor's supplier, lines and later dates.
 */

/** Supplier groups; `parent` is an earlier index. Slots 3, 7 and 11 are the archived ones. */
const SUPPLIER_GROUPS = [
  { code: 'ALL', name: 'All supplier groups' },
  { code: 'RAW', name: 'Raw materials', parent: 0 },
  { code: 'PACK', name: 'Packaging', parent: 0 },
  { code: 'PRINT', name: 'Printing (outsourced)', parent: 0 },
  { code: 'LOG', name: 'Logistics and transport', parent: 0 },
  { code: 'FURN', name: 'Furniture and fittings', parent: 0 },
  { code: 'IT', name: 'IT hardware', parent: 0 },
  { code: 'TELCO', name: 'Telecoms (former contracts)', parent: 0 },
  { code: 'METAL', name: 'Metals', parent: 1 },
  { code: 'CHEM', name: 'Chemicals and adhesives', parent: 1 },
  { code: 'OFFICE', name: 'Office supplies', parent: 0 },
  { code: 'FUEL', name: 'Fuel cards', parent: 0 },
] as const;

/** Suppliers: French ones get a generated company name and address, foreign ones these. */
const SUPPLIERS: {
  group: string;
  country: string;
  name?: string;
  street?: string;
  zip?: string;
  city?: string;
}[] = [
  { group: 'OFFICE', country: 'FR' },
  { group: 'IT', country: 'FR' },
  {
    group: 'METAL',
    country: 'DE',
    name: 'Stahlhandel Köhler GmbH',
    street: 'Heilbronner Straße 150',
    zip: '70191',
    city: 'Stuttgart',
  },
  {
    group: 'OFFICE',
    country: 'IT',
    name: 'Cartiera Lombarda S.p.A.',
    street: 'Via Giovanni Battista Pirelli 18',
    zip: '20124',
    city: 'Milano',
  },
  { group: 'LOG', country: 'FR' },
  {
    group: 'LOG',
    country: 'BE',
    name: 'Transports Meuse & Sambre SA',
    street: 'Quai de Coronmeuse 42',
    zip: '4000',
    city: 'Liège',
  },
  {
    group: 'CHEM',
    country: 'ES',
    name: 'Adhesivos del Ebro S.L.',
    street: 'Calle de Miguel Servet 87',
    zip: '50013',
    city: 'Zaragoza',
  },
  { group: 'FURN', country: 'FR' },
  {
    group: 'IT',
    country: 'NL',
    name: 'Van Dijk Elektronica B.V.',
    street: 'Kanaaldijk-Noord 61',
    zip: '5642 JA',
    city: 'Eindhoven',
  },
  {
    group: 'FURN',
    country: 'CH',
    name: 'Präzisionsmöbel Basel AG',
    street: 'Güterstrasse 120',
    zip: '4053',
    city: 'Basel',
  },
  { group: 'PACK', country: 'FR' },
  {
    group: 'PACK',
    country: 'GB',
    name: 'Midlands Packaging Ltd',
    street: '14 Great Charles Street',
    zip: 'B3 3JY',
    city: 'Birmingham',
  },
];

/** Scorecard criteria (ERPNext's standard ones); slots 3, 7 and 11 are archived. */
const CRITERIA = [
  ['OTD', 'Deliveries on time', 'Share of order lines delivered by the promised date.', '40'],
  ['QUAL', 'Quality: accepted quantity', 'Received quantity less rejected, over received.', '30'],
  ['PRICE', 'Price competitiveness', 'Our price against the best quotation received.', '20'],
  [
    'FAXCONF',
    'Order confirmations by fax',
    'Retired: confirmations now arrive by e-mail or EDI.',
    '0',
  ],
  ['RESP', 'Responsiveness', 'Days to answer requests for quotation and claims.', '10'],
  ['DOCS', 'Documents accurate', 'Delivery notes and invoices matching the order.', '10'],
  [
    'CSR',
    'Environmental and social responsibility',
    'Certifications (ISO 14001, EcoVadis) and audits.',
    '10',
  ],
  ['CATALOG', 'Paper catalogue sent', 'Retired.', '0'],
  ['LEAD', 'Lead time kept', 'Quoted lead time against the actual one.', '20'],
  ['CLAIMS', 'Claims handled', 'Claims settled within 30 days.', '10'],
  ['INVOICE', 'Invoices right first time', 'Supplier invoices matched without a dispute.', '10'],
  [
    'ISO9001',
    'ISO 9001 certificate on file',
    'Retired: now checked when the supplier is created.',
    '0',
  ],
] as const;

/** The Incoterm a supplier's documents use: delivered (DAP) in France, FCA from abroad. */
function incotermFor(ctx: SeedContext, supplier: SeededRecord): unknown {
  const code = supplier.country_code === 'FR' ? 'DAP' : 'FCA';
  return inUse(recordsOf(ctx, 'incoterm')).find((i) => i.code === code)?.id ?? null;
}

/** A supplier's payment term and its days, as the supplier's documents carry them. */
function paymentTermsOf(ctx: SeedContext, supplier: SeededRecord) {
  const term = byId(ctx, 'payment_term', supplier.payment_term_id);
  return {
    payment_term_id: term?.id ?? null,
    payment_terms_days: term?.net_days ?? supplier.payment_terms_days ?? 30,
  };
}

/** A priced line for a product, at a price and the product's tax rate. */
function pricedLine(product: SeededRecord, quantity: string, unitPriceCents: number): Line {
  return {
    ...stockLine(product, quantity),
    unit_price_cents: Math.round(unitPriceCents),
    tax_rate: String(product.tax_rate ?? '20'),
  };
}

/** Share of an order each successive delivery brings (60 %, then the rest). */
const DELIVERED_BY = [0, 0.6, 1];

const ORDER_NOTES = [
  'Deliver to goods-in, dock 2, Monday to Friday 7:00–15:00.',
  'Please quote our order number on the delivery note and the invoice.',
  null,
  'Pallets must not exceed 1.5 m in height.',
];

/** Criteria a scorecard weighs (40, 30, 20, 10): carriers are judged on service, vendors on goods. */
const SCORECARD_CRITERIA = {
  carrier: ['OTD', 'DOCS', 'CLAIMS', 'INVOICE'],
  price: ['OTD', 'QUAL', 'PRICE', 'RESP'],
  lead: ['OTD', 'QUAL', 'LEAD', 'CSR'],
};
const WEIGHTS = [['100'], ['60', '40'], ['50', '30', '20'], ['40', '30', '20', '10']];

export const purchasingSeed: SeedOverrides = {
  supplier_group(ctx) {
    const group = SUPPLIER_GROUPS[ctx.n % SUPPLIER_GROUPS.length]!;
    const parent = 'parent' in group ? recordsOf(ctx, 'supplier_group')[group.parent] : undefined;
    const payable = inUse(recordsOf(ctx, 'account')).find((a) => a.sub_type === 'payable');
    return {
      code: group.code,
      name: group.name,
      parent_id: parent?.id ?? null,
      payable_account_id: payable?.id ?? null,
      description: null,
    };
  },
  supplier(ctx) {
    const spec = SUPPLIERS[ctx.n % SUPPLIERS.length]!;
    const groups = recordsOf(ctx, 'supplier_group');
    const group = groups.find((g) => g.code === spec.group) ?? cycle(inUse(groups).slice(1), ctx.n);
    const term = cycle(inUse(recordsOf(ctx, 'payment_term')), ctx.n);
    const iban = (() => {
      try {
        return ctx.faker.finance.iban({ formatted: false, countryCode: spec.country });
      } catch {
        return null; // a country faker has no IBAN format for
      }
    })();
    // French suppliers keep the generated company name, address, SIREN and phone.
    const foreign = spec.name
      ? {
          name: spec.name,
          street: spec.street,
          postal_code: spec.zip,
          city: spec.city,
          phone: null,
          registration_number: null,
          vat_number: `${spec.country === 'CH' ? 'CHE' : spec.country}${ctx.faker.string.numeric(9)}`,
        }
      : { registration_number: ctx.faker.string.numeric(9) };
    return {
      supplier_type: 'company',
      country_code: spec.country,
      street2: null,
      state: null,
      ...foreign,
      supplier_group: group?.name ?? null,
      supplier_group_id: group?.id ?? null,
      currency: 'EUR',
      payment_term_id: term?.id ?? null,
      payment_terms_days: term?.net_days ?? 30,
      payable_account_id: null,
      iban,
      is_on_hold: ctx.n % SUPPLIERS.length === 9,
      lead_time_days: String(spec.country === 'FR' ? 3 + (ctx.n % 5) : 7 + (ctx.n % 10)),
      notes:
        ctx.n % SUPPLIERS.length === 9
          ? 'On hold: two deliveries refused for damage in 2026.'
          : null,
    };
  },
  supplier_price(ctx) {
    const products = recordsOf(ctx, 'product').filter((p) => p.product_type !== 'service');
    const product = cycle(products, ctx.n) ?? ctx.pick('product');
    const supplier =
      cycle(suppliersFor(ctx, product), Math.floor(ctx.n / Math.max(1, products.length))) ??
      ctx.pick('supplier');
    // The seed archives slots 3, 7 and 11: last year's prices.
    const lastYear = ctx.n % 4 === 3;
    const minQuantity = ['1', '10', '50'][ctx.n % 3]!;
    return {
      supplier_id: supplier.id,
      product_id: product.id,
      variant_id: null,
      supplier_product_code: `${String(supplier.name).slice(0, 3).toUpperCase()}-${ctx.faker.string.numeric(5)}`,
      supplier_product_name: product.name,
      min_quantity:
        product.unit_of_measure === 'Unit' ? minQuantity : String(100 * Number(minQuantity)),
      unit_price_cents: Math.round(
        Number(product.cost_price_cents) * (lastYear ? 0.94 : 1 - (ctx.n % 3) * 0.03),
      ),
      currency: 'EUR',
      unit_of_measure_id: product.unit_of_measure_id ?? null,
      lead_time_days: Number(supplier.lead_time_days ?? 7),
      valid_from: lastYear ? '2025-01-01' : '2026-01-01',
      valid_until: lastYear ? '2025-12-31' : '2026-12-31',
      priority: 1 + (ctx.n % 3),
    };
  },
  purchase_request(ctx) {
    // Each request asks for goods of one family, so one supplier can quote for all of it.
    const requestDate = ctx.daysAfter('2026-01-05', ctx.n * 5);
    const requiredBy = ctx.daysAfter(requestDate, 21);
    const lines = familyProducts(ctx, ctx.n, 1 + (ctx.n % 3)).map((product, i) => ({
      ...stockLine(product, orderQuantity(product, ctx.n + i)),
      required_by: requiredBy,
      estimated_unit_cost_cents: product.cost_price_cents ?? null,
    }));
    return {
      request_type: ctx.n % 6 === 5 ? 'transfer' : 'purchase',
      request_date: requestDate,
      required_by: requiredBy,
      warehouse_id: stockingWarehouse(ctx, ctx.n).id,
      project_id: ctx.n % 4 === 0 ? ctx.pick('project').id : null,
      priority: (['normal', 'normal', 'high', 'low', 'urgent'] as const)[ctx.n % 5],
      justification: [
        'Stock below the reorder level.',
        'Furnishing the new offices in March.',
        'A customer order needs more than we hold.',
        'Seasonal peak.',
      ][ctx.n % 4],
      lines,
      notes: null,
    };
  },
  request_for_quotation(ctx) {
    // One request for quotation per approved request, then buyers' own ones for other goods.
    const approved = recordsOf(ctx, 'purchase_request').filter(
      (r) => r.status === 'approuve' || r.status === 'ferme',
    );
    const request = approved[ctx.n];
    const rfqDate = request
      ? ctx.daysAfter(String(request.request_date), 2)
      : ctx.daysAfter('2026-01-08', ctx.n * 6);
    const lines: Line[] = request
      ? (request.lines as Line[]).map((line) => ({
          product_id: line.product_id,
          description: line.description,
          quantity: line.quantity,
          unit_of_measure: line.unit_of_measure,
          required_by: line.required_by ?? null,
        }))
      : familyProducts(ctx, ctx.n + 1, 1 + (ctx.n % 2)).map((product, i) => ({
          ...stockLine(product, orderQuantity(product, ctx.n + i)),
          required_by: ctx.daysAfter(rfqDate, 30),
        }));
    const asked = suppliersFor(ctx, byId(ctx, 'product', lines[0]?.product_id)).slice(0, 3);
    const contacts = recordsOf(ctx, 'contact');
    return {
      purchase_request_id: request?.id ?? null,
      rfq_date: rfqDate,
      response_due_date: ctx.daysAfter(rfqDate, 9),
      warehouse_id: request?.warehouse_id ?? stockingWarehouse(ctx, ctx.n).id,
      suppliers: asked.map((s) => ({
        supplier_id: s.id,
        contact_id: contacts.find((c) => c.supplier_id === s.id)?.id ?? null,
        email: s.email ?? null,
      })),
      lines,
      message_for_supplier:
        'Please quote your best price, lead time and minimum order quantity for the items below.',
      notes: null,
    };
  },
  supplier_quotation(ctx) {
    // Each supplier's answer to each request for quotation sent: first answers first.
    const sent = recordsOf(ctx, 'request_for_quotation').filter(
      (r) => r.status === 'envoye' || r.status === 'ferme',
    );
    const answers = [0, 1, 2].flatMap((round) =>
      sent.flatMap((r) => {
        const asked = (r.suppliers as Line[])[round];
        return asked ? [{ rfq: r, supplierId: asked.supplier_id }] : [];
      }),
    );
    const answer = cycle(answers, ctx.n);
    const rfq = answer?.rfq ?? ctx.pick('request_for_quotation');
    const rfqLines = rfq.lines as Line[];
    const supplier =
      byId(ctx, 'supplier', answer?.supplierId) ??
      cycle(suppliersFor(ctx, byId(ctx, 'product', rfqLines[0]?.product_id)), ctx.n) ??
      ctx.pick('supplier');
    const quoted = ctx.daysAfter(String(rfq.rfq_date), 3 + (ctx.n % 3));
    const lines = rfqLines.map((line, i) => {
      const product = byId(ctx, 'product', line.product_id) ?? ctx.pick('product');
      return {
        ...pricedLine(
          product,
          String(line.quantity),
          Number(product.cost_price_cents) * (0.95 + ((ctx.n + i) % 4) * 0.03),
        ),
        lead_time_days: Number(supplier.lead_time_days ?? 7) + (ctx.n % 3) * 2,
      };
    });
    return {
      supplier_id: supplier.id,
      request_for_quotation_id: answer ? rfq.id : null,
      quotation_date: quoted,
      valid_until: ctx.daysAfter(quoted, 30),
      supplier_reference: `DEV-${quoted.slice(2, 4)}-${ctx.faker.string.numeric(4)}`,
      currency: 'EUR',
      payment_term_id: supplier.payment_term_id ?? null,
      incoterm_id: incotermFor(ctx, supplier),
      lines,
      notes: null,
    };
  },
  purchase_agreement(ctx) {
    const tender = ctx.n % 5 === 4;
    const products = familyProducts(ctx, ctx.n, 1 + (ctx.n % 2));
    const supplier = cycle(suppliersFor(ctx, products[0]), ctx.n) ?? ctx.pick('supplier');
    const start = ctx.n % 2 === 0 ? '2026-01-01' : '2026-03-01';
    return {
      agreement_type: tender ? 'call_for_tenders' : 'blanket_order',
      supplier_id: tender ? null : supplier.id,
      start_date: start,
      end_date: ctx.daysAfter(ctx.daysAfter(start, 365), -1),
      supplier_reference: tender ? null : `CTR-2026-${String(10 + ctx.n).padStart(3, '0')}`,
      currency: 'EUR',
      payment_term_id: tender ? null : (supplier.payment_term_id ?? null),
      incoterm_id: tender ? null : incotermFor(ctx, supplier),
      lines: products.map((p) =>
        pricedLine(
          p,
          String(Number(orderQuantity(p, ctx.n)) * 20),
          Number(p.cost_price_cents) * 0.92,
        ),
      ),
      notes: null,
    };
  },
  purchase_order(ctx) {
    return purchaseOrder(ctx);
  },
  goods_receipt(ctx) {
    // Orders sent to suppliers arrive in two deliveries: 60 %, then the rest, each made from
    // its order (SPEC §18: it counts on the order's lines; the second, validated, makes the
    // order `recu`): the next order with something left to receive.
    // (Cancelled ones included: what they took is not received again.)
    const receipts = recordsOf(ctx, 'goods_receipt');
    const sent = recordsOf(ctx, 'purchase_order').filter((o) => o.status === 'envoye');
    const earlier = (o: SeededRecord) => receipts.filter((r) => r.purchase_order_id === o.id);
    const open = sent.filter((o) => earlier(o).length < 2);
    const order = cycle(open, ctx.n) ?? cycle(sent, ctx.n) ?? ctx.pick('purchase_order');
    const delivery = Math.min(earlier(order).length, 1);
    const warehouseId = order.warehouse_id ?? stockingWarehouse(ctx, ctx.n).id;
    const lines = (order.lines as Line[]).flatMap((line, i) => {
      const ordered = Number(line.quantity);
      const quantity =
        Math.round(ordered * DELIVERED_BY[delivery + 1]!) -
        Math.round(ordered * DELIVERED_BY[delivery]!);
      if (!line.product_id || quantity <= 0) return [];
      const product = byId(ctx, 'product', line.product_id);
      const lot =
        product?.tracking === 'lot'
          ? lotOf(ctx, line.product_id, ctx.n, order.supplier_id)
          : undefined;
      return [
        {
          line_id: line.id,
          product_id: line.product_id,
          description: line.description,
          quantity: String(quantity),
          unit_of_measure: line.unit_of_measure,
          rejected_quantity: i === 0 && ctx.n % 5 === 2 ? '1' : '0',
          lot_number: lot?.lot_number ?? null,
          lot_id: lot?.id ?? null,
        },
      ];
    });
    // What earlier receipts of the seed took from each order line (drafts count too: the walk
    // may validate them), so none asks more than remains.
    const receivedOf = (lineId: unknown) =>
      receipts
        .flatMap((r) => r.lines as Line[])
        .filter((l) => l.source_line_id === lineId)
        .reduce((sum, l) => sum + Number(l.quantity), 0);
    const orderedOf = (lineId: unknown) =>
      Number((order.lines as Line[]).find((l) => l.id === lineId)?.quantity ?? 0);
    const goods = lines
      .filter((l) => isGoods(ctx, l.product_id))
      .map((l) => ({
        ...l,
        quantity: String(
          Math.min(Number(l.quantity), orderedOf(l.line_id) - receivedOf(l.line_id)),
        ),
      }))
      .filter((l) => Number(l.quantity) > 0);
    const expected = String(order.expected_date ?? ctx.daysAfter(String(order.order_date), 10));
    return {
      ...(goods.length && order.status === 'envoye'
        ? {
            [CONVERT]: {
              source: resourceNamed('purchase_order'),
              id: order.id,
              conversion: 'make_goods_receipt',
              lines: goods.map((l) => ({ line_id: String(l.line_id), quantity: l.quantity })),
            },
          }
        : {}),
      purchase_order_id: order.id,
      supplier_id: order.supplier_id,
      warehouse_id: warehouseId,
      location_id: stockRoot(ctx, warehouseId)?.id ?? null,
      received_on: ctx.daysAfter(expected, delivery * 7),
      supplier_delivery_note: `BL${ctx.faker.string.numeric(7)}`,
      lines: lines.length
        ? lines.map(({ line_id: _, ...line }) => line)
        : (order.lines as Line[]).slice(0, 1).map((l) => ({
            product_id: l.product_id,
            description: l.description,
            quantity: '1',
            unit_of_measure: l.unit_of_measure,
            rejected_quantity: '0',
          })),
      notes: delivery > 0 ? 'Backorder of an earlier delivery.' : null,
    };
  },
  purchase_return(ctx) {
    // Goods of a validated receipt sent back, a different line for each return of it.
    const received = recordsOf(ctx, 'goods_receipt').filter((r) => r.status === 'valide');
    const receipt = cycle(received, ctx.n) ?? ctx.pick('goods_receipt');
    const round = Math.floor(ctx.n / Math.max(1, received.length));
    const order = byId(ctx, 'purchase_order', receipt.purchase_order_id);
    const receiptLines = receipt.lines as Line[];
    const line = receiptLines[round % receiptLines.length]!;
    const ordered = (order?.lines as Line[] | undefined)?.find(
      (l) => l.product_id === line.product_id,
    );
    const reason = (['damaged', 'defective', 'wrong_item', 'excess_quantity'] as const)[ctx.n % 4];
    return {
      supplier_id: receipt.supplier_id,
      purchase_order_id: receipt.purchase_order_id,
      goods_receipt_id: receipt.id,
      warehouse_id: receipt.warehouse_id,
      location_id: cycle(binsOf(ctx, receipt.warehouse_id), ctx.n)?.id ?? null,
      return_date: ctx.daysAfter(String(receipt.received_on), 3 + (ctx.n % 4)),
      reason,
      rma_number: `RMA-${ctx.faker.string.numeric(6)}`,
      currency: 'EUR',
      lines: [
        {
          product_id: line.product_id,
          description: line.description,
          quantity: String(Math.min(Number(line.quantity), 1 + (ctx.n % 3))),
          unit_of_measure: line.unit_of_measure,
          unit_price_cents: ordered?.unit_price_cents ?? 0,
          tax_rate: ordered?.tax_rate ?? '20',
          lot_id: line.lot_id ?? null,
        },
      ],
      notes: null,
    };
  },
  landed_cost(ctx) {
    // For each validated receipt: its freight (and duties from outside the EU), later its
    // insurance and handling.
    const received = recordsOf(ctx, 'goods_receipt').filter((r) => r.status === 'valide');
    const receipt = cycle(received, ctx.n) ?? ctx.pick('goods_receipt');
    const round = Math.floor(ctx.n / Math.max(1, received.length));
    const order = byId(ctx, 'purchase_order', receipt.purchase_order_id);
    const value = (receipt.lines as Line[]).reduce((sum, line) => {
      const price = (order?.lines as Line[] | undefined)?.find(
        (l) => l.product_id === line.product_id,
      )?.unit_price_cents;
      return sum + Number(line.quantity) * Number(price ?? 0);
    }, 0);
    const supplier = byId(ctx, 'supplier', receipt.supplier_id);
    const outsideEu = ['CH', 'GB'].includes(String(supplier?.country_code));
    const carrier = cycle(carriers(ctx), ctx.n);
    const expense = cycle(
      inUse(recordsOf(ctx, 'account')).filter((a) => a.account_type === 'expense' && !a.is_group),
      ctx.n,
    );
    const charge = (type: string, description: string, amount: number, supplierId?: unknown) => ({
      charge_type: type,
      description,
      supplier_id: supplierId ?? null,
      account_id: expense?.id ?? null,
      amount_cents: Math.max(1_500, Math.round(amount)),
    });
    const charges =
      round % 2 === 0
        ? [
            charge(
              'freight',
              `Road freight to ${receipt.number}`,
              9_500 + value * 0.02,
              carrier?.id,
            ),
            ...(outsideEu
              ? [charge('customs_duty', 'Import duties and clearance', value * 0.04)]
              : []),
          ]
        : [
            charge('insurance', 'Transport insurance (0.3 % of value)', value * 0.003),
            charge('handling', 'Unloading and put-away', 4_500, carrier?.id),
          ];
    return {
      cost_date: ctx.daysAfter(String(receipt.received_on), 3 + round * 5),
      distribution_method: round % 2 === 0 ? 'by_value' : 'by_weight',
      currency: 'EUR',
      supplier_invoice_id:
        recordsOf(ctx, 'supplier_invoice').find((i) => carrier && i.supplier_id === carrier.id)
          ?.id ?? null,
      receipts: [{ goods_receipt_id: receipt.id }],
      charges,
      notes: null,
    };
  },
  scorecard_criterion(ctx) {
    const [code, name, description, weight] = CRITERIA[ctx.n % CRITERIA.length]!;
    return { code, name, description, max_score: '100', default_weight: weight };
  },
  supplier_scorecard(ctx) {
    const supplier = cycle(recordsOf(ctx, 'supplier'), ctx.n) ?? ctx.pick('supplier');
    const set =
      groupCode(ctx, supplier) === 'LOG'
        ? SCORECARD_CRITERIA.carrier
        : ctx.n % 2
          ? SCORECARD_CRITERIA.lead
          : SCORECARD_CRITERIA.price;
    const criteria = set.flatMap((code) => {
      const found = inUse(recordsOf(ctx, 'scorecard_criterion')).find((c) => c.code === code);
      return found ? [found] : [];
    });
    const used = criteria.length ? criteria : [ctx.pick('scorecard_criterion')];
    const weights = WEIGHTS[used.length - 1]!;
    return {
      supplier_id: supplier.id,
      evaluation_period: ctx.n % 4 === 2 ? 'half_yearly' : 'quarterly',
      criteria: used.map((c, i) => ({ criterion_id: c.id, weight: weights[i] })),
      warn_below_score: '70',
      block_below_score: '50',
      blocks_orders: ctx.n % 3 === 0,
    };
  },
  supplier_evaluation(ctx) {
    // Three consecutive quarters of each scorecard in use.
    const scorecards = inUse(recordsOf(ctx, 'supplier_scorecard'));
    const scorecard = cycle(scorecards, Math.floor(ctx.n / 3)) ?? ctx.pick('supplier_scorecard');
    const quarter = (
      [
        ['2025-07-01', '2025-09-30'],
        ['2025-10-01', '2025-12-31'],
        ['2026-01-01', '2026-03-31'],
      ] as const
    )[ctx.n % 3]!;
    const scores = (scorecard.criteria as Line[]).map((c) => ({
      criterion_id: c.criterion_id,
      weight: c.weight,
      score: String(55 + ctx.faker.number.int({ min: 0, max: 45 })),
      comment: null,
    }));
    const weight = scores.reduce((sum, s) => sum + Number(s.weight), 0);
    const total =
      scores.reduce((sum, s) => sum + Number(s.weight) * Number(s.score), 0) / Math.max(1, weight);
    const standing =
      total >= 90
        ? 'excellent'
        : total >= 75
          ? 'good'
          : total >= 60
            ? 'average'
            : total >= 45
              ? 'poor'
              : 'very_poor';
    return {
      supplier_scorecard_id: scorecard.id,
      supplier_id: scorecard.supplier_id,
      start_date: quarter[0],
      end_date: quarter[1],
      scores,
      total_score: total.toFixed(1),
      standing,
      notes: null,
    };
  },
};

/**
 * Purchase orders from three sources in turn: the accepted supplier quotation (odd n), a
 * call-off of an active blanket order (n % 4 = 0) and the supplier's price list (n % 4 = 2).
 */
function purchaseOrder(ctx: SeedContext): Record<string, unknown> {
  const common = (supplier: SeededRecord, orderDate: string, leadDays: number) => ({
    supplier_id: supplier.id,
    order_date: orderDate,
    expected_date: ctx.daysAfter(orderDate, leadDays),
    warehouse_id: stockingWarehouse(ctx, ctx.n).id,
    currency: 'EUR',
    ...paymentTermsOf(ctx, supplier),
    incoterm_id: incotermFor(ctx, supplier),
    notes: cycle(ORDER_NOTES, ctx.n) ?? null,
  });
  const supplierOf = (id: unknown) => byId(ctx, 'supplier', id) ?? ctx.pick('supplier');

  const accepted = recordsOf(ctx, 'supplier_quotation').filter((q) => q.status === 'accepte');
  const quotation = ctx.n % 2 === 1 ? cycle(accepted, Math.floor(ctx.n / 2)) : undefined;
  if (quotation) {
    const rfq = byId(ctx, 'request_for_quotation', quotation.request_for_quotation_id);
    const lines = quotation.lines as Line[];
    const lead = Math.max(...lines.map((l) => Number(l.lead_time_days ?? 7)));
    return {
      ...common(
        supplierOf(quotation.supplier_id),
        ctx.daysAfter(String(quotation.quotation_date), 2),
        lead,
      ),
      supplier_quotation_id: quotation.id,
      purchase_request_id: rfq?.purchase_request_id ?? null,
      purchase_agreement_id: null,
      supplier_reference: quotation.supplier_reference ?? null,
      warehouse_id: rfq?.warehouse_id ?? stockingWarehouse(ctx, ctx.n).id,
      lines: lines.map(({ lead_time_days: _lead, ...line }) => line),
    };
  }

  const blankets = recordsOf(ctx, 'purchase_agreement').filter(
    (a) => a.status === 'actif' && a.agreement_type === 'blanket_order' && a.supplier_id,
  );
  const agreement = ctx.n % 4 === 0 ? cycle(blankets, ctx.n / 4) : undefined;
  if (agreement) {
    // A call-off: a tenth of the committed quantities, at the agreed prices.
    return {
      ...common(
        supplierOf(agreement.supplier_id),
        ctx.daysAfter(String(agreement.start_date), 20 + ctx.n * 3),
        7,
      ),
      supplier_quotation_id: null,
      purchase_request_id: null,
      purchase_agreement_id: agreement.id,
      supplier_reference: agreement.supplier_reference ?? null,
      lines: (agreement.lines as Line[]).map((line) => ({
        ...line,
        quantity: String(Math.max(1, Math.ceil(Number(line.quantity) / 10))),
      })),
    };
  }

  // From the supplier's price list: its current prices, at least their minimum quantity.
  const prices = inUse(recordsOf(ctx, 'supplier_price'));
  const price = cycle(prices, ctx.n);
  const supplier = price ? supplierOf(price.supplier_id) : ctx.pick('supplier');
  const lines = prices
    .filter((p) => p.supplier_id === supplier.id)
    .slice(0, 3)
    .flatMap((p) => {
      const product = byId(ctx, 'product', p.product_id);
      if (!product) return [];
      const quantity = Math.max(Number(p.min_quantity), Number(orderQuantity(product, ctx.n)));
      return [pricedLine(product, String(quantity), Number(p.unit_price_cents))];
    });
  const fallback = ctx.pick('product');
  return {
    ...common(supplier, ctx.daysAfter('2026-01-12', ctx.n * 6), Number(price?.lead_time_days ?? 7)),
    supplier_quotation_id: null,
    purchase_request_id: null,
    purchase_agreement_id: null,
    supplier_reference: null,
    lines: lines.length
      ? lines
      : [pricedLine(fallback, '10', Number(fallback.cost_price_cents ?? 1_000))],
  };
}
