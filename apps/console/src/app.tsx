import { type ComponentType, lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { AuthProvider, useAuth } from './api/auth';
import { HomePage } from './home/home-page';
import { useNavigationCounter } from './layout/route-focus';
import { Shell } from './layout/shell';
import { LoginPage } from './login/login-page';
import { Loading } from './ui/alert';
import { ErrorBoundary } from './ui/error-boundary';
import { NotFoundPage } from './ui/not-found-page';

// Everything past the first screens loads on demand: the login page stays small.
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((module) => ({ default: module[name] })));
const loadRecordList = () => import('./records/record-list-page');
const loadRecord = () => import('./records/record-page');
const loadRecordForm = () => import('./records/record-form-page');
const ApiKeysPage = page(() => import('./settings/api-keys-page'), 'ApiKeysPage');
const WebhooksPage = page(() => import('./settings/webhooks-page'), 'WebhooksPage');
const WebhookPage = page(() => import('./settings/webhook-page'), 'WebhookPage');
const UsersPage = page(() => import('./settings/users-page'), 'UsersPage');
const PortalAccessPage = page(() => import('./settings/portal-access-page'), 'PortalAccessPage');
const RecordsIndexPage = page(() => import('./records/records-index-page'), 'RecordsIndexPage');
const RecordListPage = page(loadRecordList, 'RecordListPage');
const RecordPage = page(loadRecord, 'RecordPage');
const RecordFormPage = page(loadRecordForm, 'RecordFormPage');

// A records address opened directly (a bookmark, a shared link): its code and the catalogue
// download while the session is being checked, instead of after it.
const opened = window.location.pathname.split('/');
if (opened[1] === 'records' && opened[2]) {
  void import('./records/catalogue').then((m) => m.preloadCatalogue()).catch(() => undefined);
  const load =
    opened.at(-1) === 'new' || opened.at(-1) === 'edit'
      ? loadRecordForm
      : opened[3]
        ? loadRecord
        : loadRecordList;
  void load().catch(() => undefined);
}

function Routes() {
  const { state } = useAuth();
  const [path] = useLocation();
  useNavigationCounter();

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
    <Shell>
      <ErrorBoundary resetKey={path}>
        <Suspense fallback={<Loading what="the page" />}>
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/settings/api-keys" component={ApiKeysPage} />
            <Route path="/settings/webhooks" component={WebhooksPage} />
            <Route path="/settings/webhooks/:id" component={WebhookPage} />
            <Route path="/settings/users" component={UsersPage} />
            <Route path="/settings/portal-access" component={PortalAccessPage} />
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
