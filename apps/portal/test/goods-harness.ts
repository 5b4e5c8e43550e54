import { randomBytes } from 'node:crypto';
import { booksTenant } from './books-harness';
import type { createTestPortal } from './harness';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;
type Row = Record<string, unknown> & { id: string };

/**
 * A books tenant with a warehouse and its main internal location, and products of each kind
 * and valuation method, made through the API; helpers to run the goods' flows and read stock.
 */
export async function goodsTenant(portal: Portal) {
  const books = await booksTenant(portal);
  const { create, call } = books;
  const suffix = () => randomBytes(3).toString('hex');
  const warehouse = await create('warehouses', {
    code: `WH-${suffix()}`,
    name: 'Entrepôt Lyon',
    active: true,
  });
  const location = await create('stock-locations', {
    code: `LYON/STOCK-${suffix()}`,
    name: 'Stock',
    warehouse_id: warehouse.id,
    usage: 'internal',
    is_scrap: false,
  });
  const product = (valuation_method: string, cost_price_cents = 1000, product_type = 'stockable') =>
    create('products', {
      sku: `SKU-${suffix()}`,
      name: `Produit ${valuation_method}`,
      product_type,
      category: 'goods',
      unit_of_measure: 'Unit',
      active: true,
      valuation_method,
      cost_price_cents,
    });
  const products = {
    fifo: await product('fifo'),
    average: await product('moving_average'),
    standard: await product('standard', 1500),
    service: await product('fifo', 0, 'service'),
  };
  const ok = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await call(method, path, body);
    if (res.status !== status)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Row;
  };
  /** A confirmed sales order of `lines` ({product, quantity, price}). */
  const salesOrder = async (
    lines: { product: Row; quantity: string; price?: number }[],
    confirm = true,
  ) => {
    const order = await create('sales-orders', {
      customer_id: books.customer.id,
      order_date: '2026-03-05',
      currency: 'EUR',
      warehouse_id: warehouse.id,
      lines: lines.map((l) => ({
        product_id: l.product.id,
        description: String(l.product.name),
        quantity: l.quantity,
        unit_price_cents: l.price ?? 5000,
        tax_rate: '20',
      })),
    });
    return confirm ? ok('POST', `sales-orders/${order.id}/confirm`) : order;
  };
  /** A purchase order sent to the supplier. */
  const purchaseOrder = async (lines: { product: Row; quantity: string; price: number }[]) => {
    const order = await create('purchase-orders', {
      supplier_id: books.supplier.id,
      order_date: '2026-03-01',
      currency: 'EUR',
      warehouse_id: warehouse.id,
      lines: lines.map((l) => ({
        product_id: l.product.id,
        description: String(l.product.name),
        quantity: l.quantity,
        unit_price_cents: l.price,
        tax_rate: '20',
      })),
    });
    for (const step of ['submit', 'approve', 'send'])
      await ok('POST', `purchase-orders/${order.id}/${step}`);
    return ok('GET', `purchase-orders/${order.id}`);
  };
  /** Receives `quantity` of a product at `price` (a purchase order, its receipt validated). */
  const receive = async (product: Row, quantity: string, price: number) => {
    const order = await purchaseOrder([{ product, quantity, price }]);
    const receipt = await ok(
      'POST',
      `purchase-orders/${order.id}/make-goods-receipt`,
      undefined,
      201,
    );
    return ok('POST', `goods-receipts/${receipt.id}/validate`);
  };
  const level = async (productId: string) => {
    const rows = (
      await ok('GET', `stock-levels?product_id=eq.${productId}&location_id=eq.${location.id}`)
    ).data as Row[];
    return rows[0] as
      | (Row & { on_hand: string; reserved: string; available: string; value_cents: number })
      | undefined;
  };
  /** The balance of the stock account (debit − credit), from the ledger. */
  const stockAccountBalance = async () => {
    const { rows } = await portal.tdb.pool.query<{ balance: string }>(
      `SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0)::text AS balance
         FROM ledger_lines l JOIN accounts a ON a.tenant_id = l.tenant_id AND a.id = l.account_id
        WHERE l.tenant_id = $1 AND a.sub_type = 'stock'`,
      [books.tenant.id],
    );
    return BigInt(rows[0]!.balance);
  };
  /** Σ value of the tenant's stock levels. */
  const stockValue = async () => {
    const { rows } = await portal.tdb.pool.query<{ value: string }>(
      'SELECT coalesce(sum(value_cents), 0)::text AS value FROM stock_levels WHERE tenant_id = $1',
      [books.tenant.id],
    );
    return BigInt(rows[0]!.value);
  };
  return {
    ...books,
    ok,
    warehouse,
    location,
    product,
    products,
    salesOrder,
    purchaseOrder,
    receive,
    level,
    stockAccountBalance,
    stockValue,
  };
}
