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

type Entry = {
  quantity: string;
  unit_cost_cents: string;
  value_cents: number;
  on_hand_after: string;
};

/** Ships `quantity` of a product (an order, its delivery shipped): the shipment's stock entries. */
async function ship(product: Record<string, unknown> & { id: string }, quantity: string) {
  const order = await g.salesOrder([{ product, quantity }]);
  const delivery = await g.ok('POST', `sales-orders/${order.id}/make-delivery`, undefined, 201);
  await g.ok('POST', `deliveries/${delivery.id}/ship`);
  return (await g.ok('GET', `stock-ledger?source_id=eq.${delivery.id}`)).data as Entry[];
}

/**
 * The three methods on worked examples (SPEC §18), the figures written out: quantities, unit
 * costs in cents, the cost of each issue; and after each, the stock accounts equal the stock.
 */
describe('valuation (SPEC §18)', () => {
  it('FIFO: 10 at 10.00 then 5 at 12.00; 12 issued cost 10 × 10.00 + 2 × 12.00 = 124.00', async () => {
    const p = await g.product('fifo');
    await g.receive(p, '10', 1000);
    await g.receive(p, '5', 1200);
    const [issue] = await ship(p, '12');
    expect(issue).toMatchObject({ quantity: '-12', value_cents: -12_400, on_hand_after: '3' });
    expect(issue!.unit_cost_cents).toBe('1033.333333');
    expect(await g.level(p.id)).toMatchObject({ on_hand: '3', value_cents: 3_600 }); // 3 × 12.00
    const [last] = await ship(p, '3');
    expect(last).toMatchObject({ value_cents: -3_600, on_hand_after: '0' });
    expect(await g.level(p.id)).toMatchObject({ on_hand: '0', value_cents: 0 });
    expect(await g.stockAccountBalance()).toBe(await g.stockValue());
  });

  it('moving average: 10 at 10.00 and 5 at 13.00 average 11.00; 12 issued cost 132.00', async () => {
    const p = await g.product('moving_average');
    await g.receive(p, '10', 1000);
    await g.receive(p, '5', 1300); // 16 500 over 15 units: 11.00 each
    const [issue] = await ship(p, '12');
    expect(issue).toMatchObject({ quantity: '-12', unit_cost_cents: '1100', value_cents: -13_200 });
    expect(await g.level(p.id)).toMatchObject({ on_hand: '3', value_cents: 3_300 });
    await g.receive(p, '3', 1000); // 6 300 over 6 units: 10.50 each
    const [rest] = await ship(p, '6');
    expect(rest).toMatchObject({ unit_cost_cents: '1050', value_cents: -6_300 });
    expect(await g.level(p.id)).toMatchObject({ on_hand: '0', value_cents: 0 });
    expect(await g.stockAccountBalance()).toBe(await g.stockValue());
  });

  it('standard at 15.00: received at 14.00 the stock is 15.00 each, the difference credits expense', async () => {
    const p = await g.product('standard', 1500);
    const receipt = await g.receive(p, '10', 1400);
    const [entry] = (await g.ok('GET', `journal-entries?source_id=eq.${receipt.id}`)).data as {
      lines: { account_id: string; debit_cents: number; credit_cents: number }[];
    }[];
    const by = (id: string) => entry!.lines.find((l) => l.account_id === id);
    const accounts = (await g.ok('GET', 'accounts?page_size=200')).data as {
      id: string;
      code: string;
    }[];
    const code = (c: string) => accounts.find((a) => a.code === c)!.id;
    expect(by(code('370000'))).toMatchObject({ debit_cents: 15_000 }); // stock at standard
    expect(by(code('408000'))).toMatchObject({ credit_cents: 14_000 }); // received, not billed, at the order's price
    expect(by(code('607000'))).toMatchObject({ credit_cents: 1_000 }); // the price difference
    const [issue] = await ship(p, '4');
    expect(issue).toMatchObject({ unit_cost_cents: '1500', value_cents: -6_000 });
    expect(await g.level(p.id)).toMatchObject({ on_hand: '6', value_cents: 9_000 });
    expect(await g.stockAccountBalance()).toBe(await g.stockValue());
  });
});
