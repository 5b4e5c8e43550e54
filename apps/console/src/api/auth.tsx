/**
 * Who is logged in, in which tenant, with which rights: one context the whole console reads.
 * Booting asks the refresh cookie for a session (a reload keeps you logged in); the tenant
 * chosen last is remembered by slug (a name, not a credential) so a reload lands in it again.
 */
import { ApiError, type components } from '@erp/sdk';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { client, session } from './client';

export type Me = components['schemas']['Me'];
export type Membership = Me['memberships'][number];

export type AuthState =
  | { status: 'loading' }
  /** `loggedOut`: the person asked; the login page then forgets where they were. */
  | { status: 'anonymous'; loggedOut?: boolean }
  | { status: 'ready'; me: Me };

export interface Auth {
  state: AuthState;
  /** Logs in; answers the portal's error (`identifiants_invalides`, `sso_requis`…) or nothing. */
  logIn(input: { email: string; password: string; tenant?: string }): Promise<ApiError | undefined>;
  logOut(): Promise<void>;
  chooseTenant(slug: string): Promise<void>;
}

const TENANT_KEY = 'erp.console.tenant';
const AuthContext = createContext<Auth | null>(null);

/**
 * Reads `/me` in `tenant` (or the remembered one, or the only membership). A tenant that
 * refuses the session (`sso_requis`: it signs in through its identity provider) answers its
 * error when it was asked for; a remembered one is dropped instead, like a lost membership.
 */
async function loadMe(tenant?: string): Promise<Me | ApiError | undefined> {
  const wanted = tenant ?? localStorage.getItem(TENANT_KEY) ?? undefined;
  client.setTenant(wanted);
  let answer = await client.get('/api/v1/me');
  if (answer.error?.code === 'sso_requis' && tenant) return answer.error;
  if ((answer.error?.code === 'tenant_invalide' || answer.error?.code === 'sso_requis') && wanted) {
    // The remembered tenant is gone (membership removed, or it now needs single sign-on).
    localStorage.removeItem(TENANT_KEY);
    client.setTenant(undefined);
    answer = await client.get('/api/v1/me');
  }
  if (answer.error) return undefined;
  const me = answer.data;
  if (!me.tenant && me.memberships.length === 1) return loadMe(me.memberships[0]!.tenant.slug);
  if (me.tenant) localStorage.setItem(TENANT_KEY, me.tenant.slug);
  return me;
}

/** A single sign-on start URL that lands back on `path` (a path of this console) afterwards. */
export function withReturnTo(startUrl: string, path: string | null | undefined): string {
  if (!path?.startsWith('/') || path.startsWith('//') || path === '/') return startUrl;
  const url = new URL(startUrl, window.location.origin);
  // Only the portal's own start URL gets one (a legacy URL goes elsewhere, as given).
  if (url.origin !== window.location.origin) return startUrl;
  url.searchParams.set('return_to', path);
  return url.href;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    (async () => {
      const loaded = (await session.refresh()) ? await loadMe() : undefined;
      const me = loaded instanceof ApiError ? undefined : loaded;
      if (live) setState(me ? { status: 'ready', me } : { status: 'anonymous' });
    })();
    // A refresh that fails later (session revoked, cookie expired) logs the page out.
    const stop = session.onChange((signedIn: boolean) => {
      if (!signedIn) setState({ status: 'anonymous' });
    });
    return () => {
      live = false;
      stop();
    };
  }, []);

  const logIn = useCallback<Auth['logIn']>(async ({ email, password, tenant }) => {
    try {
      await session.login({ email, password, ...(tenant ? { tenant } : {}) });
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    const me = await loadMe(tenant || undefined);
    // A tenant that now signs in through its provider: the login page offers the way there.
    if (me instanceof ApiError) {
      await session.logout().catch(() => undefined);
      return me;
    }
    setState(me ? { status: 'ready', me } : { status: 'anonymous' });
    return undefined;
  }, []);

  const logOut = useCallback(async () => {
    // The page forgets the session whatever the portal answers; an unreachable portal only
    // leaves the cookie's session to expire on its own.
    await session.logout().catch(() => undefined);
    client.setTenant(undefined);
    setState({ status: 'anonymous', loggedOut: true });
  }, []);

  const chooseTenant = useCallback(async (slug: string) => {
    const me = await loadMe(slug);
    // A tenant that signs in through its identity provider: go there, and come back here.
    if (me instanceof ApiError) {
      const start = String(me.params.authorize_url ?? '');
      if (start) window.location.assign(withReturnTo(start, window.location.pathname));
      return;
    }
    if (me) setState({ status: 'ready', me });
  }, []);

  const auth = useMemo(
    () => ({ state, logIn, logOut, chooseTenant }),
    [state, logIn, logOut, chooseTenant],
  );
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

/** The logged-in caller (inside the authenticated part of the console). */
export function useMe(): Me {
  const { state } = useAuth();
  if (state.status !== 'ready') throw new Error('useMe without a session');
  return state.me;
}

/** Whether the caller's roles in the current tenant include admin or super-admin. */
export function isAdmin(me: Me): boolean {
  const roles = me.memberships.find((m) => m.tenant.id === me.tenant?.id)?.roles ?? [];
  return roles.includes('admin') || roles.includes('super-admin');
}

export function isSuperAdmin(me: Me): boolean {
  const roles = me.memberships.find((m) => m.tenant.id === me.tenant?.id)?.roles ?? [];
  return roles.includes('super-admin');
}
