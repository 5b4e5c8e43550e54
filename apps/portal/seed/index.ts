/**
 * The seed's door (it serves no routes; `main.ts` is its script): the plans, the demo tenant
 * and its records, and the sample bodies tests build records from.
 */
export { DEMO_ADMIN_EMAIL, seedDemo } from './demo';
export { seedDemoRecords } from './demo-records';
export { seedPlans } from './plans';
export { type ReferencePool, sampleBody } from './samples';
