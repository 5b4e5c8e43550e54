import {
  ApiError,
  isUuid,
  jobs,
  type ProvisionedTenantSchema,
  type SUBSCRIPTION_STATUSES,
  toModules,
} from '@erp/contract';
import { type Database, enqueueJob, type Kysely, sql } from '@erp/db';
import type { z } from 'zod';
import { generatePassword, hashPassword } from '../auth';
import { installBooks } from '../books';
import type { Deps } from '../deps';

const ACTIVE_STATUSES = new Set(['trialing', 'active', 'past_due']);

type ProvisionedTenant = z.infer<typeof ProvisionedTenantSchema>;

/** How many suffixed slugs (`<slug>-2` …) a purchase tries before giving up with `conflit`. */
const SLUG_SUFFIX_TRIES = 50;

/**
 * Creates a tenant on a plan with its first admin (a super-admin): a new account, or an
 * invitation of an existing one (SPEC §3: its password and name stay its own). With an idempotency key
 * the tenant keeps it, and a retry with the same key and slug answers with that tenant
 * (`created: false`) instead of acting twice. `on_slug_taken: 'suffix'` (a purchase): the slug
 * is a wish, a taken one gets a suffix, never the existing tenant.
 */
export async function provisionTenant(
  deps: Deps,
  input: {
    slug: string;
    name: string;
    plan_code: string;
    admin: { email: string; name: string; password?: string };
    on_slug_taken?: 'conflict' | 'suffix';
  },
  idempotencyKey?: string,
): Promise<{ created: boolean; provisioned: ProvisionedTenant }> {
  const suffix = input.on_slug_taken === 'suffix';
  // With a suffix the slug was only a wish: a known key answers its tenant whatever its slug.
  const sameSlug = suffix ? undefined : input.slug;
  // Before hashing a password: a retry should cost one lookup.
  const earlier = idempotencyKey && (await findProvisioned(deps.db, idempotencyKey, sameSlug));
  if (earlier) return { created: false, provisioned: earlier };

  // Generated (and answered) whether or not the e-mail has an account, so neither the answer
  // nor its time tells which (SPEC §3); it is applied to a new account only.
  const generated = input.admin.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(input.admin.password ?? generated!);
  const result = await provisionInTransaction(deps, input, idempotencyKey, generated, passwordHash);
  // Its books (chart of accounts, journals, settings, fiscal years): what is missing is
  // installed, so a retry completes a tenant whose installation was cut short.
  const tenantId = result.provisioned.tenant.id;
  await deps.tenantDb.transaction(tenantId, (client) => installBooks(client, tenantId, deps.now()));
  return result;
}

