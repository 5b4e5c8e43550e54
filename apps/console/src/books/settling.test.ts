import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../records/catalogue';
import info from '../records/catalogue.gen.json';
import type { CatalogueInfo, ResourceInfo } from '../records/catalogue-types';
import { settlingSources, sourcesNoun } from './settling';

const described = info as unknown as CatalogueInfo;
const catalogue: Catalogue = {
  ...described,
  byPath: new Map(described.resources.map((r) => [r.path, r])),
  byName: new Map(described.resources.map((r) => [r.name, r])),
};
const resource = (path: string) => catalogue.byPath.get(path)!;
const allocations = resource('payment-allocations');
const customer = { id: 'd1', customer_id: 'c1', supplier_id: null, currency: 'EUR' };
const supplier = { id: 'd2', supplier_id: 's1', customer_id: null, currency: 'USD' };
const sources = (path: string, record: Record<string, unknown>) =>
  settlingSources(catalogue, resource(path), allocations, record).map((s) => ({
    path: s.resource.path,
    field: s.field,
    left: s.left,
    query: s.query,
  }));

describe('what may settle a document', () => {
  it('an invoice: incoming payments of its customer, then its customer’s open credit notes', () => {
    expect(sources('invoices', customer)).toEqual([
      {
        path: 'payments',
        field: 'payment_id',
        left: 'unallocated_cents',
        query: {
          customer_id: 'eq.c1',
          currency: 'eq.EUR',
          direction: 'eq.incoming',
          status: 'eq.comptabilise',
          unallocated_cents: 'gt.0',
        },
      },
      {
        path: 'credit-notes',
        field: 'credit_note_id',
        left: 'amount_due_cents',
        query: {
          customer_id: 'eq.c1',
          currency: 'eq.EUR',
          status: 'in.(emis,partiellement_paye)',
          amount_due_cents: 'gt.0',
        },
      },
    ]);
  });

  it('a credit note: outgoing payments (refunds), then its customer’s open invoices', () => {
    const found = sources('credit-notes', customer);
    expect(found.map((s) => [s.path, s.field])).toEqual([
      ['payments', 'payment_id'],
      ['invoices', 'invoice_id'],
    ]);
    expect(found[0]!.query.direction).toBe('eq.outgoing');
    expect(found[1]!.query).toEqual({
      customer_id: 'eq.c1',
      currency: 'eq.EUR',
      status: 'in.(emis,partiellement_paye)',
      amount_due_cents: 'gt.0',
    });
  });

  it('a supplier invoice: outgoing payments of its supplier, then its debit notes', () => {
    const found = sources('supplier-invoices', supplier);
    expect(found.map((s) => [s.path, s.field])).toEqual([
      ['payments', 'payment_id'],
      ['debit-notes', 'debit_note_id'],
    ]);
    expect(found[0]!.query).toMatchObject({ supplier_id: 'eq.s1', direction: 'eq.outgoing' });
    expect(found[1]!.query).toMatchObject({ supplier_id: 'eq.s1', currency: 'eq.USD' });
  });

  it('a debit note: incoming payments (refunds), then its supplier’s approved invoices', () => {
    const found = sources('debit-notes', supplier);
    expect(found.map((s) => [s.path, s.field])).toEqual([
      ['payments', 'payment_id'],
      ['supplier-invoices', 'supplier_invoice_id'],
    ]);
    expect(found[0]!.query.direction).toBe('eq.incoming');
    expect(found[1]!.query.status).toBe('in.(approuve,partiellement_paye)');
  });

  it('nothing for what is not a settled document; the payments’ directions read from the sides', () => {
    expect(sources('payments', customer)).toEqual([]);
    expect(sources('sales-orders', customer)).toEqual([]);
    expect(sources('journal-entries', customer)).toEqual([]);
    // Were payments to debit the party both ways, a credit note would take either, an invoice none.
    const oneWay: ResourceInfo = {
      ...resource('payments'),
      books: {
        ...resource('payments').books,
        partySide: { field: 'direction', sides: { incoming: 'debit', outgoing: 'debit' } },
      },
    };
    const altered = {
      ...catalogue,
      resources: catalogue.resources.map((r) => (r.name === 'payment' ? oneWay : r)),
    };
    const noted = settlingSources(altered, resource('credit-notes'), allocations, customer);
    expect(noted[0]?.query.direction).toBe('in.(incoming,outgoing)');
    expect(
      settlingSources(altered, resource('invoices'), allocations, customer).map((s) => s.field),
    ).toEqual(['credit_note_id']);
  });

  it('names the choice', () => {
    const found = settlingSources(catalogue, resource('invoices'), allocations, customer);
    expect(sourcesNoun(found)).toBe('payment or credit note');
    expect(sourcesNoun(found.slice(0, 1))).toBe('payment');
  });
});
