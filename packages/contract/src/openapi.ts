import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorSchema, errorResponseComponents } from './errors';
import { servedResources } from './goods/stock-views';
import { tagGroups } from './openapi-tags';
import type { Resource } from './registry/define';
import { lookupOf } from './registry/embeds';
import { eventFeedRoute } from './registry/feed';
import { ETAG_HEADER, SHARED_PARAMETERS } from './registry/parameters';
import { resourceRoutes } from './registry/routes';
import { registerWebhooks } from './registry/webhooks-section';
import { routes } from './routes/index';

export const API_VERSION = '1.0.0';

/** The OpenAPI 3.1 document of every route in the contract (no server needed). */
export function buildOpenApiDocument(resources: readonly Resource[] = servedResources) {
  const registry = new OpenAPIRegistry();
  registry.register('Error', ErrorSchema);
  registry.registerComponent('securitySchemes', 'session', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from `POST /api/v1/auth/login`; send the tenant in `X-Tenant`.',
  });
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'service_live_<prefix>_<secret>',
    description:
      'Tenant-bound API key from Settings → API keys; send the tenant in `X-Tenant-ID`. Refused when an `Origin` header is present. 600 requests per minute by default.',
  });
  registry.registerComponent('securitySchemes', 'internalApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      'Shared server-to-server key (`SAAS_INTERNAL_API_KEY`), compared in constant time.',
  });
  for (const [name, schema] of Object.entries(SHARED_PARAMETERS))
    registry.registerParameter(name, schema);
  registry.registerComponent('headers', 'ETag', ETAG_HEADER);
  for (const route of Object.values(routes)) registry.registerPath(route);
  registry.registerPath(eventFeedRoute(resources));
  const lookup = lookupOf(resources);
  for (const resource of resources) {
    for (const { route } of resourceRoutes(resource, lookup)) registry.registerPath(route);
  }
  registerWebhooks(registry, resources);
  // Error responses become components as routes ask for them: registered once all are built.
  for (const [name, response] of errorResponseComponents())
    registry.registerComponent('responses', name, response);

  const groups = tagGroups(resources);
  const generator = new OpenApiGeneratorV31(registry.definitions);
  const { openapi, info, servers, ...rest } = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'ERP business API',
      version: API_VERSION,
      description:
        'Multi-tenant business API. Every error is `{code, params, message}`; every response carries `X-Request-Id`.',
      // Self-hosted: whoever runs the portal answers for it, not a vendor's address.
      contact: { name: 'The operator of this portal' },
    },
    servers: [{ url: '/' }],
  });
  // Declared tags (descriptions, display names) and their groups by module, Scalar's sidebar.
  return {
    openapi,
    info,
    servers,
    tags: groups.flatMap((g) => g.tags),
    'x-tagGroups': groups.map((g) => ({ name: g.title, tags: g.tags.map((t) => t.name) })),
    ...rest,
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
