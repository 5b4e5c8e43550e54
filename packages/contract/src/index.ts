export * from './errors';
export * from './modules';
export * from './openapi';
export * from './routes/index';
export * from './schemas/api-keys';
export * from './schemas/common';
export * from './schemas/identity';
export * from './schemas/plans';