async function provisionInTransaction(
  deps: Deps,
  input: Parameters<typeof provisionTenant>[1],
  idempotencyKey: string | undefined,
  generated: string | undefined,
  passwordHash: string,
): Promise<{ created: boolean; provisioned: ProvisionedTenant }> {
  const suffix = input.on_slug_taken === 'suffix';
  const sameSlug = suffix ? undefined : input.slug;
  return deps.db.transaction().execute(async (trx) => {
    const plan = await findPlan(trx, input.plan_code);
    const candidates = suffix ? suffixedSlugs(input.slug) : [input.slug];
    let tenant: Awaited<ReturnType<typeof insertTenant>>;
    for (const slug of candidates) {
      tenant = await insertTenant(trx, { ...input, slug }, plan, idempotencyKey);
      if (tenant) break;
      // ON CONFLICT waited for a concurrent provisioning to commit, so a retry of this very
      // provisioning that raced it is visible now, and answers as a replay.
      const raced = idempotencyKey && (await findProvisioned(trx, idempotencyKey, sameSlug));
      if (raced) return { created: false, provisioned: raced };
    }
    if (!tenant) {
      throw new ApiError('conflit', 'This slug is taken.', { field: 'slug', slug: input.slug });
    }

    const existing = await findUserId(trx, input.admin.email);
    const inserted = existing
      ? undefined
      : await trx
          .insertInto('users')
          .values({ email: input.admin.email, name: input.admin.name, password_hash: passwordHash })
          // Another tenant provisioned concurrently for the same new e-mail: share the user.
          .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
          .returning('id')
          .executeTakeFirst();
    const admin = existing ?? inserted ?? (await findUserId(trx, input.admin.email));
    if (!admin) throw new Error('the admin user vanished while being provisioned');
    if (inserted) {
      await trx
        .insertInto('memberships')
        .values({ tenant_id: tenant.id, user_id: admin.id, roles: ['super-admin'] })
        .execute();
    } else {
      // An account that already exists belongs to its person: whoever named its e-mail (a
      // buyer, an operator) cannot make it a member; it is invited and joins by signing in.
      const invitation = await trx
        .insertInto('invitations')
        .values({
          tenant_id: tenant.id,
          email: input.admin.email.toLowerCase(),
          name: input.admin.name,
          roles: ['super-admin'],
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await enqueueJob(trx, jobs.mailInvitation, { invitation_id: invitation.id });
    }
    const provisioned = {
      tenant: { ...tenant, modules: toModules(tenant.modules) },
      // A known user keeps their password and name; the generated one is answered all the
      // same (shown once), so the answer does not reveal that the account existed.
      admin: {
        id: admin.id,
        email: input.admin.email,
        ...(generated ? { password: generated } : {}),
      },
    };
    return { created: true, provisioned };
  });
}

/**
 * The tenant an earlier provisioning with this key created, and its first admin (never a
 * password: it was shown once). A known key with another slug is a client bug: `conflit`.
 */
async function findProvisioned(
  db: Kysely<Database>,
  key: string,
  slug: string | undefined,
): Promise<ProvisionedTenant | undefined> {
  const tenant = await db
    .selectFrom('tenants')
    .select(['id', 'slug', 'name', 'modules', 'plan_code'])
    .where('provisioning_key', '=', key)
    .executeTakeFirst();
  if (!tenant) return undefined;
  if (slug !== undefined && tenant.slug !== slug) {
    throw new ApiError('conflit', 'This Idempotency-Key provisioned a tenant of another slug.', {
      field: 'idempotency-key',
    });
  }
  const member = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email'])
    .where('m.tenant_id', '=', tenant.id)
    .where(sql<boolean>`m.roles && ARRAY['super-admin', 'admin']`)
    .orderBy('m.created_at')
    .orderBy('u.id')
    .executeTakeFirst();
  // Or the existing account it invited (see provisionTenant), while it has not joined.
  const admin =
    member ??
    (await db
      .selectFrom('invitations as i')
      .innerJoin('users as u', (j) => j.on(sql`lower(u.email)`, '=', sql.ref('i.email')))
      .select(['u.id', 'u.email'])
      .where('i.tenant_id', '=', tenant.id)
      .executeTakeFirstOrThrow());
  return { tenant: { ...tenant, modules: toModules(tenant.modules) }, admin };
}

/** A tenant row, or undefined when its slug (or the key) is taken. */
function insertTenant(
  db: Kysely<Database>,
  input: { slug: string; name: string },
  plan: { code: string; modules: string[] },
  idempotencyKey: string | undefined,
) {
  return (
    db
      .insertInto('tenants')
      .values({
        slug: input.slug,
        name: input.name,
        plan_code: plan.code,
        modules: plan.modules,
        provisioning_key: idempotencyKey ?? null,
      })
      // Slug or key taken: which one, and whether it is a retry, is decided by the caller.
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'slug', 'name', 'modules', 'plan_code'])
      .executeTakeFirst()
  );
}

/** `acme`, `acme-2`, `acme-3`…, each cut to fit the 63 characters of a slug. */
function suffixedSlugs(slug: string): string[] {
  const slugs = [slug];
  for (let n = 2; n <= SLUG_SUFFIX_TRIES; n++) {
    const tail = `-${n}`;
    slugs.push(`${slug.slice(0, 63 - tail.length).replace(/-+$/, '')}${tail}`);
  }
  return slugs;
}

/**
 * Records a provider's subscription change and applies it to the tenant's plan and modules.
 * Providers do not order their deliveries: a change older (`event_at`) than the one already
 * applied to this subscription writes nothing and answers the stored state, `applied: false`.
 */
