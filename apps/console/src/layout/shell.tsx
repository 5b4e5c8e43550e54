import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { isAdmin, isSuperAdmin, useAuth, useMe } from '../api/auth';

interface NavItem {
  href: string;
  label: string;
  /** Matches sub-pages too (`/records/…`). */
  prefix?: boolean;
}

function navItems(me: ReturnType<typeof useMe>): {
  main: NavItem[];
  inventory: NavItem[];
  settings: NavItem[];
} {
  const main: NavItem[] = [{ href: '/', label: 'Home' }];
  if (me.tenant) main.push({ href: '/records', label: 'Records', prefix: true });
  const books = me.rights.includes('accounting:read') || me.rights.includes('accounting:write');
  if (me.tenant && books) main.push({ href: '/reports', label: 'Reports', prefix: true });
  const stock = me.rights.includes('inventory:read') || me.rights.includes('inventory:write');
  const inventory: NavItem[] = [];
  if (me.tenant && stock)
    inventory.push({ href: '/inventory/stock-levels', label: 'Stock levels' });
  const settings: NavItem[] = [];
  if (me.tenant && isAdmin(me)) settings.push({ href: '/settings/api-keys', label: 'API keys' });
  if (me.rights.includes('webhooks'))
    settings.push({ href: '/settings/webhooks', label: 'Webhooks', prefix: true });
  if (me.tenant && isAdmin(me)) settings.push({ href: '/settings/users', label: 'Users' });
  if (me.tenant && isAdmin(me)) settings.push({ href: '/settings/sso', label: 'Single sign-on' });
  if (me.tenant && isAdmin(me)) settings.push({ href: '/settings/audit-log', label: 'Audit log' });
  if (me.tenant && books) settings.push({ href: '/settings/accounting', label: 'Accounting' });
  if (me.tenant && books) settings.push({ href: '/settings/company', label: 'Company' });
  if (me.tenant && isSuperAdmin(me))
    settings.push({ href: '/settings/portal-access', label: 'Portal access' });
  return { main, inventory, settings };
}

function NavLink({ item, path }: { item: NavItem; path: string }) {
  const current = item.prefix
    ? path === item.href || path.startsWith(`${item.href}/`)
    : path === item.href;
  return (
    <li>
      <Link href={item.href} aria-current={current ? 'page' : undefined}>
        {item.label}
      </Link>
    </li>
  );
}

/** The logged-in frame: header (tenant, user, log out), navigation, and the page. */
export function Shell({ children, onIdle }: { children: ReactNode; onIdle?: () => void }) {
  const me = useMe();
  const { logOut } = useAuth();
  const [path] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const { main, inventory, settings } = navItems(me);

  useEffect(() => {
    if (!onIdle) return;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => onIdle());
    return () => cancel(handle);
  }, [onIdle]);

  // A link followed on a narrow screen closes the menu it was in.
  useEffect(() => setMenuOpen(false), [path]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          ERP console
        </Link>
        <span className="tenant-name">{me.tenant ? me.tenant.name : 'No organisation chosen'}</span>
        <button
          type="button"
          className="button menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
      </header>
      <nav id="nav" className={menuOpen ? 'nav nav-open' : 'nav'} aria-label="Main">
        <ul>
          {main.map((item) => (
            <NavLink key={item.href} item={item} path={path} />
          ))}
          {/* The portal's own page (Scalar over openapi.json), not a console route. */}
          <li>
            <a href="/api/v1/docs">API reference</a>
          </li>
        </ul>
        {inventory.length ? (
          <>
            <h2 className="nav-heading">Inventory</h2>
            <ul>
              {inventory.map((item) => (
                <NavLink key={item.href} item={item} path={path} />
              ))}
            </ul>
          </>
        ) : null}
        {settings.length ? (
          <>
            <h2 className="nav-heading">Settings</h2>
            <ul>
              {settings.map((item) => (
                <NavLink key={item.href} item={item} path={path} />
              ))}
            </ul>
          </>
        ) : null}
        <div className="nav-user">
          <p>
            <span className="muted">Signed in as</span> <strong>{me.user.name}</strong>
            <br />
            <span className="muted small">{me.user.email}</span>
          </p>
          <button type="button" className="button" onClick={logOut}>
            Log out
          </button>
        </div>
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
