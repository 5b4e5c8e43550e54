export * from './body';
export * from './client-address';
export * from './env';
export * from './errors';
export * from './ip-address';
export * from './node-server';
export * from './process';
export * from './shared-key';
