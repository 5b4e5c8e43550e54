import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodsTenant } from '../../test/goods-harness';
import { createTestPortal } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let g: Awaited<ReturnType<typeof goodsTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  g = await goodsTenant(portal);
});
afterAll(() => portal.tdb.close());

type Line = { id: string; source_line_id?: string; quantity: string; [k: string]: unknown };

describe('order to delivery to invoice (SPEC §18)', () => {
  it('a partial delivery counts on the order line, moves stock and posts its cost', async () => {
    await g.receive(g.products.fifo, '10', 1200);
    expect(await g.level(g.products.fifo.id)).toMatchObject({ on_hand: '10', value_cents: 12_000 });
    const order = await g.salesOrder([
      { product: g.products.fifo, quantity: '6' },
      { product: g.products.service, quantity: '2' },
    ]);
    expect(await g.level(g.products.fifo.id)).toMatchObject({ reserved: '6', available: '4' });
    const [goodsLine, serviceLine] = order.lines as Line[];
    const draft = await g.ok(
      'POST',
      `sales-orders/${order.id}/make-delivery`,
      {
        lines: [{ line_id: goodsLine!.id, quantity: '4' }],
      },
      201,
    );
    expect(draft).toMatchObject({ status: 'brouillon', sales_order_id: order.id });
    expect((draft.lines as Line[]).map((l) => [l.source_line_id, l.quantity])).toEqual([
      [goodsLine!.id, '4'],
    ]);
    await g.ok('POST', `deliveries/${draft.id}/ship`);
    const after = await g.ok('GET', `sales-orders/${order.id}`);
    expect(after.status).toBe('confirme');
    expect((after.lines as Line[])[0]).toMatchObject({ delivered_quantity: '4' });
    expect(await g.level(g.products.fifo.id)).toMatchObject({
      on_hand: '6',
      reserved: '2',
      value_cents: 7_200,
    });
    expect(await g.stockAccountBalance()).toBe(await g.stockValue());

    // The rest by the shortcut: the order is delivered; more than remains is refused.
    const delivered = await g.ok('POST', `sales-orders/${order.id}/deliver`);
    expect(delivered.status).toBe('livre');
    const none = await g.call('POST', `sales-orders/${order.id}/make-delivery`);
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('quantite_depassee');
    // Invoice everything delivered (and the service): the order is invoiced.
    const invoiced = await g.ok('POST', `sales-orders/${order.id}/invoice`);
    expect(invoiced.status).toBe('facture');
    expect((invoiced.lines as Line[]).map((l) => l.invoiced_quantity)).toEqual(['6', '2']);
    expect(serviceLine).toBeDefined();
    expect(await g.level(g.products.fifo.id)).toMatchObject({ on_hand: '4', reserved: '0' });
    expect(await g.stockAccountBalance()).toBe(await g.stockValue());
  });

  it('a shipment beyond what is on hand is refused, exactly', async () => {
    const p = await g.product('fifo');
    await g.receive(p, '3', 1000);
    const order = await g.salesOrder([{ product: p, quantity: '5' }]);
    const res = await g.call('POST', `sales-orders/${order.id}/deliver`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'stock_insuffisant',
      params: { available: '3', requested: '5' },
    });
    expect(await g.level(p.id)).toMatchObject({ on_hand: '3', reserved: '5' });
  });
});

/** A statement run as the application's role, the tenant bound, rolled back. */
async function asApp(sql: string, values: unknown[] = []) {
  const client = await portal.tdb.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('app.tenant_id', $1, true)`, [g.tenant.id]);
    await client.query('SET LOCAL ROLE erp_app');
    return await client.query(sql, values);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

describe('what PostgreSQL keeps (SPEC §18)', () => {
  it('the application may only read the stock tables; a level is never below zero', async () => {
    const p = await g.product('fifo');
    await g.receive(p, '2', 1000);
    for (const sql of [
      'UPDATE stock_levels SET on_hand = on_hand + 1',
      'DELETE FROM stock_ledger',
      'INSERT INTO stock_layers (tenant_id, product_id, location_id, quantity_remaining, value_remaining) SELECT tenant_id, product_id, location_id, 1, 1 FROM stock_levels',
    ])
      await expect(asApp(sql), sql).rejects.toMatchObject({ code: '42501' });
    // Even the engine's own function, asked to take more than is there, is refused.
    await expect(
      asApp('SELECT erp_stock_apply($1, $2::jsonb)', [
        g.tenant.id,
        JSON.stringify([
          {
            product_id: p.id,
            warehouse_id: g.warehouse.id,
            location_id: g.location.id,
            quantity: '-3',
            source_type: 'stock_move',
            source_id: p.id,
            method: 'fifo',
          },
        ]),
      ]),
    ).rejects.toMatchObject({ code: 'EP010' });
  });

  it('a source line never counts more than its quantity, whatever writes it', async () => {
    const order = await g.salesOrder([{ product: g.products.service, quantity: '2' }]);
    await expect(
      asApp(
        `UPDATE sales_orders SET lines = jsonb_set(lines, '{0,invoiced_quantity}', '"3"') WHERE id = $1`,
        [order.id],
      ),
    ).rejects.toMatchObject({ code: '23514', constraint: 'sales_orders_counted_within' });
    const fine = await asApp(
      `UPDATE sales_orders SET lines = jsonb_set(lines, '{0,invoiced_quantity}', '"2"') WHERE id = $1`,
      [order.id],
    );
    expect(fine.rowCount).toBe(1);
  });
});
