import { z } from '@hono/zod-openapi';
import { FOLLOW_ACTION } from '../goods/flow';
import { SETTLE_ACTION } from '../ledger/postings';
import { TimestampSchema, UuidSchema } from '../schemas/common';
import { WEBHOOK_TEST_EVENT } from '../schemas/webhooks';
import { pascalCase, type Resource } from './define';
import { eventDescription } from './events';
import { resourceSchemas } from './schemas';

/** One event's delivery body, as a named schema (one generated type per event). */
export interface EventPayload {
  type: string;
  description: string;
  schema: z.ZodObject;
}

/** An event's place in its tenant's feed (SPEC §12): the same in a delivery and in the feed. */
export const EventSequenceSchema = z.number().int().positive().openapi('EventSequence', {
  description:
    "The event's place in its tenant's feed: dense, without gaps, in the order the feed serves events. Deliveries carry it so a receiver can detect a gap and fill it from `GET /api/v1/events?after=`.",
  example: 1042,
});

/**
 * `{id, delivery_id, type, created_at, tenant_id, sequence, data}`: the body of every delivery
 * (SPEC §7, §12). A test delivery is no business event: it has no `sequence`.
 */
function envelope(type: string, data: z.ZodObject, description: string, sequenced = true) {
  return z
    .object({
      id: UuidSchema.openapi({ description: "The event's id: the same in every delivery of it." }),
      delivery_id: UuidSchema.openapi({
        description: 'Equals `X-Service-Delivery-Id`; the same for every attempt of a delivery.',
      }),
      type: z.literal(type),
      created_at: TimestampSchema.openapi({ description: 'When the change was recorded.' }),
      tenant_id: UuidSchema,
      ...(sequenced ? { sequence: EventSequenceSchema } : {}),
      data,
    })
    .openapi(`${pascalCase(type.replace('.', '_'))}Event`, { description });
}

/**
 * Actions of a resource's lifecycle that record `event` (`status_changed`: all of them, and
 * `settle` on a settled document, whose allocations move its status).
 */
function actionsRecording(resource: Resource, action: string): string[] {
  const actions = Object.entries(resource.lifecycle?.actions ?? {})
    .filter(([, spec]) => action === 'status_changed' || spec.emits === action)
    .map(([name]) => name);
  if (action !== 'status_changed') return actions;
  return [
    ...actions,
    ...(resource.lifecycle?.settlement ? [SETTLE_ACTION] : []),
    ...(resource.progress?.length ? [FOLLOW_ACTION] : []),
  ];
}

/**
 * The delivery body of every event the resources record: `data.object` is the record as the
 * API returns it; status changes and approval steps add `data.previous_status` and
 * `data.action` (what the portal writes in the business transaction).
 */
export function eventPayloads(resources: Iterable<Resource>): EventPayload[] {
  const payloads: EventPayload[] = [];
  for (const resource of resources) {
    const record = resourceSchemas(resource).record;
    for (const type of resource.eventNames) {
      const action = type.slice(resource.name.length + 1);
      const description = eventDescription(resource.name, action);
      if (action === 'created') {
        const data = z.object({ object: record });
        payloads.push({ type, description, schema: envelope(type, data, description) });
        continue;
      }
      const data = z.object({
        object: record,
        previous_status: z.enum(resource.states as [string, ...string[]]),
        action: z.enum(actionsRecording(resource, action) as [string, ...string[]]).openapi({
          description: `The lifecycle action that was run (\`POST /api/v1/${resource.path}/{id}/<action>\`)${resource.lifecycle?.settlement ? `, or \`${SETTLE_ACTION}\`: a payment allocation, made or deleted, moved its amount due and status` : ''}${resource.progress?.length ? `, or \`${FOLLOW_ACTION}\`: the status followed its goods (a delivery, a receipt or an invoice counted on its lines)` : ''}.`,
        }),
      });
      payloads.push({ type, description, schema: envelope(type, data, description) });
    }
  }
  return payloads;
}

const testDescription = 'A test delivery asked for by a user; sent to that subscription only.';

/** The body of a test delivery (`POST /api/v1/settings/webhooks/{id}/test`). */
export const webhookTestPayload: EventPayload = {
  type: WEBHOOK_TEST_EVENT,
  description: testDescription,
  schema: envelope(
    WEBHOOK_TEST_EVENT,
    z.object({
      object: z.object({ subscription_id: UuidSchema, url: z.string() }),
      message: z.string().openapi({ example: 'A test delivery.' }),
    }),
    testDescription,
    false,
  ),
};