export async function changeSubscription(
  deps: Deps,
  input: {
    tenant: string;
    plan_code: string;
    status: 'trialing' | 'active' | 'past_due' | 'canceled' | 'expired';
    provider: string;
    provider_subscription_id: string;
    current_period_end?: string | null;
    event_at?: string;
  },
) {
  return deps.db.transaction().execute(async (trx) => {
    // Locking the tenant serialises every change of its subscriptions, so the comparison
    // with the stored `provider_event_at` below cannot race another change.
    const tenant = await trx
      .selectFrom('tenants')
      .select(['id', 'modules'])
      .where(isUuid(input.tenant) ? 'id' : 'slug', '=', input.tenant.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!tenant) throw new ApiError('introuvable', 'No such tenant.', { tenant: input.tenant });
    const plan = await findPlan(trx, input.plan_code);
    const eventAt = input.event_at ? new Date(input.event_at) : null;
    const stored = await trx
      .selectFrom('subscriptions')
      .selectAll()
      .where('provider', '=', input.provider)
      .where('provider_subscription_id', '=', input.provider_subscription_id)
      // Also locked: should a subscription ever move to another tenant, the tenant's lock
      // would not cover it.
      .forUpdate()
      .executeTakeFirst();
    // A subscription stays with the tenant it was recorded for: a change naming another
    // tenant is a caller's mistake or an attempt, never a move.
    if (stored && stored.tenant_id !== tenant.id) {
      throw new ApiError('conflit', 'This subscription belongs to another tenant.', {
        field: 'provider_subscription_id',
      });
    }
    if (
      stored &&
      eventAt &&
      stored.provider_event_at &&
      eventAt.getTime() < stored.provider_event_at.getTime()
    ) {
      return { ...present(stored, tenant.modules), applied: false };
    }
    const now = deps.now();
    const values = {
      tenant_id: tenant.id,
      plan_code: plan.code,
      status: input.status,
      provider: input.provider,
      provider_subscription_id: input.provider_subscription_id,
      current_period_end: input.current_period_end ? new Date(input.current_period_end) : null,
      updated_at: now,
    };
    const subscription = await trx
      .insertInto('subscriptions')
      .values({ ...values, provider_event_at: eventAt })
      .onConflict((oc) =>
        oc.columns(['provider', 'provider_subscription_id']).doUpdateSet({
          ...values,
          // greatest() ignores nulls: a change without `event_at` keeps the known one.
          provider_event_at: sql<Date | null>`greatest(subscriptions.provider_event_at, excluded.provider_event_at)`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    const modules = ACTIVE_STATUSES.has(input.status) ? plan.modules : [];
    await trx
      .updateTable('tenants')
      .set({ plan_code: plan.code, modules, updated_at: now })
      .where('id', '=', tenant.id)
      .execute();
    return { ...present(subscription, modules), status: input.status, applied: true };
  });
}

function present(
  subscription: {
    id: string;
    tenant_id: string;
    plan_code: string;
    status: string;
    provider: string;
    provider_subscription_id: string;
    current_period_end: Date | null;
  },
  modules: string[],
) {
  return {
    id: subscription.id,
    tenant_id: subscription.tenant_id,
    plan_code: subscription.plan_code,
    status: subscription.status as (typeof SUBSCRIPTION_STATUSES)[number],
    provider: subscription.provider,
    provider_subscription_id: subscription.provider_subscription_id,
    current_period_end: subscription.current_period_end?.toISOString() ?? null,
    tenant_modules: toModules(modules),
  };
}

async function findPlan(db: Kysely<Database>, code: string) {
  const plan = await db
    .selectFrom('plans')
    .select(['code', 'modules'])
    .where('code', '=', code)
    .executeTakeFirst();
  if (!plan) {
    throw new ApiError('requete_invalide', `Unknown plan ${code}.`, {
      issues: [
        { location: 'json', path: 'plan_code', code: 'unknown_plan', message: 'no such plan' },
      ],
    });
  }
  return plan;
}

function findUserId(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}
