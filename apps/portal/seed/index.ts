/**
 * The seed's door (`main.ts` is its script): the plans, the demo tenant and its records, and
 * the sample bodies tests build records from. It lives beside `src/`, not in it: it drives the
 * engine, the served code never imports it, so the portal's bundle does not carry it.
 */
export { DEMO_ADMIN_EMAIL, seedDemo } from './demo';
export { seedDemoRecords } from './demo-records';
export { seedPlans } from './plans';
export { type ReferencePool, sampleBody } from './samples';
