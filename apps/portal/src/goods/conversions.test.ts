import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodsTenant } from '../../test/goods-harness';
import { apiKey, createTestPortal } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let g: Awaited<ReturnType<typeof goodsTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  g = await goodsTenant(portal);
});
afterAll(() => portal.tdb.close());

type Line = { id: string; source_line_id?: string; quantity: string; [k: string]: unknown };
const lines = (row: Record<string, unknown>) => row.lines as Line[];

describe('conversions (SPEC §18)', () => {
  it('quote → order: confirming counts on the quote, cancelling gives it back', async () => {
    const quote = await g.create('quotes', {
      customer_id: g.customer.id,
      quote_date: '2026-03-01',
      currency: 'EUR',
      lines: [
        {
          product_id: g.products.fifo.id,
          description: 'Chaise',
          quantity: '3',
          unit_price_cents: 4_000,
          tax_rate: '20',
        },
      ],
    });
    // Not before it is accepted: 409, naming the conversion.
    const early = await g.call('POST', `quotes/${quote.id}/make-sales-order`);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({
      code: 'transition_invalide',
      params: { action: 'make_sales_order', from: 'brouillon' },
    });
    await g.ok('POST', `quotes/${quote.id}/send`);
    await g.ok('POST', `quotes/${quote.id}/accept`);
    const order = await g.ok('POST', `quotes/${quote.id}/make-sales-order`, undefined, 201);
    expect(order).toMatchObject({
      status: 'brouillon',
      quote_id: quote.id,
      customer_id: g.customer.id,
    });
    expect(lines(order)[0]).toMatchObject({ source_line_id: lines(quote)[0]!.id, quantity: '3' });
    expect(lines(order)[0]!.id).not.toBe(lines(quote)[0]!.id);
    await g.ok('POST', `sales-orders/${order.id}/confirm`);
    expect(lines(await g.ok('GET', `quotes/${quote.id}`))[0]).toMatchObject({
      ordered_quantity: '3',
    });
    // Nothing left: the same answer as too much.
    const again = await g.call('POST', `quotes/${quote.id}/make-sales-order`);
    expect(again.body.code).toBe('quantite_depassee');
    await g.ok('POST', `sales-orders/${order.id}/cancel`);
    expect(lines(await g.ok('GET', `quotes/${quote.id}`))[0]).toMatchObject({
      ordered_quantity: '0',
    });
  });

  it('a part: the lines asked, each within what remains; a line of another document is refused', async () => {
    const order = await g.salesOrder([
      { product: g.products.service, quantity: '4' },
      { product: g.products.service, quantity: '1' },
    ]);
    const [first, second] = lines(order);
    const over = await g.call('POST', `sales-orders/${order.id}/make-invoice`, {
      lines: [{ line_id: first!.id, quantity: '4.5' }],
    });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      code: 'quantite_depassee',
      params: { line_id: first!.id, remaining: '4', requested: '4.5' },
    });
    const stranger = await g.call('POST', `sales-orders/${order.id}/make-invoice`, {
      lines: [{ line_id: '01935c1e-7b2a-7c3d-9e4f-a1b2c3d4e5f6', quantity: '1' }],
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.params.issues[0]).toMatchObject({
      path: 'lines.0.line_id',
      code: 'not_found',
    });
    const twice = await g.call('POST', `sales-orders/${order.id}/make-invoice`, {
      lines: [
        { line_id: first!.id, quantity: '1' },
        { line_id: first!.id, quantity: '1' },
      ],
    });
    expect(twice.status).toBe(400);
    const draft = await g.ok(
      'POST',
      `sales-orders/${order.id}/make-invoice`,
      {
        lines: [{ line_id: second!.id, quantity: '1' }],
      },
      201,
    );
    expect(lines(draft).map((l) => [l.source_line_id, l.quantity])).toEqual([[second!.id, '1']]);
    expect(draft.due_date).toBeDefined();
  });

  it('a PATCH keeps the lines it sends back, with their source; a new line has none', async () => {
    const order = await g.salesOrder([{ product: g.products.service, quantity: '2' }]);
    const draft = await g.ok('POST', `sales-orders/${order.id}/make-invoice`, undefined, 201);
    const [kept] = lines(draft);
    const patched = await g.ok('PATCH', `invoices/${draft.id}`, {
      lines: [
        {
          id: kept!.id,
          description: 'Pose',
          quantity: '1',
          unit_price_cents: 5_000,
          tax_rate: '20',
        },
        { description: 'Déplacement', quantity: '1', unit_price_cents: 3_000, tax_rate: '20' },
      ],
    });
    expect(lines(patched)[0]).toMatchObject({ id: kept!.id, source_line_id: lines(order)[0]!.id });
    expect(lines(patched)[1]!.source_line_id).toBeUndefined();
    // What the server set on a line may be sent back as read; a forged value is ignored.
    const forged = await g.ok('PATCH', `invoices/${draft.id}`, {
      lines: [{ ...lines(patched)[0], source_line_id: kept!.id }],
    });
    expect(lines(forged)[0]).toMatchObject({ id: kept!.id, source_line_id: lines(order)[0]!.id });
    await g.ok('POST', `invoices/${draft.id}/issue`);
    expect(lines(await g.ok('GET', `sales-orders/${order.id}`))[0]).toMatchObject({
      invoiced_quantity: '1',
    });
  });

  it('invoice → credit note: what is credited counts on the invoice, never more than invoiced', async () => {
    const order = await g.salesOrder([{ product: g.products.service, quantity: '3' }]);
    const invoice = await g.ok('POST', `sales-orders/${order.id}/make-invoice`, undefined, 201);
    await g.ok('POST', `invoices/${invoice.id}/issue`);
    const [line] = lines(await g.ok('GET', `invoices/${invoice.id}`));
    const note = await g.ok(
      'POST',
      `invoices/${invoice.id}/make-credit-note`,
      {
        lines: [{ line_id: line!.id, quantity: '2' }],
      },
      201,
    );
    expect(note).toMatchObject({ invoice_id: invoice.id, reason: 'other', status: 'brouillon' });
    await g.ok('POST', `credit-notes/${note.id}/issue`);
    expect(lines(await g.ok('GET', `invoices/${invoice.id}`))[0]).toMatchObject({
      credited_quantity: '2',
    });
    const more = await g.call('POST', `invoices/${invoice.id}/make-credit-note`, {
      lines: [{ line_id: line!.id, quantity: '2' }],
    });
    expect(more.body).toMatchObject({ code: 'quantite_depassee', params: { remaining: '1' } });
  });

  it('purchase order → bill: completed by a PATCH, approved it clears what the receipt credited', async () => {
    const p = await g.product('moving_average');
    const order = await g.purchaseOrder([{ product: p, quantity: '10', price: 800 }]);
    const receipt = await g.ok(
      'POST',
      `purchase-orders/${order.id}/make-goods-receipt`,
      undefined,
      201,
    );
    await g.ok('POST', `goods-receipts/${receipt.id}/validate`);
    expect((await g.ok('GET', `purchase-orders/${order.id}`)).status).toBe('recu');
    const bill = await g.ok(
      'POST',
      `purchase-orders/${order.id}/make-supplier-invoice`,
      undefined,
      201,
    );
    expect(bill.supplier_invoice_number).toBeNull();
    const refused = await g.call('POST', `supplier-invoices/${bill.id}/submit`);
    expect(refused.status).toBe(400);
    expect(refused.body.params.issues[0]).toMatchObject({ path: 'supplier_invoice_number' });
    // The supplier bills 8.50 a unit where the order said 8.00: 5.00 of difference.
    await g.ok('PATCH', `supplier-invoices/${bill.id}`, {
      supplier_invoice_number: 'F-2026-0412',
      lines: [{ ...lines(bill)[0], unit_price_cents: 850, source_line_id: undefined }],
    });
    await g.ok('POST', `supplier-invoices/${bill.id}/submit`);
    await g.ok('POST', `supplier-invoices/${bill.id}/approve`);
    expect(lines(await g.ok('GET', `purchase-orders/${order.id}`))[0]).toMatchObject({
      received_quantity: '10',
      billed_quantity: '10',
    });
    const [entry] = (await g.ok('GET', `journal-entries?supplier_invoice_id=eq.${bill.id}`))
      .data as {
      lines: { account_id: string; debit_cents: number; credit_cents: number }[];
    }[];
    const accounts = (await g.ok('GET', 'accounts?page_size=200')).data as {
      id: string;
      code: string;
    }[];
    const code = (c: string) => accounts.find((a) => a.code === c)!.id;
    const on = (c: string) => entry!.lines.find((l) => l.account_id === code(c));
    expect(on('408000')).toMatchObject({ debit_cents: 8_000 }); // what the receipt credited
    expect(on('607000')).toMatchObject({ debit_cents: 500 }); // the price difference
    expect(on('401000')).toMatchObject({ credit_cents: 10_200 }); // 85.00 + 20 % VAT
  });
});

