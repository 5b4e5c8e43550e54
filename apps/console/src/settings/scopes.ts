/** The scopes a key may carry in a tenant: read and write per bought module, rules, webhooks. */
export function availableScopes(modules: readonly string[]): string[] {
  return [...modules.flatMap((m) => [`${m}:read`, `${m}:write`]), 'rules', 'webhooks'];
}

/** The roles a user may hold: admins, and a reader or an editor role per bought module. */
export function availableRoles(modules: readonly string[]): string[] {
  return ['super-admin', 'admin', ...modules.flatMap((m) => [`${m}:reader`, `${m}:editor`])];
}

/** `yyyy-mm-dd` of a day `days` from now (UTC), for date inputs. */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
