import { Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { AuthProvider, useAuth } from './api/auth';
import { HomePage } from './home/home-page';
import { useNavigationCounter } from './layout/route-focus';
import { Shell } from './layout/shell';
import { LoginPage } from './login/login-page';
import { Loading } from './ui/alert';
import { ErrorBoundary } from './ui/error-boundary';
import { type LazyScreen, lazyScreen } from './ui/lazy-screen';
import { NotFoundPage } from './ui/not-found-page';

// Everything past the first screens loads on demand: the login page stays small.
const ApiKeysPage = lazyScreen(() => import('./settings/api-keys-page'), 'ApiKeysPage');
const WebhooksPage = lazyScreen(() => import('./settings/webhooks-page'), 'WebhooksPage');
const WebhookPage = lazyScreen(() => import('./settings/webhook-page'), 'WebhookPage');
const UsersPage = lazyScreen(() => import('./settings/users-page'), 'UsersPage');
const SsoPage = lazyScreen(() => import('./settings/sso-page'), 'SsoPage');
const AuditLogPage = lazyScreen(() => import('./settings/audit-log-page'), 'AuditLogPage');
const PortalAccessPage = lazyScreen(
  () => import('./settings/portal-access-page'),
  'PortalAccessPage',
);
const AccountingSettingsPage = lazyScreen(
  () => import('./settings/accounting-page'),
  'AccountingSettingsPage',
);
const CompanySettingsPage = lazyScreen(
  () => import('./settings/company-page'),
  'CompanySettingsPage',
);
const ReportsPage = lazyScreen(() => import('./reports/reports-page'), 'ReportsPage');
const TrialBalancePage = lazyScreen(
  () => import('./reports/trial-balance-page'),
  'TrialBalancePage',
);
const GeneralLedgerPage = lazyScreen(
  () => import('./reports/general-ledger-page'),
  'GeneralLedgerPage',
);
const AgedReceivablesPage = lazyScreen(
  () => import('./reports/aged-balance-page'),
  'AgedReceivablesPage',
);
const AgedPayablesPage = lazyScreen(
  () => import('./reports/aged-balance-page'),
  'AgedPayablesPage',
);
const FecPage = lazyScreen(() => import('./reports/fec-page'), 'FecPage');
const StockLevelsPage = lazyScreen(() => import('./goods/stock-levels-page'), 'StockLevelsPage');
const RecordsIndexPage = lazyScreen(
  () => import('./records/records-index-page'),
  'RecordsIndexPage',
);
const RecordListPage = lazyScreen(() => import('./records/record-list-page'), 'RecordListPage');
const RecordPage = lazyScreen(() => import('./records/record-page'), 'RecordPage');
const RecordFormPage = lazyScreen(() => import('./records/record-form-page'), 'RecordFormPage');
// Screens of people not logged in who followed a link from an e-mail (SPEC §13).
const ResetPasswordPage = lazyScreen(
  () => import('./password/reset-password-page'),
  'ResetPasswordPage',
);
const InvitationPage = lazyScreen(() => import('./password/invitation-page'), 'InvitationPage');
const LINK_SCREENS: Record<string, LazyScreen> = {
  '/reset-password': ResetPasswordPage,
  '/invitation': InvitationPage,
};
const preloadCatalogue = () => import('./records/catalogue').then((m) => m.preloadCatalogue());

// A records address opened directly (a bookmark, a shared link): its code and the catalogue
// download while the session is being checked, instead of after it.
const opened = window.location.pathname.split('/');
if (opened[1] === 'records' && opened[2]) {
  const last = opened.at(-1);
  const screen =
    last === 'new' || last === 'edit' ? RecordFormPage : opened[3] ? RecordPage : RecordListPage;
  for (const load of [preloadCatalogue, screen.preload]) void load().catch(() => undefined);
}

/**
 * Once someone is logged in and the page is idle, the other screens' code and the catalogue
 * are fetched (about 70 kB compressed, cached for good): following a link then shows the page
 * at once instead of waiting for a download and React's fallback throttle.
 */
function preloadScreens(): void {
  const loads = [
    ...[
      ApiKeysPage,
      WebhooksPage,
      WebhookPage,
      UsersPage,
      SsoPage,
      AuditLogPage,
      PortalAccessPage,
      AccountingSettingsPage,
      CompanySettingsPage,
    ].map((s) => s.preload),
    ...[
      ReportsPage,
      TrialBalancePage,
      GeneralLedgerPage,
      AgedReceivablesPage,
      FecPage,
      StockLevelsPage,
    ].map((s) => s.preload),
    ...[RecordsIndexPage, RecordListPage, RecordPage, RecordFormPage].map((s) => s.preload),
    preloadCatalogue,
  ];
  for (const load of loads) void load().catch(() => undefined);
}

function Routes() {
  const { state } = useAuth();
  const [path] = useLocation();
  useNavigationCounter();

  // Whoever holds the link, logged in or not, and without waiting for the session check.
  const LinkScreen = LINK_SCREENS[path];
  if (LinkScreen) {
    return (
      <Suspense fallback={<Loading what="the page" />}>
        <LinkScreen />
      </Suspense>
    );
  }
  if (state.status === 'loading') {
    return (
      <main id="main" className="boot">
        <Loading what="your session" />
      </main>
    );
  }
  if (state.status === 'anonymous') {
    if (path !== '/login') {
      const next =
        path === '/' || state.loggedOut
          ? ''
          : `?next=${encodeURIComponent(path + window.location.search)}`;
      return <Redirect to={`/login${next}`} replace />;
    }
    return <LoginPage />;
  }
  if (path === '/login') {
    const next = new URLSearchParams(window.location.search).get('next');
    // Only a path of this console: never an open redirect.
    return <Redirect to={next?.startsWith('/') && !next.startsWith('//') ? next : '/'} replace />;
  }
  return (
    <Shell onIdle={preloadScreens}>
      <ErrorBoundary resetKey={path}>
        <Suspense fallback={<Loading what="the page" />}>
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/settings/api-keys" component={ApiKeysPage} />
            <Route path="/settings/webhooks" component={WebhooksPage} />
            <Route path="/settings/webhooks/:id" component={WebhookPage} />
            <Route path="/settings/users" component={UsersPage} />
            <Route path="/settings/sso" component={SsoPage} />
            <Route path="/settings/audit-log" component={AuditLogPage} />
            <Route path="/settings/portal-access" component={PortalAccessPage} />
            <Route path="/settings/accounting" component={AccountingSettingsPage} />
            <Route path="/settings/company" component={CompanySettingsPage} />
            <Route path="/reports" component={ReportsPage} />
            <Route path="/reports/trial-balance" component={TrialBalancePage} />
            <Route path="/reports/general-ledger" component={GeneralLedgerPage} />
            <Route path="/reports/aged-receivables" component={AgedReceivablesPage} />
            <Route path="/reports/aged-payables" component={AgedPayablesPage} />
            <Route path="/reports/fec" component={FecPage} />
            <Route path="/inventory/stock-levels" component={StockLevelsPage} />
            <Route path="/records" component={RecordsIndexPage} />
            <Route path="/records/:path" component={RecordListPage} />
            <Route path="/records/:path/new" component={RecordFormPage} />
            <Route path="/records/:path/:id/edit" component={RecordFormPage} />
            <Route path="/records/:path/:id" component={RecordPage} />
            <Route component={NotFoundPage} />
          </Switch>
        </Suspense>
      </ErrorBoundary>
    </Shell>
  );
}

export function App() {
  return (
    <AuthProvider>
      <Routes />
    </AuthProvider>
  );
}
