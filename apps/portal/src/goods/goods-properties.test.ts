import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodsTenant } from '../../test/goods-harness';
import { createTestPortal } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let g: Awaited<ReturnType<typeof goodsTenant>>;
let shelf: string;
beforeAll(async () => {
  // Hundreds of requests a run: above a session's default rate limit.
  portal = await createTestPortal({ SESSION_RATE_LIMIT_PER_MINUTE: '100000' });
  g = await goodsTenant(portal);
  // A second internal location of the warehouse: stock moves go between the two.
  shelf = (
    await g.create('stock-locations', {
      code: `~${g.warehouse.code}/SHELF`,
      name: 'Shelf',
      warehouse_id: g.warehouse.id,
      usage: 'internal',
      is_scrap: false,
    })
  ).id;
}, 60_000);
afterAll(() => portal.tdb.close());

type Row = Record<string, unknown> & { id: string };
type Line = { id: string; quantity: string; [key: string]: unknown };
type Product = 'fifo' | 'average' | 'standard';

type Op =
  | { kind: 'receive'; product: Product; quantity: number; price: number; part: number }
  | { kind: 'order'; product: Product; quantity: number }
  | { kind: 'deliver'; order: number; part: number }
  | { kind: 'invoice'; order: number; part: number }
  | { kind: 'cancel_invoice'; which: number }
  | { kind: 'cancel_order'; which: number }
  | { kind: 'move'; product: Product; quantity: number; back: boolean }
  | { kind: 'cancel_move'; which: number }
  | { kind: 'adjust'; product: Product; quantity: number };

const product = fc.constantFrom<Product>('fifo', 'average', 'standard');
const quantity = fc.integer({ min: 1, max: 12 });
/** A share of what remains: above 1 asks for more than remains (refused, exactly). */
const part = fc.double({ min: 0.1, max: 1.3, noNaN: true });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('receive' as const),
    product,
    quantity,
    price: fc.integer({ min: 1, max: 5_000 }),
    part,
  }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('order' as const), product, quantity }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('deliver' as const), order: fc.nat(), part }),
  },
  fc.record({ kind: fc.constant('invoice' as const), order: fc.nat(), part }),
  fc.record({ kind: fc.constant('cancel_invoice' as const), which: fc.nat() }),
  fc.record({ kind: fc.constant('cancel_order' as const), which: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), product, quantity, back: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel_move' as const), which: fc.nat() }),
  fc.record({
    kind: fc.constant('adjust' as const),
    product,
    quantity: fc.integer({ min: -8, max: 8 }).filter((q) => q !== 0),
  }),
);

/** The business refusals a step may meet; anything else (a 5xx above all) fails the property. */
const REFUSALS = new Set(['stock_insuffisant', 'quantite_depassee', 'transition_invalide']);

/** What a step made, for the steps after it to act on. */
interface World {
  products: Record<Product, Row>;
  orders: string[];
  invoices: string[];
  moves: string[];
}

/** `remaining × part`, at least the smallest unit asked (decimal text, 2 places). */
const share = (remaining: number, p: number) => Math.max(0.01, remaining * p).toFixed(2);

