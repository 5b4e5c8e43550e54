import { afterEach, describe, expect, it, vi } from 'vitest';
import { tracerEnvironment } from './tracer-environment';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Every variable read, blank: as on a machine that sets none of them. */
function clearEnvironment(): void {
  for (const name of [
    'OTEL_TRACES_SAMPLER',
    'OTEL_TRACES_SAMPLER_ARG',
    'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT',
    'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT',
    'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT',
    'OTEL_ATTRIBUTE_COUNT_LIMIT',
    'OTEL_SPAN_LINK_COUNT_LIMIT',
    'OTEL_SPAN_EVENT_COUNT_LIMIT',
    'OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT',
    'OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT',
    'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
    'OTEL_BSP_MAX_QUEUE_SIZE',
    'OTEL_BSP_SCHEDULE_DELAY',
    'OTEL_BSP_EXPORT_TIMEOUT',
  ])
    vi.stubEnv(name, '');
}

describe('tracerEnvironment', () => {
  it('keeps the SDK defaults when nothing is set: every trace sampled, unless its parent was not', () => {
    clearEnvironment();
    const { sampler, spanLimits, batch } = tracerEnvironment();
    expect(sampler.toString()).toMatch(/^ParentBased\{root=AlwaysOnSampler,/);
    expect(spanLimits).toEqual({});
    expect(batch).toEqual({});
  });

  it('reads the sampler the README documents: one trace in ten, the parent’s choice first', () => {
    clearEnvironment();
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'parentbased_traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '0.1');
    expect(tracerEnvironment().sampler.toString()).toMatch(
      /^ParentBased\{root=TraceIdRatioBased\{0\.1\},/,
    );
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_off');
    expect(tracerEnvironment().sampler.toString()).toBe('AlwaysOffSampler');
  });

  it('ignores what does not parse, as the specification asks, rather than refusing to start', () => {
    clearEnvironment();
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'sometimes');
    vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', 'soon');
    const { sampler, batch } = tracerEnvironment();
    expect(sampler.toString()).toMatch(/^ParentBased\{root=AlwaysOnSampler,/);
    expect(batch).toEqual({});
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '2');
    expect(tracerEnvironment().sampler.toString()).toBe('TraceIdRatioBased{1}');
  });

  it('reads the batch processor’s schedule and the span limits, the general limits as fallback', () => {
    clearEnvironment();
    vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '100');
    vi.stubEnv('OTEL_BSP_MAX_QUEUE_SIZE', '4096');
    vi.stubEnv('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT', '2048');
    vi.stubEnv('OTEL_ATTRIBUTE_COUNT_LIMIT', '64');
    vi.stubEnv('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT', '32');
    vi.stubEnv('OTEL_SPAN_LINK_COUNT_LIMIT', '8');
    const { spanLimits, batch } = tracerEnvironment();
    expect(batch).toEqual({ scheduledDelayMillis: 100, maxQueueSize: 4096 });
    expect(spanLimits).toEqual({
      attributeValueLengthLimit: 2048,
      attributeCountLimit: 32,
      linkCountLimit: 8,
    });
  });
});
