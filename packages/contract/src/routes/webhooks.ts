import { createRoute } from '@hono/zod-openapi';
import { type ErrorCode, errorResponses } from '../errors';
import { IdParamsSchema, listOf, TenantHeadersSchema } from '../schemas/common';
import {
  DeliveryParamsSchema,
  RECOVER_MAX_DAYS,
  RecoveredWebhookDeliveriesSchema,
  RecoverWebhookDeliveriesBodySchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliveryListQuerySchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
} from '../schemas/webhook-deliveries';
import {
  CreatedWebhookSubscriptionSchema,
  CreateWebhookSubscriptionBodySchema,
  RotatedWebhookSecretSchema,
  RotateWebhookSecretBodySchema,
  UpdateWebhookSubscriptionBodySchema,
  WebhookEventSchema,
  WebhookSubscriptionSchema,
} from '../schemas/webhooks';
import { API_KEY, CALLER_ERRORS, jsonBody, jsonResponse, noContent, SESSION } from './helpers';

/** Settings → Webhooks: sessions and API keys alike, with the right `webhooks` (admins hold it). */
const errors: ErrorCode[] = [...CALLER_ERRORS, 'acces_refuse'];
const base = {
  security: [SESSION, API_KEY],
  tags: ['Settings: webhooks'],
};
const right = 'Needs the right `webhooks` (admins; API keys with the scope `webhooks`).';
const path = '/api/v1/settings/webhooks';
const one = (description: string) => jsonResponse(WebhookSubscriptionSchema, description, true);

const catalogueRoute = (operationId: string, at: string, summary: string, alias: string) =>
  createRoute({
    ...base,
    operationId,
    method: 'get',
    path: at,
    summary,
    description: `${right} ${alias}`,
    request: { headers: TenantHeadersSchema },
    responses: {
      200: jsonResponse(listOf(WebhookEventSchema), 'The events one can subscribe to.', true),
      ...errorResponses(...errors),
    },
  });

export const listWebhookEvents = catalogueRoute(
  'listWebhookEvents',
  `${path}/events`,
  'The event catalogue',
  'Also served at `/settings/webhooks/events`.',
);

export const listWebhookEventsAlias = catalogueRoute(
  'listWebhookEventsAlias',
  '/settings/webhooks/events',
  'The event catalogue (alias)',
  'Same as `GET /api/v1/settings/webhooks/events`.',
);

export const listWebhookSubscriptions = createRoute({
  operationId: 'listWebhookSubscriptions',
  ...base,
  method: 'get',
  path,
  summary: "List the tenant's webhook subscriptions",
  description: `${right} Newest first; never shows a secret.`,
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(listOf(WebhookSubscriptionSchema), 'The subscriptions.', true),
    ...errorResponses(...errors),
  },
});

export const createWebhookSubscription = createRoute({
  operationId: 'createWebhookSubscription',
  ...base,
  method: 'post',
  path,
  summary: 'Subscribe a URL to events',
  description: `${right} The signing secret is in this response only. The subscription is pinned to the current payload version.`,
  request: { headers: TenantHeadersSchema, body: jsonBody(CreateWebhookSubscriptionBodySchema) },
  responses: {
    201: jsonResponse(CreatedWebhookSubscriptionSchema, 'The subscription and its secret.', true),
    ...errorResponses(...errors),
  },
});

export const getWebhookSubscription = createRoute({
  operationId: 'getWebhookSubscription',
  ...base,
  method: 'get',
  path: `${path}/{id}`,
  summary: 'Get a webhook subscription',
  description: right,
  request: { headers: TenantHeadersSchema, params: IdParamsSchema },
  responses: { 200: one('The subscription.'), ...errorResponses(...errors, 'introuvable') },
});

export const updateWebhookSubscription = createRoute({
  operationId: 'updateWebhookSubscription',
  ...base,
  method: 'patch',
  path: `${path}/{id}`,
  summary: 'Change the URL, events, description or state of a subscription',
  description: right,
  request: {
    headers: TenantHeadersSchema,
    params: IdParamsSchema,
    body: jsonBody(UpdateWebhookSubscriptionBodySchema),
  },
  responses: { 200: one('The subscription.'), ...errorResponses(...errors, 'introuvable') },
});

