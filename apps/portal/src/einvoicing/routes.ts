import { ApiError, routes } from '@erp/contract';
import { clientAddress, mediaType } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { requireRight, secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, actorOf, callerOf, tenantOf } from '../http/context';
import { requireAdminSession } from '../identity';
import { readCompany, updateCompany } from './company';
import { type IssuedDocument, issuedDocument } from './document';
import { checkEInvoice, importEInvoice, importedFile } from './import';
import { einvoicingLibrary } from './library';

const ACCEPTED = new Set(['application/xml', 'text/xml', 'application/pdf']);

/** Settings → Company and the e-invoices both ways (SPEC §20). */
export function registerEInvoicingRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(secure(routes.getCompanySettings, deps), async (c) => {
    const caller = callerOf(c);
    const tenant = tenantOf(caller);
    requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
    return c.json(
      await deps.tenantDb.run(tenant.id, (client) => readCompany(client, tenant.id)),
      200,
    );
  });
  app.openapi(secure(routes.updateCompanySettings, deps), async (c) => {
    const actor = requireAdminSession(callerOf(c), clientAddress(c, deps.env.TRUST_PROXY));
    requireRight({ rights: callerOf(c).rights, modules: actor.tenant.modules }, 'accounting:write');
    const body = c.req.valid('json');
    return c.json(
      await deps.tenantDb.transaction(actor.tenant.id, (client) =>
        updateCompany(client, actor.tenant.id, body),
      ),
      200,
    );
  });

  const documents: [typeof routes.getInvoiceEInvoice, IssuedDocument][] = [
    [routes.getInvoiceEInvoice, 'invoices'],
    [routes.getCreditNoteEInvoice, 'credit-notes'],
  ];
  for (const [route, kind] of documents) {
    app.openapi(secure(route, deps), async (c) => {
      const caller = callerOf(c);
      const tenant = tenantOf(caller);
      requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
      const { id } = c.req.valid('param');
      const { format } = c.req.valid('query');
      const model = await deps.tenantDb.run(tenant.id, (client) =>
        issuedDocument(client, tenant.id, kind, id.toLowerCase()),
      );
      const { facturxPdf, toCii, toUbl } = await einvoicingLibrary();
      const name = model.number.replace(/[^A-Za-z0-9._-]+/g, '_');
      const headers = (type: string, file: string) => ({
        'Content-Type': type,
        'Content-Disposition': `attachment; filename="${file}"`,
        'Cache-Control': 'no-store',
      });
      if (format === 'ubl')
        return c.body(
          toUbl(model),
          200,
          headers('application/xml; charset=utf-8', `${name}-ubl.xml`),
        );
      const cii = toCii(model);
      if (format === 'cii')
        return c.body(cii, 200, headers('application/xml; charset=utf-8', `${name}-cii.xml`));
      const pdf = await facturxPdf(model, cii);
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, headers('application/pdf', `${name}.pdf`));
    });
  }

  app.openapi(secure(routes.importSupplierInvoice, deps), async (c) => {
    const caller = callerOf(c);
    const tenant = tenantOf(caller);
    requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:write');
    const type = mediaType(c.req.header('content-type') ?? '').essence;
    if (!ACCEPTED.has(type))
      throw new ApiError(
        'requete_invalide',
        'Send the e-invoice as application/xml or application/pdf.',
        {
          issues: [
            {
              location: 'header',
              path: 'content-type',
              code: 'invalid_type',
              message: 'Expected application/xml or application/pdf',
            },
          ],
        },
      );
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (!bytes.length)
      throw new ApiError('requete_invalide', 'The body is empty: send the e-invoice file.', {
        issues: [{ location: 'body', path: '', code: 'too_small', message: 'The file is empty' }],
      });
    const checked = await checkEInvoice({ bytes, mediaType: type });
    const result = await deps.tenantDb.transaction(tenant.id, (client) =>
      importEInvoice(client, tenant.id, checked, actorOf(caller)),
    );
    c.header('Location', `/api/v1/${result.resource.path}/${result.id}`);
    if (result.etag) c.header('ETag', result.etag);
    return c.body(result.body ?? '', 201, { 'Content-Type': 'application/json' }) as never;
  });

  const originals: [typeof routes.getSupplierInvoiceEInvoice, 'supplier_invoice' | 'debit_note'][] =
    [
      [routes.getSupplierInvoiceEInvoice, 'supplier_invoice'],
      [routes.getDebitNoteEInvoice, 'debit_note'],
    ];
  for (const [route, type] of originals) {
    app.openapi(secure(route, deps), async (c) => {
      const caller = callerOf(c);
      const tenant = tenantOf(caller);
      requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
      const { id } = c.req.valid('param');
      const file = await deps.tenantDb.run(tenant.id, (client) =>
        importedFile(client, tenant.id, type, id.toLowerCase()),
      );
      if (!file)
        throw new ApiError('introuvable', 'This document was not imported from an e-invoice.', {
          id,
        });
      return c.body(new Uint8Array(file.content) as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': file.mediaType,
        'Content-Disposition': `attachment; filename="${file.name}"`,
        'X-Content-SHA256': file.sha256,
        'Cache-Control': 'no-store',
      }) as never;
    });
  }
}
