/**
 * Compile-time checks of files both ways (SPEC §20), run by `pnpm typecheck` (tsc): `raw` is the
 * body of a route that takes a file, `parseAs: 'bytes'` types the answer as bytes, the helpers'
 * results and their error's `params.rules` are typed.
 */
import { expectTypeOf } from 'vitest';
import {
  type components,
  createClient,
  EInvoiceError,
  type EInvoiceRule,
  einvoice,
  importEInvoice,
  originalEInvoice,
} from '../src/index';

type Schemas = components['schemas'];
const client = createClient({ baseUrl: 'https://portal.test', apiKey: 'k', tenantId: 'demo' });

export async function bytesAndRawBodies() {
  const pdf = await client.get('/api/v1/invoices/{id}/einvoice', {
    path: { id: 'x' },
    query: { format: 'facturx' },
    parseAs: 'bytes',
  });
  if (pdf.data) expectTypeOf(pdf.data).toEqualTypeOf<Uint8Array>();
  const xml = await client.get('/api/v1/invoices/{id}/einvoice', {
    path: { id: 'x' },
    query: { format: 'ubl' },
  });
  if (xml.data) expectTypeOf(xml.data).toEqualTypeOf<string>();
  // A JSON route read as text or bytes.
  const me = await client.get('/api/v1/me', { parseAs: 'text' });
  if (me.data) expectTypeOf(me.data).toEqualTypeOf<string>();

  const imported = await client.post('/api/v1/supplier-invoices/import', {
    raw: new Uint8Array([1]),
    headers: { 'content-type': 'application/xml' },
  });
  if (imported.data)
    expectTypeOf(imported.data).toEqualTypeOf<Schemas['SupplierInvoice'] | Schemas['DebitNote']>();
  // @ts-expect-error the route takes a file: `raw`, not a JSON body
  await client.post('/api/v1/supplier-invoices/import', { body: '<Invoice/>' });
  // @ts-expect-error the file is required
  await client.post('/api/v1/supplier-invoices/import', {});
  // @ts-expect-error a JSON route takes no raw body
  await client.post('/api/v1/customers', { raw: '{}', body: { name: 'x' } });
  // @ts-expect-error not a way of reading
  await client.get('/api/v1/me', { parseAs: 'blob' });
  // @ts-expect-error pages are JSON
  client.pages('/api/v1/customers', { parseAs: 'bytes' });
}

export async function helpers() {
  const file = await einvoice(client, { document: 'invoices', id: 'x', format: 'cii' });
  expectTypeOf(file.bytes).toEqualTypeOf<Uint8Array>();
  expectTypeOf(file.fileName).toEqualTypeOf<string | undefined>();
  // @ts-expect-error not a format
  await einvoice(client, { document: 'credit-notes', id: 'x', format: 'pdf' });
  // @ts-expect-error supplier documents are not issued here: their original is
  await einvoice(client, { document: 'supplier-invoices', id: 'x' });
  const original = await originalEInvoice(client, { document: 'debit-notes', id: 'x' });
  expectTypeOf(original.sha256).toEqualTypeOf<string | undefined>();

  const imported = await importEInvoice(client, '<Invoice/>');
  if (imported.type === 'supplier_invoice')
    expectTypeOf(imported.record).toEqualTypeOf<Schemas['SupplierInvoice']>();
  else expectTypeOf(imported.record).toEqualTypeOf<Schemas['DebitNote']>();
  try {
    await importEInvoice(client, new Blob(['%PDF-']), 'application/pdf');
  } catch (error) {
    if (error instanceof EInvoiceError) {
      expectTypeOf(error.code).toEqualTypeOf<'facture_electronique_invalide'>();
      expectTypeOf(error.params.rules).toEqualTypeOf<EInvoiceRule[]>();
    }
  }
}
