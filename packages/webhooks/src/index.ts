export * from './address-policy';
export * from './secrets';
export * from './signature';
