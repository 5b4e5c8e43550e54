import { z } from '@hono/zod-openapi';

/** The ERP's modules: what a tenant buys (SPEC §3). */
export const MODULES = [
  'sales',
  'purchasing',
  'inventory',
  'accounting',
  'crm',
  'hr',
  'production',
  'projects',
  'assets',
  'support',
] as const;
export type ModuleName = (typeof MODULES)[number];

/**
 * The tag of a resource's operations in the OpenAPI document, from its path (`sales-orders` →
 * `Sales orders`): one tag per resource, grouped by module in `x-tagGroups`, so a reference
 * renders one resource's operations at a time rather than a module's hundreds.
 */
export function resourceTag(path: string): string {
  return path.charAt(0).toUpperCase() + path.slice(1).replace(/-/g, ' ');
}

export const ModuleSchema = z.enum(MODULES).openapi('Module');

/** A right: `<module>:read`, `<module>:write` (implies read), `rules` or `webhooks`. */
export const RIGHT_PATTERN = new RegExp(
  `^(?:(?:${MODULES.join('|')}):(?:read|write)|rules|webhooks)$`,
);
export const RightSchema = z
  .string()
  .regex(RIGHT_PATTERN, 'must be <module>:read, <module>:write, rules or webhooks')
  .openapi('Right', { example: 'sales:read' });

/** Roles held through a membership: admins, or per-module readers and editors. */
export const ROLE_PATTERN = new RegExp(
  `^(?:super-admin|admin|(?:${MODULES.join('|')}):(?:reader|editor))$`,
);
export const RoleSchema = z
  .string()
  .regex(ROLE_PATTERN, 'must be super-admin, admin, <module>:reader or <module>:editor')
  .openapi('Role', { example: 'sales:editor' });

/** Narrows stored module names to the known ones (a module removed from the product drops out). */
export function toModules(values: readonly string[]): ModuleName[] {
  return values.filter((v): v is ModuleName => (MODULES as readonly string[]).includes(v));
}
