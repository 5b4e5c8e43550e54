import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../records/catalogue';
import info from '../records/catalogue.gen.json';
import type { CatalogueInfo } from '../records/catalogue-types';
import {
  booksResource,
  entryState,
  isSettleable,
  postedState,
  postingLink,
  postingsFilter,
  referenceTo,
} from './books-catalogue';

const described = info as unknown as CatalogueInfo;
const catalogue: Catalogue = {
  ...described,
  byPath: new Map(described.resources.map((r) => [r.path, r])),
  byName: new Map(described.resources.map((r) => [r.name, r])),
};
const resource = (path: string) => catalogue.byPath.get(path)!;

describe('the books as the catalogue describes them', () => {
  it('finds the entries, payments and allocations by their role', () => {
    expect(booksResource(catalogue, 'entry')?.path).toBe('journal-entries');
    expect(booksResource(catalogue, 'payment')?.path).toBe('payments');
    expect(booksResource(catalogue, 'allocation')?.path).toBe('payment-allocations');
  });

  it('filters a document’s entries by its column, or by its source type and id', () => {
    const invoice = postingLink(catalogue, resource('invoices'))!;
    expect(postingsFilter(invoice, 'i1')).toEqual({ invoice_id: 'eq.i1' });
    const payment = postingLink(catalogue, resource('payments'))!;
    expect(postingsFilter(payment, 'p1')).toEqual({ payment_id: 'eq.p1' });
    const note = postingLink(catalogue, resource('credit-notes'))!;
    expect(postingsFilter(note, 'c1')).toEqual({
      source_type: 'eq.credit_note',
      source_id: 'eq.c1',
    });
    // Allocations post write-offs under their own source type, without a posting rule.
    const allocation = postingLink(catalogue, resource('payment-allocations'))!;
    expect(postingsFilter(allocation, 'a1')).toEqual({
      source_type: 'eq.payment_allocation',
      source_id: 'eq.a1',
    });
    expect(postingLink(catalogue, resource('sales-orders'))).toBeUndefined();
    expect(postingLink(catalogue, resource('journal-entries'))).toBeUndefined();
  });

  it('names the allocation field of each settled document and its party', () => {
    const allocations = resource('payment-allocations');
    expect(referenceTo(allocations, resource('invoices'))?.name).toBe('invoice_id');
    expect(referenceTo(allocations, resource('supplier-invoices'))?.name).toBe(
      'supplier_invoice_id',
    );
    expect(referenceTo(allocations, resource('payments'))?.name).toBe('payment_id');
    expect(resource('invoices').books?.party).toBe('customer_id');
    expect(resource('supplier-invoices').books?.party).toBe('supplier_id');
    // A payment's party depends on its direction: none is named.
    expect(resource('payments').books?.party).toBeUndefined();
  });

  it('knows the posted state and which documents may still be settled', () => {
    const entries = resource('journal-entries');
    expect(postedState(entries)).toBe('comptabilise');
    expect(postedState(resource('payments'))).toBe('comptabilise');
    const invoices = resource('invoices');
    expect(isSettleable(invoices, 'emis')).toBe(true);
    expect(isSettleable(invoices, 'partiellement_paye')).toBe(true);
    expect(isSettleable(invoices, 'paye')).toBe(false);
    expect(isSettleable(invoices, 'brouillon')).toBe(false);
    expect(isSettleable(resource('supplier-invoices'), 'approuve')).toBe(true);
    expect(isSettleable(resource('sales-orders'), 'confirme')).toBe(false);
    expect(entryState(entries, { status: 'comptabilise', posted_at: 'x' })).toBe('posted');
    expect(entryState(entries, { status: 'annule', posted_at: 'x' })).toBe('reversed');
    expect(entryState(entries, { status: 'brouillon', posted_at: null })).toBe('brouillon');
  });
});
