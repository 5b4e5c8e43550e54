import { API_KEY_MAX_LIFETIME_DAYS, ApiError } from '@erp/contract';
import type { ApiKeysTable, Selectable } from '@erp/db';
import { recordAudit } from '../audit';
import { generateApiKey, hashApiKey, scopesOutsideModules } from '../auth';
import type { Deps } from '../deps';
import { type AdminActor, adminAuditSource } from './settings-access';

const DAY_MS = 24 * 3600 * 1000;
const KEY_COLUMNS = [
  'id',
  'name',
  'prefix',
  'scopes',
  'expires_at',
  'created_at',
  'last_used_at',
  'revoked_at',
  'holder_id',
  'rate_limit_per_minute',
] as const;

type KeyRow = Pick<Selectable<ApiKeysTable>, (typeof KEY_COLUMNS)[number]>;

/** An API key as the API shows it (never its secret or hash). */
export function presentApiKey(row: KeyRow, defaultLimit: number) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    expires_at: row.expires_at.toISOString(),
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    holder_id: row.holder_id,
    rate_limit_per_minute: row.rate_limit_per_minute ?? defaultLimit,
  };
}

/** Creates a key held by the acting admin; the full key is in the result and nowhere else. */
export async function createApiKey(
  deps: Deps,
  actor: AdminActor,
  input: { name: string; scopes: string[]; expires_at: string; rate_limit_per_minute?: number },
) {
  const now = deps.now();
  const expiresAt = new Date(input.expires_at);
  if (
    expiresAt <= now ||
    expiresAt.getTime() - now.getTime() > API_KEY_MAX_LIFETIME_DAYS * DAY_MS
  ) {
    throw new ApiError(
      'requete_invalide',
      'expires_at must be in the future and at most one year ahead.',
      {
        issues: [
          {
            location: 'json',
            path: 'expires_at',
            code: 'out_of_range',
            message: 'at most one year ahead',
          },
        ],
      },
    );
  }
  const outside = scopesOutsideModules(input.scopes, actor.tenant.modules);
  if (outside.length) {
    throw new ApiError(
      'requete_invalide',
      'Scopes must name modules the tenant bought, rules or webhooks.',
      {
        issues: [
          {
            location: 'json',
            path: 'scopes',
            code: 'module_not_bought',
            message: outside.join(', '),
          },
        ],
        scopes: outside,
      },
    );
  }
  if (input.rate_limit_per_minute !== undefined) {
    const tenant = await deps.db
      .selectFrom('tenants')
      .select('rate_limit_per_minute')
      .where('id', '=', actor.tenant.id)
      .executeTakeFirstOrThrow();
    if (input.rate_limit_per_minute > tenant.rate_limit_per_minute) {
      throw new ApiError(
        'requete_invalide',
        `rate_limit_per_minute cannot exceed the tenant's ceiling (${tenant.rate_limit_per_minute}).`,
        {
          issues: [
            {
              location: 'json',
              path: 'rate_limit_per_minute',
              code: 'too_big',
              message: `at most ${tenant.rate_limit_per_minute}`,
            },
          ],
        },
      );
    }
  }
  return deps.db.transaction().execute(async (trx) => {
    const created = await insertKey({ ...deps, db: trx }, actor, {
      name: input.name,
      scopes: input.scopes,
      expiresAt,
      rateLimit: input.rate_limit_per_minute,
    });
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'api_key.created',
      target: { type: 'api_key', id: created.id },
      details: auditedKey(created),
    });
    return created;
  });
}

/** What the audit log keeps of a key: never the key itself (the prefix is its public id). */
function auditedKey(key: ReturnType<typeof presentApiKey>) {
  return { name: key.name, prefix: key.prefix, scopes: key.scopes, expires_at: key.expires_at };
}

/** Lists the tenant's keys, newest first. */
export async function listApiKeys(deps: Deps, actor: AdminActor) {
  const rows = await deps.db
    .selectFrom('api_keys')
    .select(KEY_COLUMNS)
    .where('tenant_id', '=', actor.tenant.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => presentApiKey(row, deps.env.API_KEY_RATE_LIMIT_PER_MINUTE));
}

/** Revokes a key of the tenant; effective from the next request on every instance. */
export async function revokeApiKey(deps: Deps, actor: AdminActor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('api_keys')
      .set({ revoked_at: deps.now() })
      .where('id', '=', id)
      .where('tenant_id', '=', actor.tenant.id)
      .where('revoked_at', 'is', null)
      .returning(['id', 'name', 'prefix'])
      .executeTakeFirst();
    if (!revoked) throw new ApiError('introuvable', 'No such API key.', { id });
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'api_key.revoked',
      target: { type: 'api_key', id },
      details: { name: revoked.name, prefix: revoked.prefix },
    });
  });
}

/** Issues a replacement (same name and scopes); the old key lives on for the grace period. */
export async function rollApiKey(deps: Deps, actor: AdminActor, id: string, graceHours: number) {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const old = await trx
      .selectFrom('api_keys')
      .select(['name', 'scopes', 'expires_at', 'created_at', 'rate_limit_per_minute'])
      .where('id', '=', id)
      .where('tenant_id', '=', actor.tenant.id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .forUpdate()
      .executeTakeFirst();
    if (!old) throw new ApiError('introuvable', 'No such live API key.', { id });
    const graceEnd = new Date(now.getTime() + graceHours * 3600 * 1000);
    await trx
      .updateTable('api_keys')
      .set(
        graceHours === 0
          ? { revoked_at: now }
          : { expires_at: graceEnd < old.expires_at ? graceEnd : old.expires_at },
      )
      .where('id', '=', id)
      .execute();
    // The replacement gets the old key's full lifetime again, from now, within the one-year cap.
    const lifetime = Math.min(
      old.expires_at.getTime() - new Date(old.created_at).getTime(),
      API_KEY_MAX_LIFETIME_DAYS * DAY_MS,
    );
    const replacement = await insertKey({ ...deps, db: trx }, actor, {
      name: old.name,
      scopes: old.scopes,
      expiresAt: new Date(now.getTime() + Math.max(lifetime, DAY_MS)),
      rateLimit: old.rate_limit_per_minute,
    });
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'api_key.rolled',
      target: { type: 'api_key', id: replacement.id },
      details: {
        ...auditedKey(replacement),
        previous_id: id,
        expire_previous_in_hours: graceHours,
      },
    });
    return replacement;
  });
}

async function insertKey(
  deps: Pick<Deps, 'db' | 'apiKeyHashSecret' | 'env'>,
  actor: AdminActor,
  input: { name: string; scopes: string[]; expiresAt: Date; rateLimit?: number | null },
) {
  const { key, prefix } = generateApiKey();
  const row = await deps.db
    .insertInto('api_keys')
    .values({
      tenant_id: actor.tenant.id,
      holder_id: actor.userId,
      name: input.name,
      prefix,
      secret_hash: hashApiKey(key, deps.apiKeyHashSecret),
      scopes: input.scopes,
      expires_at: input.expiresAt,
      rate_limit_per_minute: input.rateLimit ?? null,
    })
    .returning(KEY_COLUMNS)
    .executeTakeFirstOrThrow();
  return { ...presentApiKey(row, deps.env.API_KEY_RATE_LIMIT_PER_MINUTE), key };
}
