export * from './address-policy';
export * from './jobs';
export * from './secrets';
export * from './signature';
