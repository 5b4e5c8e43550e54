/**
 * The console's one sdk client and its cookie session (SPEC §14): the access token lives in
 * the session's closure, the refresh token in an HttpOnly cookie the page cannot read.
 * Nothing here touches localStorage or sessionStorage.
 */
import { type ApiError, cookieSession, createClient } from '@erp/sdk';

const origin = window.location.origin;

export const session = cookieSession({ baseUrl: origin });
export const client = createClient({ baseUrl: origin, session });

// The tenant the client sends (X-Tenant-ID), also for the files fetched without it (files.ts).
let currentTenant: string | undefined;
const setClientTenant = client.setTenant;
client.setTenant = (tenant) => {
  currentTenant = tenant;
  setClientTenant(tenant);
};

/** The tenant of the next requests, as `setTenant` last chose it. */
export function tenant(): string | undefined {
  return currentTenant;
}

/** What a call answers: the data, or the portal's `{code, params, message}`. */
export type Outcome<T> =
  | { data: T; error?: undefined; response?: Response }
  | { data?: undefined; error: ApiError; response?: Response };

interface RawInit {
  query?: Record<string, string | number | undefined | readonly string[]>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}
type RawCall = (path: string, init?: RawInit) => Promise<Outcome<unknown>>;

/**
 * The same client, untyped: the records browser builds paths from the catalogue at run time
 * (`/api/v1/${path}/{id}`), which the generated path types cannot name.
 */
export const raw = client as unknown as Record<'get' | 'post' | 'patch' | 'delete', RawCall>;
