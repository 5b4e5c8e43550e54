import { diag } from '@opentelemetry/api';
import { getNumberFromEnv, getStringFromEnv } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  type BatchSpanProcessorOptions,
  ParentBasedSampler,
  type Sampler,
  type SpanLimits,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';

export interface TracerEnvironment {
  sampler: Sampler;
  spanLimits: SpanLimits;
  batch: Omit<BatchSpanProcessorOptions, 'exporter'>;
}

/**
 * The SDK's standard variables for the sampler, the span limits and the batch processor
 * (`OTEL_TRACES_SAMPLER`, `OTEL_SPAN_*_LIMIT`, `OTEL_BSP_*`). The 2.x SDK read them in its
 * constructors; 3.x leaves them to whoever builds the provider (`@opentelemetry/sdk-node` does,
 * with every exporter of every signal, which we do not take). Read as the 2.x SDK read them,
 * so what the README promises an operator keeps working: unset or blank keeps the default, a
 * value that does not parse is ignored with a diag warning, as the specification asks.
 */
export function tracerEnvironment(): TracerEnvironment {
  return {
    sampler: samplerFromEnvironment(),
    spanLimits: definedOnly({
      attributeValueLengthLimit:
        getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ??
        getNumberFromEnv('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT'),
      attributeCountLimit:
        getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ??
        getNumberFromEnv('OTEL_ATTRIBUTE_COUNT_LIMIT'),
      linkCountLimit: getNumberFromEnv('OTEL_SPAN_LINK_COUNT_LIMIT'),
      eventCountLimit: getNumberFromEnv('OTEL_SPAN_EVENT_COUNT_LIMIT'),
      attributePerEventCountLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT'),
      attributePerLinkCountLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT'),
    }),
    batch: definedOnly({
      maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
      maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
      scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
      exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
    }),
  };
}

const DEFAULT_SAMPLER = 'parentbased_always_on';

function samplerFromEnvironment(): Sampler {
  const name = getStringFromEnv('OTEL_TRACES_SAMPLER') ?? DEFAULT_SAMPLER;
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratioFromEnvironment());
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioFromEnvironment()) });
    default:
      diag.error(`OTEL_TRACES_SAMPLER value "${name}" invalid, defaulting to "${DEFAULT_SAMPLER}"`);
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function ratioFromEnvironment(): number {
  const ratio = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG');
  if (ratio === undefined) {
    diag.error('OTEL_TRACES_SAMPLER_ARG is blank, defaulting to 1');
    return 1;
  }
  if (ratio < 0 || ratio > 1) {
    diag.error(`OTEL_TRACES_SAMPLER_ARG=${ratio} is out of [0, 1], defaulting to 1`);
    return 1;
  }
  return ratio;
}

/** Without the unset keys, so the SDK's own defaults apply to them. */
function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