describe('stock documents (SPEC §18)', () => {
  it('a move of nothing, or from a location to itself, is refused; cancelling a move moves it back', async () => {
    const p = await g.product('fifo');
    await g.receive(p, '5', 1_000);
    const shelf = await g.create('stock-locations', {
      code: `~${g.warehouse.code}/B`,
      name: 'B',
      warehouse_id: g.warehouse.id,
      usage: 'internal',
      is_scrap: false,
    });
    const move = (quantity: string, to: string) =>
      g.create('stock-moves', {
        move_type: 'internal',
        product_id: p.id,
        quantity,
        from_location_id: g.location.id,
        to_location_id: to,
        move_date: '2026-03-12',
      });
    const zero = await g.call('POST', `stock-moves/${(await move('0', shelf.id)).id}/validate`);
    expect(zero.body.params.issues[0]).toMatchObject({ path: 'quantity', code: 'zero_quantity' });
    const itself = await g.call(
      'POST',
      `stock-moves/${(await move('1', g.location.id)).id}/validate`,
    );
    expect(itself.body.params.issues[0]).toMatchObject({ code: 'same_location' });
    const moved = await move('2', shelf.id);
    await g.ok('POST', `stock-moves/${moved.id}/validate`);
    expect(await g.level(p.id)).toMatchObject({ on_hand: '3', value_cents: 3_000 });
    await g.ok('POST', `stock-moves/${moved.id}/cancel`);
    expect(await g.level(p.id)).toMatchObject({ on_hand: '5', value_cents: 5_000 });
    expect(await g.stockAccountBalance()).toBe(await g.stockValue());
  });

  it('a transfer to another warehouse, a customer return and a supplier return move their stock and post it', async () => {
    const p = await g.product('moving_average');
    await g.receive(p, '10', 1_000);
    const other = await g.create('warehouses', {
      code: `WH2-${p.sku}`,
      name: 'Paris',
      active: true,
    });
    const there = await g.create('stock-locations', {
      code: `WH2-${p.sku}/STOCK`,
      name: 'Stock',
      warehouse_id: other.id,
      usage: 'internal',
      is_scrap: false,
    });
    const transfer = await g.create('stock-transfers', {
      from_warehouse_id: g.warehouse.id,
      to_warehouse_id: other.id,
      shipment_date: '2026-03-12',
      lines: [{ product_id: p.id, quantity: '4' }],
    });
    await g.ok('POST', `stock-transfers/${transfer.id}/ship`);
    const at = async (location: string) =>
      (await g.ok('GET', `stock-levels?product_id=eq.${p.id}&location_id=eq.${location}`)).data as {
        on_hand: string;
        value_cents: number;
      }[];
    expect(await at(there.id)).toMatchObject([{ on_hand: '4', value_cents: 4_000 }]);
    expect(await at(g.location.id)).toMatchObject([{ on_hand: '6', value_cents: 6_000 }]);
    const back = await g.create('sales-returns', {
      customer_id: g.customer.id,
      return_date: '2026-03-14',
      reason: 'defective',
      resolution: 'refund',
      warehouse_id: g.warehouse.id,
      lines: [
        { product_id: p.id, quantity: '1' },
        // Damaged beyond repair: not put back in stock.
        { product_id: p.id, quantity: '5', restock: false },
      ],
    });
    for (const step of ['approve', 'receive'])
      await g.ok('POST', `sales-returns/${back.id}/${step}`);
    const out = await g.create('purchase-returns', {
      supplier_id: g.supplier.id,
      warehouse_id: g.warehouse.id,
      return_date: '2026-03-15',
      reason: 'defective',
      currency: 'EUR',
      lines: [
        {
          product_id: p.id,
          description: 'Défectueux',
          quantity: '3',
          unit_price_cents: 1_000,
          tax_rate: '20',
        },
      ],
    });
    for (const step of ['confirm', 'ship'])
      await g.ok('POST', `purchase-returns/${out.id}/${step}`);
    expect(await at(g.location.id)).toMatchObject([{ on_hand: '4', value_cents: 4_000 }]);
    expect(await g.stockAccountBalance()).toBe(await g.stockValue());
  });
});

