import { describe, expect, it } from 'vitest';
import { createRegistry } from '../registry/define';
import { lookupOf } from '../registry/embeds';
import { eventCatalogue } from '../registry/events';
import { inputSchema } from '../registry/field-types';
import { type Field, USER } from '../registry/fields';
import { resourceRoutes } from '../registry/routes';
import { BUSINESS_EVENT_NAMES, type BusinessEventName, catalogue } from './index';

/** The 27 business events of SPEC §7: the catalogue must record exactly these. */
const SPEC_EVENT_NAMES = [
  'quote.created',
  'quote.status_changed',
  'sales_order.created',
  'sales_order.status_changed',
  'delivery.created',
  'delivery.status_changed',
  'invoice.created',
  'invoice.status_changed',
  'credit_note.created',
  'credit_note.status_changed',
  'payment.created',
  'purchase_order.created',
  'purchase_order.status_changed',
  'purchase_order.approval_requested',
  'purchase_order.approved',
  'purchase_order.rejected',
  'goods_receipt.created',
  'goods_receipt.status_changed',
  'supplier_invoice.created',
  'supplier_invoice.status_changed',
  'supplier_invoice.approved',
  'production_order.created',
  'production_order.status_changed',
  'expense_report.created',
  'expense_report.approved',
  'expense_report.rejected',
  'lead.created',
] as const;

// The same 27 at the type level: the declarations' literal event names are exactly the SPEC's.
type SpecEventName = (typeof SPEC_EVENT_NAMES)[number];
const exactlyTheSpecs: [BusinessEventName] extends [SpecEventName]
  ? [SpecEventName] extends [BusinessEventName]
    ? true
    : false
  : false = true;

const byName = new Map(catalogue.map((r) => [r.name, r]));

describe('the catalogue', () => {
  it('records exactly the 27 events of SPEC §7', () => {
    const names = eventCatalogue(catalogue).map((e) => e.name);
    expect(names).toHaveLength(SPEC_EVENT_NAMES.length);
    expect(new Set(names)).toEqual(new Set(SPEC_EVENT_NAMES));
    expect(new Set(BUSINESS_EVENT_NAMES)).toEqual(new Set(SPEC_EVENT_NAMES));
    expect(exactlyTheSpecs).toBe(true);
  });

  it('gives sales orders the lifecycle of SPEC §6, and nothing more', () => {
    const so = byName.get('sales_order')!;
    expect(so.path).toBe('sales-orders');
    expect(so.lifecycle?.initial).toBe('brouillon');
    expect(new Set(so.states)).toEqual(
      new Set(['brouillon', 'confirme', 'livre', 'facture', 'annule']),
    );
    expect(
      Object.fromEntries(
        Object.entries(so.lifecycle!.actions).map(([a, s]) => [
          a,
          { from: [...s.from].sort(), to: s.to },
        ]),
      ),
    ).toEqual({
      confirm: { from: ['brouillon'], to: 'confirme' },
      deliver: { from: ['confirme'], to: 'livre' },
      invoice: { from: ['livre'], to: 'facture' },
      cancel: { from: ['brouillon', 'confirme'], to: 'annule' },
    });
    expect(so.numbering?.prefix).toBe('SO');
  });

  it('lists referenced resources before the resources referring to them', () => {
    expect(() => createRegistry(catalogue)).not.toThrow();
    const seen = new Set<string>();
    for (const r of catalogue) {
      seen.add(r.name);
      for (const [field, spec] of Object.entries(r.fields)) {
        if (spec.type === 'reference' && spec.resource !== USER)
          expect(seen.has(spec.resource), `${r.name}.${field}`).toBe(true);
        if (spec.type !== 'lines') continue;
        for (const [lineField, lineSpec] of Object.entries(spec.fields)) {
          if (lineSpec.type === 'reference')
            expect(byName.has(lineSpec.resource), `${r.name}.${field}.${lineField}`).toBe(true);
        }
      }
    }
  });

  it('numbers documents with distinct prefixes', () => {
    const prefixes = catalogue.flatMap((r) => (r.numbering ? [r.numbering.prefix] : []));
    expect(prefixes.length).toBeGreaterThanOrEqual(11);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('computes totals only from lines with quantity, unit price and tax rate', () => {
    const withTotals = catalogue.filter((r) => r.totalsFrom);
    // The SPEC's priced documents at least; others (blanket orders, subscriptions…) may join.
    expect(withTotals.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'credit_note',
        'debit_note',
        'expense_report',
        'invoice',
        'purchase_agreement',
        'purchase_order',
        'purchase_return',
        'quote',
        'sales_order',
        'supplier_invoice',
        'supplier_quotation',
      ]),
    );
    for (const r of withTotals) {
      const source = r.fields[r.totalsFrom!];
      if (source?.type !== 'lines') throw new Error(`${r.name}: totals without lines`);
      expect(source.fields.quantity, r.name).toMatchObject({ type: 'decimal', required: true });
      expect(source.fields.unit_price_cents, r.name).toMatchObject({
        type: 'money',
        required: true,
      });
      expect(source.fields.tax_rate, r.name).toMatchObject({
        type: 'decimal',
        required: true,
        min: 0,
        max: 100,
      });
    }
  });

  it('generates every route, with distinct paths and operation ids', () => {
    const operations = new Set<string>();
    const endpoints = new Set<string>();
    for (const r of catalogue) {
      const routes = resourceRoutes(r, lookupOf(catalogue));
      // list, export, create, get, update, delete, history, one per action and per conversion.
      expect(routes).toHaveLength(
        7 + Object.keys(r.lifecycle?.actions ?? {}).length + (r.conversions?.length ?? 0),
      );
      for (const { route } of routes) {
        expect(operations.has(route.operationId!), route.operationId).toBe(false);
        operations.add(route.operationId!);
        endpoints.add(`${route.method} ${route.path}`);
      }
    }
    expect(endpoints.size).toBe(operations.size);
    expect(endpoints.has('post /api/v1/sales-orders/{id}/confirm')).toBe(true);
    expect(endpoints.has('post /api/v1/purchase-orders/{id}/approve')).toBe(true);
    expect(endpoints.has('get /api/v1/sales-orders/{id}/history')).toBe(true);
    expect(endpoints.has('get /api/v1/sales-orders/export')).toBe(true);
  });

  it('gives examples that are valid values of their fields', () => {
    let checked = 0;
    const check = (where: string, fields: Record<string, Field>) => {
      for (const [name, field] of Object.entries(fields)) {
        if (field.type === 'lines') check(`${where}.${name}`, field.fields);
        if (field.example === undefined) continue;
        const result = inputSchema(field).safeParse(field.example);
        expect(result.success, `${where}.${name}: ${JSON.stringify(field.example)}`).toBe(true);
        checked++;
      }
    };
    for (const r of catalogue) check(r.name, r.fields);
    expect(checked).toBeGreaterThan(50);
  });
});
