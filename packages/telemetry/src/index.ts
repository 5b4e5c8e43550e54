export * from './metrics';
export * from './metrics-server';
export * from './observe-requests';
export * from './pool-metrics';
export * from './trace-context';
export * from './tracing';