describe('who may convert (SPEC §18)', () => {
  it('a conversion writes its target: its module’s right too; another tenant sees no source', async () => {
    const order = await g.salesOrder([{ product: g.products.service, quantity: '1' }]);
    const { key } = await portal.createKey(g.tenant, ['sales:read', 'sales:write']);
    const sales = { ...apiKey(key, g.tenant.id), 'content-type': 'application/json' };
    const as = async (headers: Record<string, string>, path: string, body?: unknown) =>
      portal.json(
        await portal.request(`/api/v1/${path}`, {
          method: 'POST',
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    // A sales order's delivery is sales: allowed; its invoice is the accounting's: not.
    expect((await as(sales, `sales-orders/${order.id}/make-invoice`)).status).toBe(403);
    expect((await as(sales, `sales-orders/${order.id}/invoice`)).status).toBe(403);
    const batched = await as(sales, 'batch', {
      operations: [{ method: 'POST', path: `/api/v1/sales-orders/${order.id}/make-invoice` }],
    });
    expect(batched.status).toBe(403);
    expect((await g.ok('GET', `invoices?sales_order_id=eq.${order.id}`)).data).toEqual([]);
    // Another tenant's admin: no such order.
    const other = await portal.provisionTenant();
    const { key: otherKey } = await portal.createKey(other, ['sales:write', 'accounting:write']);
    const stranger = await as(
      { ...apiKey(otherKey, other.id), 'content-type': 'application/json' },
      `sales-orders/${order.id}/make-invoice`,
    );
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('introuvable');
  });
});
