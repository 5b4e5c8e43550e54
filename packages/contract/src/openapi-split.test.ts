import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { splitOpenApiDocument } from './openapi-split';
import { API_DOCUMENTS } from './openapi-tags';

/** The parts the reference loads one at a time: together the whole, each valid on its own. */
const whole = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
const parts = API_DOCUMENTS.map((name) => ({ name, part: splitOpenApiDocument(whole, name) }));

type Operations = Record<string, Record<string, { operationId?: string; summary?: string }>>;
const operationIds = (items: Operations = {}) =>
  Object.values(items).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => method !== 'parameters')
      .map(([, op]) => op.operationId ?? op.summary),
  );

describe('the parts of the OpenAPI document', () => {
  it('hold every operation and webhook of the whole exactly once', () => {
    const all = parts.flatMap(({ part }) => operationIds(part.paths as Operations));
    expect(all.sort()).toEqual(operationIds(whole.paths).sort());
    expect(new Set(all).size).toBe(all.length);
    const hooks = parts.flatMap(({ part }) =>
      operationIds((part as { webhooks?: Operations }).webhooks),
    );
    expect(hooks.sort()).toEqual(operationIds(whole.webhooks).sort());
  });

  it('are each valid OpenAPI 3.1: every $ref resolves within the part', async () => {
    for (const { name, part } of parts) {
      const result = await validate(structuredClone(part) as never);
      expect(result.valid ? [] : result.errors, name).toEqual([]);
    }
  });

  it('keep only the components their operations reach, and every security scheme', () => {
    const sales = parts.find((p) => p.name === 'sales')!.part;
    const schemas = Object.keys(sales.components.schemas ?? {});
    expect(schemas).toContain('Quote');
    expect(schemas).toContain('Error');
    // An accounting record no sales operation refers to, and a webhook payload.
    expect(schemas).not.toContain('JournalEntry');
    expect(schemas).not.toContain('SalesOrderCreatedEvent');
    expect(schemas.length).toBeLessThan(Object.keys(whole.components.schemas).length / 5);
    expect(Object.keys(sales.components.securitySchemes ?? {}).sort()).toEqual(
      Object.keys(whole.components.securitySchemes).sort(),
    );
  });

  it('carry their own title, tags and group, the platform part the webhooks', () => {
    const accounting = parts.find((p) => p.name === 'accounting')!.part;
    expect(accounting.info.title).toBe('ERP business API: Accounting');
    // A tag per resource, in alphabetical order, then the module's reports and settings.
    const tags = accounting.tags.map((t) => t.name);
    expect(tags.slice(0, 3)).toEqual(['Accounting periods', 'Accounts', 'Bank accounts']);
    expect(tags).toContain('Invoices');
    expect(tags.slice(-2)).toEqual(['Reports', 'Settings: accounting']);
    expect(accounting['x-tagGroups']).toEqual([{ name: 'Accounting', tags }]);
    expect(accounting.info.description).toContain(
      'The books: accounts, invoices, payments and their allocations',
    );
    expect(accounting).not.toHaveProperty('webhooks');
    const platform = parts.find((p) => p.name === 'platform')!.part as { webhooks?: object };
    expect(Object.keys(platform.webhooks ?? {})).toContain('sales_order.created');
  });

  it('refuses a document without the part’s tag group', () => {
    expect(() => splitOpenApiDocument({ ...whole, 'x-tagGroups': [] }, 'sales')).toThrow(
      'no tag group Sales (sales)',
    );
  });
});
