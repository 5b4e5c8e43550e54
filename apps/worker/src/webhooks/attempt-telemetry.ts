import { inLinkedSpan } from '@erp/telemetry';
import type { WorkerMetrics } from '../runtime/metrics';
import type { AttemptRecord } from './store';

/** What of a delivery its span names; `trace_context` is its event's (`events.trace_context`). */
export interface TracedDelivery {
  delivery_id: string;
  attempts: number;
  event_id: string;
  event_type: string;
  subscription_id: string;
  trace_context: string | null;
}

/**
 * One attempt of a delivery, observed: inside a `webhook delivery` span linked to the request
 * that recorded the event (the POST to the subscriber is its child, from the undici
 * instrumentation), then counted by outcome with its time. Nothing here changes the attempt.
 */
export function observeAttempt(
  metrics: Pick<WorkerMetrics, 'webhookAttempts' | 'webhookAttemptDuration'>,
  delivery: TracedDelivery,
  attempt: () => Promise<AttemptRecord>,
): Promise<AttemptRecord> {
  return inLinkedSpan(
    'webhook delivery',
    {
      traceparent: delivery.trace_context,
      attributes: {
        'webhook.delivery_id': delivery.delivery_id,
        'webhook.attempt': delivery.attempts + 1,
        'webhook.event_id': delivery.event_id,
        'webhook.event_type': delivery.event_type,
        'webhook.subscription_id': delivery.subscription_id,
      },
    },
    async (span) => {
      const record = await attempt();
      metrics.webhookAttempts.inc({ outcome: record.outcome });
      metrics.webhookAttemptDuration.observe(record.durationMs / 1000);
      span.setAttribute('webhook.outcome', record.outcome);
      if (record.status !== null) span.setAttribute('http.response.status_code', record.status);
      return record;
    },
  );
}
