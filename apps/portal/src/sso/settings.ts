import { ApiError, type SsoSettingsSchema, type UpdateSsoSettingsBody } from '@erp/contract';
import type { Selectable, SsoSettingsTable } from '@erp/db';
import type { z } from 'zod';
import { recordAudit } from '../audit';
import { ssoStartUrl } from '../auth';
import type { Deps } from '../deps';
import { type AdminActor, adminAuditSource } from '../identity';
import { type ProviderClient, ProviderError } from './provider';
import { checkProvider } from './provider-check';

type SsoSettings = z.infer<typeof SsoSettingsSchema>;

export const SSO_CALLBACK_PATH = '/api/v1/auth/sso/callback';

/** The client secret's associated data: a sealed secret copied onto another row does not open. */
export function secretBinding(tenantId: string): string {
  return `sso:${tenantId}`;
}

/** The tenant's settings, or their defaults; never the secret. `origin`: the portal's own. */
export async function readSsoSettings(
  deps: Deps,
  actor: AdminActor,
  origin: string,
): Promise<SsoSettings> {
  const row = await deps.db
    .selectFrom('sso_settings')
    .selectAll()
    .where('tenant_id', '=', actor.tenant.id)
    .executeTakeFirst();
  return present(row, actor, origin);
}

/**
 * Replaces the settings once the provider passed its checks (discovery, key set). The client
 * secret is sealed under the tenant's id; omitted, the stored one is kept (required the first
 * time). Saving clears a legacy authorize URL: the OpenID provider replaces it.
 */
export async function updateSsoSettings(
  deps: Deps,
  actor: AdminActor,
  input: UpdateSsoSettingsBody,
  origin: string,
): Promise<SsoSettings> {
  const stored = await deps.db
    .selectFrom('sso_settings')
    .select('client_secret_sealed')
    .where('tenant_id', '=', actor.tenant.id)
    .executeTakeFirst();
  const binding = secretBinding(actor.tenant.id);
  const secret = input.client_secret ?? openSecret(deps, stored?.client_secret_sealed, binding);
  if (secret === undefined)
    throw invalidField(
      'client_secret',
      'required',
      'a client secret is required (none is stored, or the stored one no longer opens)',
    );

  const client: ProviderClient = {
    issuer: input.issuer,
    clientId: input.client_id,
    clientSecret: secret,
  };
  try {
    await checkProvider(deps, client);
  } catch (error) {
    if (error instanceof ProviderError)
      throw invalidField('issuer', error.problem, `The issuer is refused: ${error.message}.`);
    throw error;
  }

  const values = {
    issuer: input.issuer,
    client_id: input.client_id,
    client_secret_sealed: deps.secretBox.seal(secret, binding),
    allowed_domains: input.allowed_domains,
    default_role: input.default_role,
    enforced: input.enforced,
    legacy_authorize_url: null,
    updated_at: deps.now(),
  };
  const row = await deps.db.transaction().execute(async (trx) => {
    const saved = await trx
      .insertInto('sso_settings')
      .values({ tenant_id: actor.tenant.id, ...values })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'sso.updated',
      target: { type: 'sso_settings', id: actor.tenant.id },
      // Whether the secret changed, never the secret.
      details: {
        issuer: input.issuer,
        client_id: input.client_id,
        allowed_domains: input.allowed_domains,
        default_role: input.default_role,
        enforced: input.enforced,
        client_secret_changed: input.client_secret !== undefined,
      },
    });
    return saved;
  });
  return present(row, actor, origin);
}

/** Removes single sign-on (and any legacy URL): password logins work again. */
export async function deleteSsoSettings(deps: Deps, actor: AdminActor): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('sso_settings')
      .where('tenant_id', '=', actor.tenant.id)
      .returning('issuer')
      .executeTakeFirst();
    // Removing nothing changes nothing, and is no event.
    if (!removed) return;
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'sso.deleted',
      target: { type: 'sso_settings', id: actor.tenant.id },
      details: { issuer: removed.issuer },
    });
  });
}

/** The stored secret, or undefined when there is none or it no longer opens (key changed). */
export function openSecret(
  deps: Pick<Deps, 'secretBox'>,
  sealed: Buffer | null | undefined,
  binding: string,
): string | undefined {
  if (!sealed) return undefined;
  try {
    return deps.secretBox.open(sealed, binding);
  } catch {
    return undefined;
  }
}

function present(
  row: Selectable<SsoSettingsTable> | undefined,
  actor: AdminActor,
  origin: string,
): SsoSettings {
  return {
    configured: Boolean(row?.issuer),
    issuer: row?.issuer ?? null,
    client_id: row?.client_id ?? null,
    client_secret_set: Boolean(row?.client_secret_sealed),
    allowed_domains: row?.allowed_domains ?? [],
    default_role: row?.default_role ?? null,
    enforced: row?.enforced ?? false,
    redirect_uri: `${origin}${SSO_CALLBACK_PATH}`,
    start_url: ssoStartUrl(origin, actor.tenant.slug),
    legacy_authorize_url: row?.legacy_authorize_url ?? null,
    updated_at: row?.updated_at ? new Date(row.updated_at).toISOString() : null,
  };
}

function invalidField(path: string, code: string, message: string): ApiError {
  return new ApiError('requete_invalide', message, {
    issues: [{ location: 'json', path, code, message }],
  });
}
