/** The scopes a key may carry in a tenant: read and write per bought module, rules, webhooks. */
export function availableScopes(modules: readonly string[]): string[] {
  return [...modules.flatMap((m) => [`${m}:read`, `${m}:write`]), 'rules', 'webhooks'];
}

/** The roles a user may hold: admins, and a reader or an editor role per bought module. */
export function availableRoles(modules: readonly string[]): string[] {
  return ['super-admin', 'admin', ...modules.flatMap((m) => [`${m}:reader`, `${m}:editor`])];
}

/** `admin` and `super-admin`: only a super-admin grants, changes or removes them (SPEC §3). */
export function holdsAdminRole(roles: readonly string[]): boolean {
  return roles.includes('admin') || roles.includes('super-admin');
}

/** The roles the signed-in member may hand out: module roles, and the admin ones for a super-admin. */
export function grantableRoles(modules: readonly string[], superAdmin: boolean): string[] {
  const roles = availableRoles(modules);
  return superAdmin ? roles : roles.filter((role) => !holdsAdminRole([role]));
}

/** `yyyy-mm-dd` of a day `days` from now (UTC), for date inputs. */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
