/**
 * Where a provider event's tenant and plan come from.
 *
 * Provider payloads know a customer and a price, not our tenants. So the marketing site opens
 * every checkout with metadata of its own: `tenant_slug`, `company_name`, `plan_code`, and, for
 * Paddle (whose events carry only a customer id), `admin_email` and `admin_name`. It travels as
 * Stripe `metadata` on the Checkout Session *and* `subscription_data.metadata` (so the
 * subscription and its invoices carry it), Paddle `custom_data` (copied to the subscription),
 * Lemon Squeezy `checkout_data.custom` (echoed in every event's `meta.custom_data`). A Stripe
 * price's `lookup_key` or a Paddle price's `custom_data.plan_code` may name the plan instead.
 * An event lacking any of it is stored as `ignored` with the missing fields as its reason.
 */
import { type SubscriptionChange, SubscriptionChangeSchema } from '@erp/contract';
import { z } from 'zod';
import type { ParsedPaymentEvent } from './adapter';

export interface CheckoutMetadata {
  tenant_slug?: string;
  company_name?: string;
  plan_code?: string;
  admin_email?: string;
  admin_name?: string;
}

const METADATA_KEYS = [
  'tenant_slug',
  'company_name',
  'plan_code',
  'admin_email',
  'admin_name',
] as const;

/** A metadata bag as providers send it: any JSON object, or nothing. */
export const MetadataSchema = z.record(z.string(), z.unknown()).nullish();

/** Our keys from the first bag that has each as a non-empty string (earlier bags win). */
export function readMetadata(
  ...bags: (Record<string, unknown> | null | undefined)[]
): CheckoutMetadata {
  const found: CheckoutMetadata = {};
  for (const key of METADATA_KEYS) {
    for (const bag of bags) {
      const value = bag?.[key];
      if (typeof value === 'string' && value.trim() !== '') {
        found[key] = value.trim();
        break;
      }
    }
  }
  return found;
}

/** A provider id that may arrive as a string or as an expanded object. */
export const IdOrObjectSchema = z
  .union([z.string(), z.looseObject({ id: z.string() })])
  .transform((v) => (typeof v === 'string' ? v : v.id));

/** Unix seconds (Stripe) or an ISO string (Paddle, Lemon Squeezy) → ISO 8601 UTC. */
export function toIsoTimestamp(value: number | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const date = new Date(typeof value === 'number' ? value * 1000 : value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * When the provider says the event happened (`event_at`: the portal ignores a change older
 * than the one it applied). Anything unreadable is left out rather than refusing the event.
 */
export function eventTimestamp(value: unknown): string | undefined {
  return typeof value === 'number' || typeof value === 'string' ? toIsoTimestamp(value) : undefined;
}

/** An event acknowledged without a change. */
export function ignored(event_key: string, event_type: string, reason: string): ParsedPaymentEvent {
  return { event_key, event_type, ignored_reason: reason };
}

function issuePaths(error: z.ZodError): string {
  return [...new Set(error.issues.map((i) => i.path.map(String).join('.')))].join(', ');
}

/** An event of a known type whose object does not have the expected shape. */
export function malformedEvent(
  event_key: string,
  event_type: string,
  error: z.ZodError,
): ParsedPaymentEvent {
  return ignored(event_key, event_type, `malformed_event: ${issuePaths(error)}`);
}

/**
 * The change when it satisfies the contract; otherwise the event is ignored with the paths
 * that are missing or invalid (never their values: they may be personal data).
 */
export function settleChange(
  event_key: string,
  event_type: string,
  draft: Record<string, unknown>,
): ParsedPaymentEvent {
  const result = SubscriptionChangeSchema.safeParse(draft);
  if (result.success) return { event_key, event_type, change: result.data as SubscriptionChange };
  return ignored(event_key, event_type, `incomplete_event: ${issuePaths(result.error)}`);
}

/** A first purchase: the tenant to provision, from the checkout's metadata and buyer. */
export function provisionDraft(
  metadata: CheckoutMetadata,
  buyer: { email?: string | null; name?: string | null },
  reference: string,
): Record<string, unknown> {
  const email = buyer.email ?? metadata.admin_email;
  return {
    slug: metadata.tenant_slug,
    name: metadata.company_name,
    plan_code: metadata.plan_code,
    // A display name is cosmetic: without one, the address stands in rather than refusing a paid order.
    admin: { email, name: buyer.name || metadata.admin_name || email },
    reference,
  };
}