async function run(world: World, o: Op): Promise<void> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await g.call(method, path, body);
    if (res.status >= 500 || (res.status >= 400 && !REFUSALS.has(res.body?.code)))
      throw new Error(`${o.kind}: ${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  switch (o.kind) {
    case 'receive': {
      const order = await g.purchaseOrder([
        { product: world.products[o.product], quantity: String(o.quantity), price: o.price },
      ]);
      const line = (order.lines as Line[])[0]!;
      const draft = await call('POST', `purchase-orders/${order.id}/make-goods-receipt`, {
        lines: [{ line_id: line.id, quantity: share(o.quantity, o.part) }],
      });
      if (draft.status === 201) await call('POST', `goods-receipts/${draft.body.id}/validate`);
      return;
    }
    case 'order': {
      const order = await g.salesOrder([
        { product: world.products[o.product], quantity: String(o.quantity) },
      ]);
      world.orders.push(order.id);
      return;
    }
    case 'deliver':
    case 'invoice': {
      const id = pick(world.orders, o.order);
      if (!id) return;
      const order = (await call('GET', `sales-orders/${id}`)).body as Row;
      const line = (order.lines as Line[])[0]!;
      const counted = o.kind === 'deliver' ? 'delivered_quantity' : 'invoiced_quantity';
      const remaining = Number(line.quantity) - Number(line[counted] ?? 0);
      const target = o.kind === 'deliver' ? 'make-delivery' : 'make-invoice';
      const draft = await call('POST', `sales-orders/${id}/${target}`, {
        lines: [{ line_id: line.id, quantity: share(remaining, o.part) }],
      });
      if (draft.status !== 201) return;
      if (o.kind === 'deliver') await call('POST', `deliveries/${draft.body.id}/ship`);
      else if ((await call('POST', `invoices/${draft.body.id}/issue`)).status === 200)
        world.invoices.push(draft.body.id);
      return;
    }
    case 'cancel_invoice': {
      const id = pick(world.invoices, o.which);
      if (id) await call('POST', `invoices/${id}/cancel`);
      return;
    }
    case 'cancel_order': {
      const id = pick(world.orders, o.which);
      if (id) await call('POST', `sales-orders/${id}/cancel`);
      return;
    }
    case 'move': {
      const [from, to] = o.back ? [shelf, g.location.id] : [g.location.id, shelf];
      const move = await g.create('stock-moves', {
        move_type: 'internal',
        product_id: world.products[o.product].id,
        quantity: String(o.quantity),
        from_location_id: from,
        to_location_id: to,
        move_date: '2026-03-10',
      });
      if ((await call('POST', `stock-moves/${move.id}/validate`)).status === 200)
        world.moves.push(move.id);
      return;
    }
    case 'cancel_move': {
      const id = pick(world.moves, o.which);
      if (id) await call('POST', `stock-moves/${id}/cancel`);
      return;
    }
    case 'adjust': {
      const adjustment = await g.create('stock-adjustments', {
        warehouse_id: g.warehouse.id,
        adjustment_date: '2026-03-10',
        reason: o.quantity > 0 ? 'found' : 'damage',
        lines: [{ product_id: world.products[o.product].id, quantity: String(o.quantity) }],
      });
      await call('POST', `stock-adjustments/${adjustment.id}/validate`);
      return;
    }
  }
}

/**
 * What must hold after every step, read from the database: no location below zero; each level
 * the sum of its stock ledger (quantity and value); nothing counted above a line's quantity;
 * the stock accounts equal to the stock's value; reserved what confirmed orders have left.
 */
async function invariants(): Promise<void> {
  const q = async <T>(text: string) =>
    (await portal.tdb.pool.query(text, [g.tenant.id])).rows as T[];
  const [negative] = await q<{ n: number }>(
    'SELECT count(*)::int AS n FROM stock_levels WHERE tenant_id = $1 AND on_hand < 0',
  );
  expect(negative!.n).toBe(0);
  const off = await q(
    `SELECT s.id FROM stock_levels s
       LEFT JOIN (SELECT product_id, location_id, sum(quantity) AS quantity, sum(value_cents) AS value
                    FROM stock_ledger WHERE tenant_id = $1 GROUP BY 1, 2) l USING (product_id, location_id)
      WHERE s.tenant_id = $1 AND (s.on_hand <> coalesce(l.quantity, 0) OR s.value_cents <> coalesce(l.value, 0))`,
  );
  expect(off).toEqual([]);
  const over = await q(
    `SELECT o.id, l FROM (SELECT id, lines FROM sales_orders WHERE tenant_id = $1
                          UNION ALL SELECT id, lines FROM purchase_orders WHERE tenant_id = $1) o,
            jsonb_array_elements(o.lines) l, unnest(ARRAY['delivered_quantity', 'invoiced_quantity',
              'received_quantity', 'billed_quantity']) k
      WHERE coalesce((l->>k)::numeric, 0) > (l->>'quantity')::numeric OR coalesce((l->>k)::numeric, 0) < 0`,
  );
  expect(over).toEqual([]);
  const [money] = await q<{ accounts: string; stock: string }>(
    `SELECT (SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM ledger_lines l
               JOIN accounts a ON a.tenant_id = l.tenant_id AND a.id = l.account_id
              WHERE l.tenant_id = $1 AND a.sub_type = 'stock')::text AS accounts,
            (SELECT coalesce(sum(value_cents), 0) FROM stock_levels WHERE tenant_id = $1)::text AS stock`,
  );
  expect(money!.accounts).toBe(money!.stock);
  const reserved = await q(
    `WITH wanted AS (
       SELECT (l->>'product_id')::uuid AS product_id,
              sum((l->>'quantity')::numeric - coalesce((l->>'delivered_quantity')::numeric, 0)) AS qty
         FROM sales_orders o, jsonb_array_elements(o.lines) l
        WHERE o.tenant_id = $1 AND o.status IN ('confirme', 'livre') GROUP BY 1)
     SELECT s.product_id FROM stock_levels s LEFT JOIN wanted w USING (product_id)
      WHERE s.tenant_id = $1 AND s.location_id = '${g.location.id}' AND s.reserved <> coalesce(w.qty, 0)`,
  );
  expect(reserved).toEqual([]);
}

async function freshWorld(stocked = true): Promise<World> {
  // New products each run, each with some stock received (the steps then take it and add).
  const products = {
    fifo: await g.product('fifo'),
    average: await g.product('moving_average'),
    standard: await g.product('standard', 1_500),
  };
  if (stocked)
    for (const [i, p] of Object.values(products).entries()) await g.receive(p, '15', 900 + i * 150);
  return { products, orders: [], invoices: [], moves: [] };
}

describe('goods properties (SPEC §18)', () => {
  it('random receipts, orders, partial deliveries and invoices, moves, adjustments and cancellations keep every invariant after every step', async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
        const world = await freshWorld();
        for (const o of ops) {
          await run(world, o);
          await invariants();
          steps++;
        }
      }),
      { numRuns: 20 },
    );
    expect(steps).toBeGreaterThan(80);
  }, 300_000);

  it('concurrent shipments of one product and concurrent conversions of one order: exact', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 3, max: 15 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 4, max: 10 }),
        async (stock, each, clients) => {
          const world = await freshWorld(false);
          const product = world.products.fifo;
          await g.receive(product, String(stock), 1_000);
          // One order per client, each shipping `each` at once: the level row's lock decides.
          const orders = [];
          for (let i = 0; i < clients; i++)
            orders.push(await g.salesOrder([{ product, quantity: String(each) }]));
          const shipped = await Promise.all(
            orders.map((o) => g.call('POST', `sales-orders/${o.id}/deliver`)),
          );
          const ok = shipped.filter((r) => r.status === 200).length;
          expect(shipped.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(
            Array(clients - ok).fill('stock_insuffisant'),
          );
          expect(ok).toBe(Math.min(clients, Math.floor(stock / each)));
          expect(await g.level(product.id)).toMatchObject({ on_hand: String(stock - ok * each) });
          // One order, many drafts of a part each, shipped at once: never more than ordered.
          await g.receive(product, String(clients * each), 1_000);
          const big = await g.salesOrder([{ product, quantity: String(clients) }]);
          const line = (big.lines as Line[])[0]!;
          const drafts = [];
          for (let i = 0; i < clients; i++)
            drafts.push(
              await g.ok(
                'POST',
                `sales-orders/${big.id}/make-delivery`,
                {
                  lines: [{ line_id: line.id, quantity: '2' }],
                },
                201,
              ),
            );
          const results = await Promise.all(
            drafts.map((d) => g.call('POST', `deliveries/${d.id}/ship`)),
          );
          const took = results.filter((r) => r.status === 200).length;
          expect(took).toBe(Math.floor(clients / 2));
          expect(results.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(
            Array(clients - took).fill('quantite_depassee'),
          );
          const after = await g.ok('GET', `sales-orders/${big.id}`);
          expect((after.lines as Line[])[0]!.delivered_quantity).toBe(String(took * 2));
          await invariants();
        },
      ),
      { numRuns: 6 },
    );
  }, 300_000);
});
