import { Pool } from 'undici';

type Row = Record<string, unknown> & { id: string };

/** JSON calls to the portal with the benchmark's key; any unexpected status throws. */
export function apiClient(baseUrl: string, headers: Record<string, string>) {
  const call = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await fetch(`${baseUrl}/api/v1/${path}`, {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== status) throw new Error(`${method} /api/v1/${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Row;
  };
  return {
    call,
    create: (path: string, body: unknown) => call('POST', path, body, 201),
  };
}

export type Api = ReturnType<typeof apiClient>;

/** What the shipments need: where they leave from, what, for whom. */
export interface StockScene {
  warehouseId: string;
  locationId: string;
  productId: string;
  customerId: string;
  salesOrderId: string;
}

/**
 * A warehouse with one internal location, one stockable product, `quantity` of it found by a
 * validated stock adjustment, a customer and a confirmed sales order of one unit: all through
 * the API, as a customer would set them up.
 */
export async function setUpStock(
  api: Api,
  o: { valuation: string; quantity: number; date: string },
): Promise<StockScene> {
  const warehouse = await api.create('warehouses', { code: 'WH-B', name: 'Bench', active: true });
  const location = await api.create('stock-locations', {
    code: 'WH-B/STOCK',
    name: 'Stock',
    warehouse_id: warehouse.id,
    usage: 'internal',
    is_scrap: false,
  });
  const product = await api.create('products', {
    sku: 'HOT-1',
    name: 'Hot product',
    product_type: 'stockable',
    category: 'goods',
    unit_of_measure: 'Unit',
    active: true,
    valuation_method: o.valuation,
    cost_price_cents: 1000,
  });
  const adjustment = await api.create('stock-adjustments', {
    warehouse_id: warehouse.id,
    adjustment_date: o.date,
    reason: 'found',
    lines: [{ product_id: product.id, quantity: String(o.quantity), unit_cost_cents: 1000 }],
  });
  await api.call('POST', `stock-adjustments/${adjustment.id}/validate`);
  const customer = await api.create('customers', {
    name: 'Client bench',
    customer_type: 'company',
    active: true,
  });
  const order = await api.create('sales-orders', {
    customer_id: customer.id,
    order_date: o.date,
    currency: 'EUR',
    warehouse_id: warehouse.id,
    lines: [
      {
        product_id: product.id,
        description: 'Hot product',
        quantity: '1',
        unit_price_cents: 5000,
        tax_rate: '20',
      },
    ],
  });
  await api.call('POST', `sales-orders/${order.id}/confirm`);
  return {
    warehouseId: warehouse.id,
    locationId: location.id,
    productId: product.id,
    customerId: customer.id,
    salesOrderId: order.id,
  };
}

/** Creates `count` draft deliveries of one unit each (8 at a time); returns their ids. */
export async function draftDeliveries(
  baseUrl: string,
  headers: Record<string, string>,
  scene: StockScene,
  count: number,
  date: string,
): Promise<string[]> {
  const pool = new Pool(baseUrl, { connections: 8 });
  const body = JSON.stringify({
    sales_order_id: scene.salesOrderId,
    customer_id: scene.customerId,
    warehouse_id: scene.warehouseId,
    scheduled_date: date,
    lines: [{ product_id: scene.productId, quantity: '1' }],
  });
  const ids: string[] = [];
  let left = count;
  try {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (left-- > 0) {
          const res = await pool.request({
            method: 'POST',
            path: '/api/v1/deliveries',
            headers: { ...headers, 'content-type': 'application/json' },
            body,
          });
          const text = await res.body.text();
          if (res.statusCode !== 201)
            throw new Error(`POST /api/v1/deliveries: ${res.statusCode} ${text}`);
          ids.push((JSON.parse(text) as Row).id);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  return ids;
}

/** On hand of the product, summed over its stock levels (one: the warehouse's location). */
export async function onHand(api: Api, productId: string): Promise<number> {
  const page = await api.call('GET', `stock-levels?product_id=eq.${productId}`);
  const rows = page.data as { on_hand: string }[];
  return rows.reduce((sum, r) => sum + Number(r.on_hand), 0);
}
