import { ApiError, isUuid } from '@erp/contract';
import type { Context } from 'hono';

/** A tenant as named by a request: its slug or its UUID. */
export interface TenantHeader {
  value: string;
  isUuid: boolean;
}

/**
 * Reads the tenant header. Both names are accepted in both modes; both sent and different
 * is a contradiction the caller must fix (400).
 */
export function readTenantHeader(c: Context): TenantHeader | null {
  const byId = c.req.header('x-tenant-id')?.trim() || undefined;
  const byName = c.req.header('x-tenant')?.trim() || undefined;
  if (byId && byName && byId.toLowerCase() !== byName.toLowerCase()) {
    throw new ApiError('requete_invalide', 'X-Tenant-ID and X-Tenant name different tenants.', {
      headers: ['X-Tenant-ID', 'X-Tenant'],
    });
  }
  const value = byId ?? byName;
  if (!value) return null;
  const uuid = isUuid(value);
  return { value: uuid ? value.toLowerCase() : value, isUuid: uuid };
}

/** Whether the header names this tenant. */
export function headerNamesTenant(
  header: TenantHeader,
  tenant: { id: string; slug: string },
): boolean {
  return header.isUuid ? header.value === tenant.id : header.value === tenant.slug;
}
