import type { Resource } from '../registry/define';

/** The product's business resources, in dependency order (referenced ones first). */
export const catalogue: Resource[] = [];
