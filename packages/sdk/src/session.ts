import { ApiError, decodeError } from './errors.js';

/**
 * Where a client gets its access token when it acts for a person rather than with an API key.
 * `refresh()` resolves true when a new access token is ready; the client calls it once on a
 * 401 `jeton_invalide` (concurrent 401s share one call) and retries.
 */
export interface Session {
  accessToken(): Promise<string | undefined>;
  refresh(): Promise<boolean>;
}

export interface CookieSessionOptions {
  /** The portal's origin; `''` (the default) for the page's own. */
  baseUrl?: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface Credentials {
  email: string;
  password: string;
  /** Slug or id: refused at once when the user is not a member, or it logs in through SSO. */
  tenant?: string;
}

/** A browser session on the portal's own pages: the refresh token lives in an HttpOnly cookie. */
export interface CookieSession extends Session {
  /** Logs in; throws the portal's `ApiError` (`identifiants_invalides`, `sso_requis`, …). */
  login(credentials: Credentials): Promise<void>;
  /** Ends the session on the portal and here; throws if the portal could not be told. */
  logout(): Promise<void>;
  /** Called with `true` when a session starts, `false` when it ends; returns an unsubscribe. */
  onChange(listener: (active: boolean) => void): () => void;
}

/** The part of the Web Locks API used here (the DOM lib's LockManager, without needing it). */
interface Locks {
  request(name: string, callback: () => Promise<boolean>): Promise<boolean>;
}

/** What login and refresh answer in cookie mode. */
interface AccessToken {
  access_token: string;
  expires_in: number;
}

const AUTH = '/api/v1/auth';
// A token is renewed this long before it expires, so no request leaves with one about to lapse.
const EARLY_MS = 30_000;

/**
 * The session the console uses (SPEC §14): the access token is kept in this closure only (never
 * in localStorage or sessionStorage), the refresh token in the portal's `erp_refresh` cookie,
 * which scripts cannot read. The token is renewed on use when it is within 30 s of expiry, or
 * on demand; renewals are serialised across the origin's tabs (Web Locks), because two tabs
 * presenting the same cookie at once would look like a stolen token and end the session.
 */
export function cookieSession(options: CookieSessionOptions = {}): CookieSession {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const listeners = new Set<(active: boolean) => void>();
  let token: string | undefined;
  let renewAt = 0;
  // Whether a session is known to be over: then asking for a token does not ask the portal.
  let ended = false;
  let active = false;
  let renewing: Promise<boolean> | undefined;

  const post = (path: string, method: string, body?: unknown) =>
    fetchImpl(base + AUTH + path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });

  function settle(access: AccessToken | undefined): void {
    token = access?.access_token;
    renewAt = access
      ? Date.now() + Math.max(access.expires_in * 500, access.expires_in * 1000 - EARLY_MS)
      : 0;
    ended = !access;
    if (active !== !!access) {
      active = !!access;
      for (const listener of [...listeners]) listener(active);
    }
  }

  async function renew(): Promise<boolean> {
    try {
      const response = await post('/refresh', 'POST');
      if (response.ok) {
        settle((await response.json()) as AccessToken);
        return true;
      }
      // Read to the end all the same: a body left unread keeps the request open (Chromium never
      // marks it finished) and, in Node, its connection out of the pool.
      await response.arrayBuffer().catch(() => undefined);
      // Refused (401, 403): the cookie is gone, used or revoked. A 5xx or an unreachable
      // portal refuses nothing: the session may well live on.
      if (response.status < 500) settle(undefined);
      return false;
    } catch {
      return false;
    }
  }

  function refresh(): Promise<boolean> {
    const locks = (globalThis as { navigator?: { locks?: Locks } }).navigator?.locks;
    renewing ??= (locks ? locks.request('erp-session-refresh', renew) : renew()).finally(() => {
      renewing = undefined;
    });
    return renewing;
  }

  return {
    async accessToken() {
      if ((!token && !ended) || (token && Date.now() >= renewAt)) await refresh();
      return token;
    },
    refresh,
    async login(credentials) {
      const response = await post('/login', 'POST', { ...credentials, refresh_cookie: true });
      const text = await response.text();
      if (!response.ok) throw decodeError(response.status, text);
      settle(JSON.parse(text) as AccessToken);
    },
    async logout() {
      settle(undefined);
      let response: Response;
      try {
        response = await post('/refresh', 'DELETE');
      } catch (cause) {
        throw new ApiError('erreur_reseau', cause instanceof Error ? cause.message : String(cause));
      }
      if (!response.ok) throw decodeError(response.status, await response.text());
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
