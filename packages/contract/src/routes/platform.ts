import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import { API_DOCUMENTS } from '../openapi-tags';
import { listOf } from '../schemas/common';
import { PlatformLeadBodySchema, PlatformLeadSchema } from '../schemas/leads';
import {
  PlanSchema,
  ProvisionedTenantSchema,
  ProvisioningHeadersSchema,
  ProvisionTenantBodySchema,
  SubscriptionChangeBodySchema,
  SubscriptionSchema,
} from '../schemas/plans';
import { INTERNAL, jsonBody, jsonResponse } from './helpers';

const plansResponse = {
  200: jsonResponse(listOf(PlanSchema), 'The public plans, cheapest first.'),
  ...errorResponses('introuvable'),
};

export const listPublicPlans = createRoute({
  operationId: 'listPublicPlans',
  method: 'get',
  path: '/api/v1/public/subscription-plans',
  tags: ['Public'],
  summary: 'The subscription plans',
  description: 'No authentication. 404 when `PUBLIC_ENDPOINTS_ENABLED` is false.',
  responses: plansResponse,
});

export const listPublicPlansAlias = createRoute({
  operationId: 'listPublicPlansAlias',
  method: 'get',
  path: '/api/v1/public/plans',
  tags: ['Public'],
  summary: 'The subscription plans (alias)',
  description: 'Same as `GET /api/v1/public/subscription-plans`.',
  responses: plansResponse,
});

const internalErrors = ['requete_invalide', 'non_authentifie', 'cle_api_invalide'] as const;

export const provisionTenant = createRoute({
  operationId: 'provisionTenant',
  method: 'post',
  path: '/api/v1/internal/tenants',
  tags: ['Internal'],
  summary: 'Provision a tenant and its first admin',
  description:
    'Server-to-server (`X-API-Key: SAAS_INTERNAL_API_KEY`). 201: created; without `admin.password`, a generated one is in the answer, shown once. The admin is an account of its person (SPEC §3): an e-mail that already has an account keeps its password and name (the ones given are ignored), and the answer is the same whether it existed or not. With an `Idempotency-Key` already used for a tenant of the same slug: 200 with that tenant and its first admin (never a password), nothing changed. A slug taken by another provisioning, or a known key with another slug: `conflit` (unless `on_slug_taken: suffix`).',
  security: [INTERNAL],
  request: { headers: ProvisioningHeadersSchema, body: jsonBody(ProvisionTenantBodySchema) },
  responses: {
    201: jsonResponse(ProvisionedTenantSchema, 'The tenant and its admin.'),
    200: jsonResponse(
      ProvisionedTenantSchema,
      'A replay (known `Idempotency-Key`): the tenant as it is now and its first admin, without password.',
    ),
    ...errorResponses(...internalErrors, 'conflit'),
  },
});

export const changeSubscription = createRoute({
  operationId: 'changeSubscription',
  method: 'post',
  path: '/api/v1/internal/subscriptions',
  tags: ['Internal'],
  summary: "Record a subscription change and apply it to the tenant's plan and modules",
  description:
    'Idempotent per (provider, provider_subscription_id). Active or trialing: the plan’s modules; otherwise none. Providers do not order their deliveries: a change whose `event_at` is older than the one already applied to this subscription writes nothing and answers 200 with `applied: false` and the stored, newer state (an equal `event_at` is applied again; without `event_at` the change is always applied). A subscription stays with the tenant it was first recorded for: the same provider subscription for another tenant is `conflit`.',
  security: [INTERNAL],
  request: { body: jsonBody(SubscriptionChangeBodySchema) },
  responses: {
    200: jsonResponse(SubscriptionSchema, 'The subscription as stored.'),
    ...errorResponses(...internalErrors, 'introuvable', 'conflit'),
  },
});

export const recordLead = createRoute({
  operationId: 'recordLead',
  method: 'post',
  path: '/api/v1/internal/leads',
  tags: ['Internal'],
  summary: 'Record a contact or demo request forwarded by landing',
  description:
    "Server-to-server (`X-API-Key: SAAS_INTERNAL_API_KEY`). Idempotent by the lead's `id`: a replay answers 200 with the row stored the first time and writes nothing.",
  security: [INTERNAL],
  request: { body: jsonBody(PlatformLeadBodySchema) },
  responses: {
    201: jsonResponse(PlatformLeadSchema, 'The lead, stored.'),
    200: jsonResponse(PlatformLeadSchema, 'A replay: the lead as first stored.'),
    ...errorResponses(...internalErrors),
  },
});

export const health = createRoute({
  operationId: 'getHealth',
  method: 'get',
  path: '/api/v1/health',
  tags: ['System'],
  summary: 'Liveness',
  description:
    'No authentication. 200 while the process serves requests; it does not ask the database (see `GET /api/v1/ready`).',
  responses: {
    200: jsonResponse(z.object({ status: z.literal('ok') }), 'The process answers.'),
    ...errorResponses(),
  },
});

export const ready = createRoute({
  operationId: 'getReadiness',
  method: 'get',
  path: '/api/v1/ready',
  tags: ['System'],
  summary: 'Readiness: the database answers',
  description:
    'No authentication. 200 once the database answers a query, 503 while it does not: a load balancer sends traffic only to a ready portal.',
  responses: {
    200: jsonResponse(z.object({ status: z.literal('ok') }), 'Ready for traffic.'),
    503: jsonResponse(
      z.object({ status: z.literal('unavailable') }),
      'The database does not answer.',
    ),
    ...errorResponses(),
  },
});

export const openapiDocument = createRoute({
  operationId: 'getOpenApiDocument',
  method: 'get',
  path: '/api/v1/openapi.json',
  tags: ['System'],
  summary: 'This OpenAPI 3.1 document',
  description:
    'No authentication. The whole contract, every module and the webhooks, as committed with the code (`packages/contract/openapi.json`). One document per module is served beside it (`GET /api/v1/openapi/{module}.json`).',
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()), 'The document.'),
    ...errorResponses(),
  },
});

export const moduleOpenapiDocument = createRoute({
  operationId: 'getModuleOpenApiDocument',
  method: 'get',
  path: '/api/v1/openapi/{document}',
  tags: ['System'],
  summary: 'One part of this document: the platform or a module',
  description:
    'No authentication. The operations of the platform or of one module (the webhooks with the platform), with only the components they use: a valid OpenAPI 3.1 document, a fraction of the whole, which the reference loads one at a time. Cut from the served `/api/v1/openapi.json`, so the two never disagree.',
  request: {
    params: z.object({
      document: z
        .enum(API_DOCUMENTS.map((name) => `${name}.json`) as [string, ...string[]])
        .openapi({
          description: 'The part: `platform.json` or a module’s.',
          example: 'sales.json',
        }),
    }),
  },
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()), 'The part, an OpenAPI 3.1 document.'),
    ...errorResponses('requete_invalide'),
  },
});

export const apiReference = createRoute({
  operationId: 'getApiReference',
  method: 'get',
  path: '/api/v1/docs',
  tags: ['System'],
  summary: 'This API reference, for a browser',
  description:
    'An interactive reference (Scalar) over `/api/v1/openapi.json`, webhooks included. Every asset comes from the portal itself: nothing is loaded from another host.',
  responses: {
    200: {
      description: 'The page; its script and the document follow from the same origin.',
      content: { 'text/html': { schema: z.string() } },
    },
    ...errorResponses(),
  },
});
