import { randomUUID } from 'node:crypto';
import type { BatchOperation } from '@erp/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { batchOf, customerBody, salesOrderBody } from '../../test/batch-harness';
import { PROTOTYPE_NAMES } from '../../test/fuzz/fuzz-values';
import { createTestPortal, session } from '../../test/harness';

/** Random batches (paths, references, queries, bodies, If-Match): never a 500, always the error shape. */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let admin: Record<string, string>;
let customerId: string;

beforeAll(async () => {
  portal = await createTestPortal();
  const tenant = await portal.provisionTenant('enterprise');
  admin = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
  const made = await batchOf(portal)(
    [{ method: 'POST', path: '/api/v1/customers', body: customerBody('fuzz') }],
    admin,
  );
  customerId = made.body.results[0].body.id;
}, 120_000);
afterAll(() => portal.tdb.close());

let seed = 16;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
const pick = <T>(items: readonly T[]): T => items[rand(items.length)]!;

const FIELDS = [
  'id',
  'name',
  'number',
  'lines.0.description',
  'data.0.id',
  'nope',
  '__proto__',
  'constructor',
  'id.x',
  'customer_id',
  'next_cursor',
  'email',
];
const reference = () => `{{${rand(6)}.${pick(FIELDS)}}}`;
const hole = () =>
  pick([
    customerId,
    randomUUID(),
    reference(),
    `\\${reference()}`,
    'x',
    '%',
    '%zz',
    '..',
    ' ',
    '\u0000',
    'é',
    '{{',
    '}}',
    `${reference()}${reference()}`,
  ]);
const query = () =>
  `?${pick(['name', 'email', 'order', 'page_size', 'cursor', 'x', hole(), ...PROTOTYPE_NAMES])}=${pick(['eq.', 'ilike.', 'in.(', 'is.', ''])}${hole()}`;
/** Mostly well-formed operations with one random part, and now and then nonsense. */
const operation = (): BatchOperation => {
  const ifMatch = pick([undefined, undefined, '"1"', '*', 'garbage']);
  const made = pick<() => Omit<BatchOperation, 'if_match'>>([
    () => ({ method: 'GET', path: `/api/v1/customers/${hole()}` }),
    () => ({ method: 'GET', path: `/api/v1/customers${query()}` }),
    () => ({ method: 'GET', path: `/api/v1/sales-orders?customer_id=eq.${hole()}` }),
    () => ({ method: 'POST', path: '/api/v1/customers', body: body() ?? {} }),
    () => ({ method: 'POST', path: '/api/v1/sales-orders', body: body() ?? {} }),
    () => ({ method: 'PATCH', path: `/api/v1/customers/${hole()}`, body: { name: value() } }),
    () => ({ method: 'DELETE', path: `/api/v1/customers/${hole()}` }),
    () => ({
      method: 'POST',
      path: `/api/v1/sales-orders/${hole()}/${pick(['confirm', 'cancel', 'deliver', 'nope'])}`,
    }),
    () => {
      const b = body();
      return {
        method: pick(['GET', 'POST', 'PATCH', 'DELETE'] as const),
        path: pick([
          `/api/v1/${hole()}`,
          '/api/v1/settings/users',
          '/api/v1/batch',
          '',
          '/',
          '//api/v1/customers',
          '/api/v1/customers#x',
          `/api/v1/sales-orders/${hole()}/${hole()}`,
        ]),
        ...(b === undefined ? {} : { body: b }),
      };
    },
  ])();
  return { ...made, ...(ifMatch === undefined || rand(3) > 0 ? {} : { if_match: ifMatch }) };
};
const value = () =>
  pick<unknown>([
    null,
    true,
    -1,
    1e308,
    '',
    'x'.repeat(300),
    '\ud800',
    [],
    {},
    [{}],
    reference(),
    `a ${reference()} b`,
    customerId,
    randomUUID(),
    '2026-13-45',
  ]);
const body = (): Record<string, unknown> | undefined =>
  pick([
    () => undefined,
    () => ({}),
    () => customerBody(rand(1000)),
    () => salesOrderBody(pick([customerId, reference(), randomUUID()])),
    () => ({
      ...customerBody(1),
      [pick(['name', 'active', 'email', 'payment_terms_days', 'lines', 'x', ...PROTOTYPE_NAMES])]:
        value(),
    }),
    () => ({
      ...salesOrderBody(customerId),
      lines: [{ description: value(), quantity: value(), unit_price_cents: value() }],
    }),
  ])();

it('random batches never answer 500, and every refusal is {code, params, message} naming an operation in range', async () => {
  const batch = batchOf(portal);
  const statuses = new Map<number, number>();
  const codes = new Set<string>();
  for (let i = 0; i < 250; i++) {
    const operations = Array.from({ length: 1 + rand(3) }, operation);
    const res = await batch(operations, admin);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const what = JSON.stringify(operations);
    expect(res.status, what).toBeLessThan(500);
    if (res.status >= 400) {
      expect(Object.keys(res.body).sort(), what).toEqual(['code', 'message', 'params']);
      codes.add(res.body.code);
      if (res.body.params.index !== undefined) {
        expect(res.body.params.index, what).toBeLessThan(operations.length);
      }
    } else {
      expect(res.body.results, what).toHaveLength(operations.length);
    }
  }
  // The generator reaches successes as well as refusals (else it tests only the envelope).
  expect(statuses.get(200) ?? 0).toBeGreaterThan(5);
  expect(codes.size).toBeGreaterThan(2);
});
