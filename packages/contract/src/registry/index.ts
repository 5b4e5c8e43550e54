export * from './define';
export * from './event-payloads';
export * from './events';
export * from './field-types';
export * from './field-values';
export * from './fields';
export * from './routes';
export * from './schemas';
