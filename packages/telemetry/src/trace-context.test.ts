import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTraceparent, inLinkedSpan } from './trace-context';

describe('without tracing', () => {
  it('has no trace context to store, and runs linked work as it is', async () => {
    expect(activeTraceparent()).toBeNull();
    expect(await inLinkedSpan('work', { traceparent: null }, async () => 42)).toBe(42);
  });
});

describe('with tracing', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  // As startTracing registers it.
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
  });
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('stores the active span as a traceparent, and the later work links to it in a trace of its own', async () => {
    const tracer = trace.getTracer('test');
    const stored = tracer.startActiveSpan('POST /api/v1/leads', (request) => {
      const traceparent = activeTraceparent();
      request.end();
      return { traceparent, request: request.spanContext() };
    });
    expect(stored.traceparent).toBe(`00-${stored.request.traceId}-${stored.request.spanId}-01`);
    // Later, elsewhere: no active span, only what was stored.
    const result = await inLinkedSpan(
      'webhook delivery',
      { traceparent: stored.traceparent, attributes: { 'webhook.attempt': 1 } },
      async (span) => {
        span.setAttribute('webhook.outcome', 'delivered');
        return 'done';
      },
    );
    expect(result).toBe('done');
    const delivery = exporter.getFinishedSpans().find((s) => s.name === 'webhook delivery')!;
    expect(delivery.links.map((l) => l.context)).toEqual([
      expect.objectContaining({
        traceId: stored.request.traceId,
        spanId: stored.request.spanId,
      }),
    ]);
    expect(delivery.spanContext().traceId).not.toBe(stored.request.traceId);
    expect(delivery.parentSpanContext).toBeUndefined();
    expect(delivery.attributes).toMatchObject({
      'webhook.attempt': 1,
      'webhook.outcome': 'delivered',
    });
  });

  it('records a failure on the span and throws it on; a traceparent that does not parse links nothing', async () => {
    await expect(
      inLinkedSpan('broken', { traceparent: 'not-a-traceparent' }, async () => {
        throw new Error('subscriber unreachable');
      }),
    ).rejects.toThrow('subscriber unreachable');
    const broken = exporter.getFinishedSpans().find((s) => s.name === 'broken')!;
    expect(broken.links).toEqual([]);
    expect(broken.status.code).toBe(2);
    expect(broken.events.map((e) => e.name)).toEqual(['exception']);
  });
});