export const deleteWebhookSubscription = createRoute({
  operationId: 'deleteWebhookSubscription',
  ...base,
  method: 'delete',
  path: `${path}/{id}`,
  summary: 'Delete a webhook subscription and its delivery log',
  description: right,
  request: { headers: TenantHeadersSchema, params: IdParamsSchema },
  responses: { 204: noContent, ...errorResponses(...errors, 'introuvable') },
});

export const rotateWebhookSecret = createRoute({
  operationId: 'rotateWebhookSecret',
  ...base,
  method: 'post',
  path: `${path}/{id}/rotate-secret`,
  summary: 'Replace the signing secret',
  description: `${right} Until \`previous_secret_expires_at\`, deliveries are signed with both secrets (the new one first). A rotation during an overlap drops the oldest secret.`,
  request: {
    headers: TenantHeadersSchema,
    params: IdParamsSchema,
    body: { ...jsonBody(RotateWebhookSecretBodySchema), required: false },
  },
  responses: {
    200: jsonResponse(RotatedWebhookSecretSchema, 'The new secret (shown once).', true),
    ...errorResponses(...errors, 'introuvable'),
  },
});

export const testWebhookSubscription = createRoute({
  operationId: 'testWebhookSubscription',
  ...base,
  method: 'post',
  path: `${path}/{id}/test`,
  summary: 'Send a signed test delivery',
  description: `${right} Records a \`webhook.test\` event and queues its delivery to this subscription only. A disabled subscription gets \`conflit\`.`,
  request: { headers: TenantHeadersSchema, params: IdParamsSchema },
  responses: {
    202: jsonResponse(WebhookDeliverySchema, 'The queued delivery.', true),
    ...errorResponses(...errors, 'introuvable', 'conflit'),
  },
});

export const listWebhookDeliveries = createRoute({
  operationId: 'listWebhookDeliveries',
  ...base,
  method: 'get',
  path: `${path}/{id}/deliveries`,
  summary: "A subscription's delivery log",
  description: `${right} Newest first.`,
  request: {
    headers: TenantHeadersSchema,
    params: IdParamsSchema,
    query: WebhookDeliveryListQuerySchema,
  },
  responses: {
    200: jsonResponse(WebhookDeliveryListSchema, 'One page.', true),
    ...errorResponses(...errors, 'introuvable'),
  },
});

export const getWebhookDelivery = createRoute({
  operationId: 'getWebhookDelivery',
  ...base,
  method: 'get',
  path: `${path}/{id}/deliveries/{did}`,
  summary: 'A delivery and every attempt at it',
  description: right,
  request: { headers: TenantHeadersSchema, params: DeliveryParamsSchema },
  responses: {
    200: jsonResponse(WebhookDeliveryDetailSchema, 'The delivery.', true),
    ...errorResponses(...errors, 'introuvable'),
  },
});

export const retryWebhookDelivery = createRoute({
  operationId: 'retryWebhookDelivery',
  ...base,
  method: 'post',
  path: `${path}/{id}/deliveries/{did}/retry`,
  summary: 'Deliver again now',
  description: `${right} Whatever its status; the same delivery id, a fresh timestamp and signature. A disabled subscription gets \`conflit\`.`,
  request: { headers: TenantHeadersSchema, params: DeliveryParamsSchema },
  responses: {
    202: jsonResponse(WebhookDeliverySchema, 'The delivery, pending again.', true),
    ...errorResponses(...errors, 'introuvable', 'conflit'),
  },
});

export const recoverWebhookDeliveries = createRoute({
  operationId: 'recoverWebhookDeliveries',
  ...base,
  method: 'post',
  path: `${path}/{id}/recover`,
  summary: 'Replay every failed delivery since a time',
  description: `${right} \`since\` is not in the future, and at most ${RECOVER_MAX_DAYS} days back or no earlier than the subscription's \`failing_since\` (so re-enabling an endpoint the platform disabled can replay everything that failed since its failure began). A disabled subscription gets \`conflit\`.`,
  request: {
    headers: TenantHeadersSchema,
    params: IdParamsSchema,
    body: jsonBody(RecoverWebhookDeliveriesBodySchema),
  },
  responses: {
    202: jsonResponse(RecoveredWebhookDeliveriesSchema, 'How many were queued again.', true),
    ...errorResponses(...errors, 'introuvable', 'conflit'),
  },
});
