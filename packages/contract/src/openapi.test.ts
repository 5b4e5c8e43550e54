import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { catalogue } from './catalogue/index';
import { errorCatalogue } from './errors';
import { buildOpenApiDocument } from './openapi';
import { openApiText } from './openapi-text';
import { eventCatalogue } from './registry/events';

const document = buildOpenApiDocument();

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
    // ~1.5 s alone; 8.5 s seen with every suite running at once on two cores (pnpm test).
  }, 120_000);

  it('matches the committed openapi.json (run `pnpm codegen` after changing the contract)', () => {
    const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');
    expect(JSON.parse(committed)).toEqual(JSON.parse(JSON.stringify(document)));
    // The portal serves these very bytes: the file is as `pnpm codegen` writes it, not reformatted.
    // (Key order is left out above: the generator's order of components follows module load order.)
    expect(openApiText(JSON.parse(committed)) === committed, 'openapi.json reformatted').toBe(true);
  });

  it('declares the three security schemes and the error object', () => {
    expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual([
      'apiKey',
      'internalApiKey',
      'session',
    ]);
    const error = document.components?.schemas?.Error as {
      properties: { code: { enum: string[] } };
    };
    expect(error.properties.code.enum.sort()).toEqual(Object.keys(errorCatalogue).sort());
  });

  it('gives every operation an error response and a summary', () => {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(
        item as Record<string, { summary?: string; responses: object }>,
      )) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(
          Object.keys(op.responses).some((s) => s.startsWith('4') || s.startsWith('5')),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
  });

  it('keeps named components non-null: `.nullable()` belongs to the property that allows null', () => {
    // A nullable registered schema renames its wrapper: the component itself became nullable,
    // so every other use of it (GET /me's memberships[].tenant) was documented as maybe null.
    const nullable = Object.entries(document.components?.schemas ?? {})
      .filter(([, schema]) => {
        const type = (schema as { type?: unknown }).type;
        return Array.isArray(type) && type.includes('null');
      })
      .map(([name]) => name);
    expect(nullable).toEqual([]);
  });
});

describe('operation ids and tags', () => {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId?: string; tags?: string[] }>).map(
      ([method, op]) => ({ at: `${method} ${path}`, ...op }),
    ),
  );

  it('names every operation once, in camelCase (client generators name methods from it)', () => {
    const ids = operations.map((op) => op.operationId ?? `(none: ${op.at})`);
    expect(ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('declares every tag once, with a description, each in exactly one group', () => {
    const declared = document.tags.map((t) => t.name);
    expect(new Set(declared).size).toBe(declared.length);
    expect(document.tags.filter((t) => !t.description)).toEqual([]);
    const used = new Set(operations.flatMap((op) => op.tags ?? []));
    expect([...used].filter((t) => !declared.includes(t))).toEqual([]);
    expect(declared.filter((t) => !used.has(t) && t !== 'Webhooks')).toEqual([]);
    const grouped = document['x-tagGroups'].flatMap((g) => g.tags);
    expect(grouped.sort()).toEqual([...declared].sort());
  });
});

describe('the webhooks section', () => {
  const webhooks =
    (document as { webhooks?: Record<string, { post: Record<string, unknown> }> }).webhooks ?? {};
  const schemas = document.components?.schemas as Record<string, Record<string, unknown>>;
  const bodyRef = (name: string) =>
    (
      webhooks[name]?.post.requestBody as
        | { content: { 'application/json': { schema: { $ref: string } } } }
        | undefined
    )?.content['application/json'].schema.$ref;

  it('has one webhook per catalogue event, and the test delivery', () => {
    expect(Object.keys(webhooks).sort()).toEqual(
      [...eventCatalogue(catalogue).map((e) => e.name), 'webhook.test'].sort(),
    );
  });

  it('names one payload per event, whose data.object references the record component', () => {
    expect(bodyRef('sales_order.created')).toBe('#/components/schemas/SalesOrderCreatedEvent');
    const created = schemas.SalesOrderCreatedEvent as {
      required: string[];
      properties: { type: { enum: string[] }; data: { properties: Record<string, unknown> } };
    };
    expect(created.required.sort()).toEqual(
      ['created_at', 'data', 'delivery_id', 'id', 'sequence', 'tenant_id', 'type'].sort(),
    );
    expect(created.properties.type.enum).toEqual(['sales_order.created']);
    // SPEC §12: the feed's sequence, one component; a test delivery has none.
    expect((created.properties as Record<string, unknown>).sequence).toEqual({
      $ref: '#/components/schemas/EventSequence',
    });
    expect((schemas.WebhookTestEvent as { required: string[] }).required).not.toContain('sequence');
    expect(created.properties.data.properties).toEqual({
      object: { $ref: '#/components/schemas/SalesOrder' },
    });
  });

  it('adds previous_status and the action to status changes and approval steps', () => {
    const approved = schemas.PurchaseOrderApprovedEvent as {
      properties: {
        data: { properties: { previous_status: { enum: string[] }; action: { enum: string[] } } };
      };
    };
    expect(approved.properties.data.properties.action.enum).toEqual(['approve']);
    expect(approved.properties.data.properties.previous_status.enum).toContain(
      'en_attente_approbation',
    );
    const changed = schemas.SalesOrderStatusChangedEvent as {
      properties: { data: { properties: { action: { enum: string[] } } } };
    };
    expect(changed.properties.data.properties.action.enum.sort()).toEqual(
      ['cancel', 'confirm', 'deliver', 'follow', 'invoice'].sort(),
    );
  });

  it('documents the delivery headers once, referenced by every webhook', () => {
    const names = Object.values(
      document.components?.parameters as Record<string, { name: string; in: string }>,
    )
      .filter((p) => p.in === 'header' && /^(x-service-|webhook-)/i.test(p.name))
      .map((p) => p.name);
    expect(names.sort()).toEqual(
      [
        'X-Service-Event',
        'X-Service-Delivery-Id',
        'X-Service-Timestamp',
        'X-Service-Webhook-Version',
        'X-Service-Signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ].sort(),
    );
    for (const [name, item] of Object.entries(webhooks)) {
      expect(item.post.parameters, name).toHaveLength(8);
    }
  });
});

describe('the event feed (SPEC §12)', () => {
  const operation = document.paths?.['/api/v1/events']?.get as {
    parameters: { name: string; in: string }[];
    responses: Record<string, { content?: { 'application/json': { schema: { $ref: string } } } }>;
  };
  const page = document.components?.schemas?.EventFeedPage as {
    required: string[];
    properties: {
      next_cursor: { type: string };
      data: { items: { anyOf: { $ref: string }[] } };
    };
  };

  it('takes after, type and page_size, and answers EventFeedPage', () => {
    expect(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual([
      'after',
      'type',
      'page_size',
    ]);
    expect(operation.responses['200']!.content!['application/json'].schema.$ref).toBe(
      '#/components/schemas/EventFeedPage',
    );
    expect(page.required.sort()).toEqual(['data', 'has_more', 'next_cursor']);
    expect(page.properties.next_cursor.type).toBe('string'); // never null
  });

  it('types every item: each feed event name in exactly one item schema, with its sequence', () => {
    const names: string[] = [];
    for (const { $ref } of page.properties.data.items.anyOf) {
      const item = document.components!.schemas![$ref.split('/').pop()!] as {
        required: string[];
        properties: { type: { enum: string[] } };
      };
      expect(item.required).toContain('sequence');
      names.push(...item.properties.type.enum);
    }
    expect(names.sort()).toEqual(catalogue.flatMap((r) => r.feedEventNames).sort());
  });
});
