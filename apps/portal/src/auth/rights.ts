import { ApiError, MODULES, type ModuleName } from '@erp/contract';

const ADMIN_ROLES = new Set(['admin', 'super-admin']);

/** Whether a membership's roles make it a tenant admin. */
export function isAdmin(roles: readonly string[]): boolean {
  return roles.some((r) => ADMIN_ROLES.has(r));
}

/**
 * A membership's rights: admins hold every right of the tenant's modules plus `rules` and
 * `webhooks`; `<module>:editor` gives read and write, `<module>:reader` read. Rights on
 * modules the tenant did not buy never apply. `write` always comes with `read`.
 */
export function rightsFromRoles(roles: readonly string[], modules: readonly string[]): Set<string> {
  const bought = new Set(modules);
  const rights = new Set<string>();
  if (isAdmin(roles)) {
    for (const m of bought) rights.add(`${m}:read`).add(`${m}:write`);
    rights.add('rules').add('webhooks');
    return rights;
  }
  for (const role of roles) {
    const [module, level] = role.split(':');
    if (!module || !bought.has(module)) continue;
    if (level === 'editor') rights.add(`${module}:read`).add(`${module}:write`);
    if (level === 'reader') rights.add(`${module}:read`);
  }
  return rights;
}

/** A key's effective rights: its scopes (write implying read) ∩ its holder's current rights. */
export function effectiveKeyRights(
  scopes: readonly string[],
  holderRights: ReadonlySet<string>,
): Set<string> {
  const granted = new Set<string>();
  for (const scope of scopes) {
    granted.add(scope);
    if (scope.endsWith(':write')) granted.add(scope.replace(/:write$/, ':read'));
  }
  return new Set([...granted].filter((r) => holderRights.has(r)));
}

/** Scopes a key may be given in a tenant: its bought modules' rights, `rules`, `webhooks`. */
export function scopesOutsideModules(
  scopes: readonly string[],
  modules: readonly string[],
): string[] {
  return scopes.filter((scope) => {
    if (scope === 'rules' || scope === 'webhooks') return false;
    return !modules.includes(scope.split(':')[0]!);
  });
}

/** Throws `module_non_souscrit` or `acces_refuse` unless `right` is held. */
export function requireRight(
  auth: { rights: ReadonlySet<string>; modules: readonly string[] },
  right: string,
): void {
  const module = right.split(':')[0] as ModuleName;
  if ((MODULES as readonly string[]).includes(module) && !auth.modules.includes(module)) {
    throw new ApiError(
      'module_non_souscrit',
      `The tenant has not subscribed to the ${module} module.`,
      { module },
    );
  }
  if (!auth.rights.has(right)) {
    throw new ApiError('acces_refuse', `This requires the right ${right}.`, { required: right });
  }
}
