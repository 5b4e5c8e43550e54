export * from './metrics';
export * from './metrics-server';
export * from './observe-requests';
export * from './pool-metrics';
