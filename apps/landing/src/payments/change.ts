/**
 * What a provider event may decide (SPEC §8), and where each part of it comes from.
 *
 * - The plan: only the provider's own price (a Stripe price id or lookup key, a Paddle price id,
 *   a Lemon Squeezy variant id) through `PAYMENT_PLAN_PRICES` (plan-prices.ts). Metadata the
 *   buyer's checkout carries never names a plan: an unmapped price is `ignored`.
 * - The tenant: none here. A change applies to the tenant bound to its provider customer and
 *   subscription at the first purchase (route.ts, the worker), never to one the metadata names.
 * - A first purchase (`provision`) asks for a *new* tenant: the requested slug and company name
 *   come from the checkout's metadata (`tenant_slug`, `company_name`: Stripe `metadata`, Paddle
 *   `custom_data`, Lemon Squeezy `meta.custom_data`), the admin from the provider's buyer, else
 *   the e-mail given at `/api/onboarding/start`, else `admin_email`/`admin_name` there. The claim
 *   reference (Stripe `client_reference_id`, Paddle `custom_data.reference`, Lemon Squeezy
 *   `meta.custom_data.reference`) is kept as its SHA-256 only.
 */
import { createHash } from 'node:crypto';
import { ProviderPurchaseSchema, SubscriptionChangeSchema } from '@erp/contract';
import { z } from 'zod';
import type { ParsedPaymentEvent } from './adapter';

export interface CheckoutMetadata {
  tenant_slug?: string;
  company_name?: string;
  admin_email?: string;
  admin_name?: string;
  reference?: string;
}

const METADATA_KEYS = [
  'tenant_slug',
  'company_name',
  'admin_email',
  'admin_name',
  'reference',
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

/** A provider id that may be a number (Lemon Squeezy), as text. */
export const IdSchema = z.union([z.string().min(1), z.number()]).transform(String);

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

/** The digest a claim reference is stored and looked up by (hex SHA-256). */
export function referenceDigest(reference: string): string {
  return createHash('sha256').update(reference, 'utf8').digest('hex');
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

/** A purchase as one event tells it: the admin's e-mail may still come from the onboarding start. */
const PurchaseDraftSchema = ProviderPurchaseSchema.extend({
  admin: z.object({
    email: ProviderPurchaseSchema.shape.admin.shape.email.optional(),
    name: z.string().min(1).max(200).optional(),
  }),
});

/** What one event says: the change (`SubscriptionChangeSchema`) with a purchase still a draft. */
export const ProviderFactsSchema = SubscriptionChangeSchema.extend({
  provision: PurchaseDraftSchema.optional(),
});
export type ProviderFacts = z.infer<typeof ProviderFactsSchema>;

/**
 * The facts when they have the expected shape; otherwise the event is ignored with the paths
 * that are missing or invalid (never their values: they may be personal data).
 */
export function settleFacts(
  event_key: string,
  event_type: string,
  draft: Record<string, unknown>,
): ParsedPaymentEvent {
  const result = ProviderFactsSchema.safeParse(draft);
  if (result.success) return { event_key, event_type, facts: result.data };
  return ignored(event_key, event_type, `incomplete_event: ${issuePaths(result.error)}`);
}

/** A first purchase's draft: the new tenant wished for, its admin, the claim reference. */
export function purchaseDraft(
  metadata: CheckoutMetadata,
  buyer: { email?: string | null; name?: string | null },
  reference: string | null | undefined,
): Record<string, unknown> {
  const claim = reference?.trim();
  return {
    slug: metadata.tenant_slug,
    name: metadata.company_name,
    admin: {
      email: buyer.email || metadata.admin_email,
      name: buyer.name || metadata.admin_name,
    },
    reference_sha256: claim ? referenceDigest(claim) : undefined,
  };
}

/** The reason an event whose price the mapping lacks is ignored. */
export const UNMAPPED_PRICE = 'unmapped_price';
