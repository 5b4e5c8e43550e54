import { z } from '@hono/zod-openapi';
import { RoleSchema } from '../modules';
import { SlugSchema, TimestampSchema, withoutCredentials } from './common';

export const SSO_ISSUER_MAX_LENGTH = 2048;
export const SSO_ALLOWED_DOMAINS_MAX = 50;
/** How long a started sign-in may take at the provider before its `state` expires. */
export const SSO_STATE_TTL_SECONDS = 600;

/** A role just-in-time members may get: anything but `super-admin`, which only a super-admin grants. */
const DefaultRoleSchema = RoleSchema.refine(
  (role) => role !== 'super-admin',
  'super-admin cannot be granted just in time',
);

/** An issuer identifier (OpenID Connect Discovery §2): absolute, no query, fragment or credentials. */
const IssuerSchema = z
  .url({ protocol: /^https?$/, error: 'an absolute http(s) URL' })
  .max(SSO_ISSUER_MAX_LENGTH)
  .refine(
    (url) => ![...url].some((c) => c <= ' ' || c === '\u007f'),
    'must not contain spaces or control characters',
  )
  .refine(withoutCredentials, 'must not contain a user name or password')
  .refine((url) => !url.includes('?') && !url.includes('#'), 'must not have a query or fragment')
  .openapi({
    description:
      'The OpenID provider’s issuer identifier, exactly as its discovery document (`/.well-known/openid-configuration`) states it. `https` only, on a public address, unless the server allows insecure issuers (development: `http` on loopback).',
    example: 'https://login.example.com/tenant-42',
  });

/** A domain name in its ASCII form (IDNs as punycode), lower case. */
const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
    'a domain name such as example.com (IDNs in punycode)',
  )
  .openapi({ example: 'example.com' });

export const SsoSettingsSchema = z
  .object({
    configured: z.boolean().openapi({
      description: 'Whether an OpenID provider is set: people can sign in through it.',
    }),
    issuer: z.string().nullable(),
    client_id: z.string().nullable(),
    client_secret_set: z.boolean().openapi({
      description: 'Whether a client secret is stored. The secret itself is never returned.',
    }),
    allowed_domains: z.array(z.string()).openapi({
      description:
        'People whose verified e-mail is in one of these domains become members on their first sign-in (with `default_role`). Anyone else must already be a member.',
    }),
    default_role: RoleSchema.nullable().openapi({
      description: 'The role people get when they join on first sign-in; null until configured.',
    }),
    enforced: z.boolean().openapi({
      description:
        'Whether password logins are refused in this tenant (`sso_requis`); its super-admins keep their password as a fallback.',
    }),
    redirect_uri: z.string().openapi({
      description: 'The redirect URI to register with the provider (this portal’s callback).',
      example: 'https://erp.example.com/api/v1/auth/sso/callback',
    }),
    start_url: z.string().openapi({
      description: 'Where people start signing in (what `sso_requis` gives as `authorize_url`).',
      example: 'https://erp.example.com/api/v1/auth/sso/start?tenant=demo',
    }),
    legacy_authorize_url: z.string().nullable().openapi({
      description:
        'Set before OpenID settings existed (an operator’s URL answered by password logins as `sso_requis`); saving settings replaces it.',
    }),
    updated_at: TimestampSchema.nullable(),
  })
  .openapi('SsoSettings');

export const UpdateSsoSettingsBodySchema = z
  .strictObject({
    issuer: IssuerSchema,
    client_id: z.string().trim().min(1).max(255).openapi({ example: 'erp-console' }),
    client_secret: z.string().min(1).max(1024).optional().openapi({
      description:
        'Write only. Required the first time; omit it to keep the stored one. Stored encrypted, never returned.',
    }),
    allowed_domains: z
      .array(DomainSchema)
      .max(SSO_ALLOWED_DOMAINS_MAX)
      .refine((domains) => new Set(domains).size === domains.length, 'domains must not repeat'),
    default_role: DefaultRoleSchema,
    enforced: z.boolean(),
  })
  .openapi('UpdateSsoSettingsRequest', {
    description:
      'Replaces the settings. The issuer’s discovery document and key set are fetched and checked before anything is stored.',
  });

export type UpdateSsoSettingsBody = z.infer<typeof UpdateSsoSettingsBodySchema>;

/** Where a sign-in may land afterwards: a path of the console, or a URL of the portal's own origin. */
export const ReturnToSchema = z.string().min(1).max(2048);

export const SsoStartQuerySchema = z.object({
  tenant: SlugSchema.openapi({ param: { name: 'tenant', in: 'query' } }),
  return_to: ReturnToSchema.optional().openapi({
    param: { name: 'return_to', in: 'query' },
    description:
      'Where to go once signed in: a path (`/records/sales-orders`) or a URL on the portal’s own origin; anything else is refused. Default `/`.',
  }),
});

export const SsoCallbackQuerySchema = z.object({
  state: z
    .string()
    .max(512)
    .optional()
    .openapi({ param: { name: 'state', in: 'query' } }),
  code: z
    .string()
    .max(4096)
    .optional()
    .openapi({ param: { name: 'code', in: 'query' } }),
  error: z
    .string()
    .max(256)
    .optional()
    .openapi({ param: { name: 'error', in: 'query' } }),
});
