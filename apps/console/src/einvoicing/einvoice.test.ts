import { ApiError } from '@erp/sdk';
import { describe, expect, it } from 'vitest';
import {
  centsToEuros,
  draftPage,
  eurosToCents,
  failedRules,
  hasEInvoice,
  importContentType,
  newSupplierLink,
  ruleText,
  unknownSupplier,
} from './einvoice';

describe('e-invoices in the console', () => {
  it('offers an issued document’s e-invoice, not a draft’s or a cancelled one’s', () => {
    expect(hasEInvoice('emis')).toBe(true);
    expect(hasEInvoice('partiellement_paye')).toBe(true);
    expect(hasEInvoice('paye')).toBe(true);
    expect(hasEInvoice('brouillon')).toBe(false);
    expect(hasEInvoice('annule')).toBe(false);
    expect(hasEInvoice(undefined)).toBe(false);
  });

  it('sends a PDF as application/pdf, anything else as XML', () => {
    expect(importContentType({ name: 'F-2026-001.PDF', type: '' })).toBe('application/pdf');
    expect(importContentType({ name: 'facture', type: 'application/pdf' })).toBe('application/pdf');
    expect(importContentType({ name: 'invoice.xml', type: 'text/xml' })).toBe('application/xml');
    expect(importContentType({ name: 'ubl', type: '' })).toBe('application/xml');
  });

  it('finds the draft’s page from Location, else from the body', () => {
    expect(draftPage('/api/v1/supplier-invoices/0193-ab', {})).toBe(
      '/records/supplier-invoices/0193-ab',
    );
    expect(draftPage('/api/v1/debit-notes/x1', undefined)).toBe('/records/debit-notes/x1');
    expect(draftPage(null, { id: 'a', supplier_invoice_number: 'N' })).toBe(
      '/records/supplier-invoices/a',
    );
    expect(draftPage(null, { id: 'b', debit_note_date: '2026-01-01' })).toBe(
      '/records/debit-notes/b',
    );
    expect(draftPage('/elsewhere', null)).toBeUndefined();
  });

  it('reads a refusal’s rules, without the id their text repeats', () => {
    const error = new ApiError('facture_electronique_invalide', 'The e-invoice fails 2 rules.', {
      rules: [
        { id: 'BR-CO-15', text: '[BR-CO-15]-Invoice total amount with VAT (BT-112) = …' },
        { id: 'BR-CO-16', text: 'Amount due for payment (BT-115) = …' },
      ],
    });
    const rules = failedRules(error);
    expect(rules.map((r) => r.id)).toEqual(['BR-CO-15', 'BR-CO-16']);
    expect(ruleText(rules[0]!)).toBe('Invoice total amount with VAT (BT-112) = …');
    expect(ruleText(rules[1]!)).toBe('Amount due for payment (BT-115) = …');
    expect(failedRules(new ApiError('conflit', 'x'))).toEqual([]);
  });

  it('names the unknown seller and links to its creation, the VAT number compacted', () => {
    const error = new ApiError('facture_electronique_invalide', 'No supplier…', {
      rules: [],
      supplier: {
        name: 'De Koksmaat',
        vat_number: 'NL8200.98.395.B.01',
        registration_number: null,
        country_code: 'NL',
      },
    });
    const supplier = unknownSupplier(error)!;
    expect(supplier.name).toBe('De Koksmaat');
    expect(newSupplierLink(supplier)).toBe(
      '/records/suppliers/new?name=De+Koksmaat&vat_number=NL820098395B01&country_code=NL',
    );
    expect(unknownSupplier(new ApiError('facture_electronique_invalide', 'x', {}))).toBe(undefined);
  });

  it('converts the share capital’s euros to exact cents, by strings', () => {
    const cents = (typed: string) => {
      const answer = eurosToCents(typed);
      return 'cents' in answer ? answer.cents : answer.error;
    };
    expect(cents('50000')).toBe(5_000_000n);
    expect(cents('50 000.5')).toBe(5_000_050n);
    expect(cents('50\u202f000,25')).toBe(5_000_025n);
    expect(cents('1,250')).toBe(125_000n);
    expect(cents('1,250,000.10')).toBe(125_000_010n);
    expect(cents('0.1')).toBe(10n);
    expect(cents('.5')).toMatch(/^an amount/);
    expect(cents('90071992547409.91')).toBe(9_007_199_254_740_991n);
    expect(cents('90071992547409.92')).toBe('too large an amount');
    expect(cents('12.345')).toMatch(/^at most two decimals/);
    expect(cents('-5')).toMatch(/^an amount/);
    expect(cents('12a')).toMatch(/^an amount/);
    expect(centsToEuros(5_000_000)).toBe('50000.00');
    expect(centsToEuros(5)).toBe('0.05');
    expect(centsToEuros(0)).toBe('0.00');
  });
});
