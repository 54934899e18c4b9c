import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { ErrorBanner } from '../components/error-banner';
import { may, MAY, sessionQueries } from '../data/session-queries';
import { LiveStream } from './live-stream-start';
import { DispatcherRoute } from './routes/dispatcher-route';
import { MainNav, type NavLinkItem } from './main-nav';
import { PageBoundary } from './page-boundary';
import { HeaderBell } from './header-bell';
import { OpenModeBanner, SessionMenu } from '../features/session/session-bar';
import type { SessionUser } from '@/contract/proxy-api';

// Pages beyond the first screen load on demand, so the map comes up with less JavaScript.
const LoadDetailRoute = lazy(() =>
  import('./routes/load-detail-route').then((m) => ({ default: m.LoadDetailRoute })),
);
const DocumentsRoute = lazy(() =>
  import('./routes/documents-route').then((m) => ({ default: m.DocumentsRoute })),
);
const WebhooksRoute = lazy(() =>
  import('./routes/webhooks-route').then((m) => ({ default: m.WebhooksRoute })),
);
const ExceptionsRoute = lazy(() =>
  import('./routes/exceptions-route').then((m) => ({ default: m.ExceptionsRoute })),
);
const ReplayRoute = lazy(() => import('./routes/replay-route').then((m) => ({ default: m.ReplayRoute })));
// Logged in, the page never needs the login form: its code comes only to those who are not.
const LoginPage = lazy(() =>
  import('../features/session/login-page').then((m) => ({ default: m.LoginPage })),
);
const UsersPage = lazy(() => import('../features/users/users-page').then((m) => ({ default: m.UsersPage })));
const AuditPage = lazy(() => import('../features/audit/audit-page').then((m) => ({ default: m.AuditPage })));
const SharesPage = lazy(() =>
  import('../features/shares/shares-page').then((m) => ({ default: m.SharesPage })),
);
const BillingPage = lazy(() =>
  import('../features/billing/billing-page').then((m) => ({ default: m.BillingPage })),
);
const AlertsAdminPage = lazy(() =>
  import('../features/alerts/alerts-admin-page').then((m) => ({ default: m.AlertsAdminPage })),
);
const DiagnosticsPage = lazy(() =>
  import('../features/diagnostics/diagnostics-page').then((m) => ({ default: m.DiagnosticsPage })),
);

/** The pages, each with what its user must be allowed (none: every role). */
const NAV = [
  { href: '/', label: 'Map' },
  { href: '/exceptions', label: 'Exceptions', what: 'seeExceptions' },
  { href: '/documents', label: 'Documents', what: 'reviewDocuments' },
  { href: '/billing', label: 'Billing', what: 'bill' },
  { href: '/shares', label: 'Share links', what: 'manageShares' },
  { href: '/webhooks', label: 'Webhooks', what: 'manageWebhooks' },
  { href: '/diagnostics', label: 'Diagnostics', what: 'seeDiagnostics' },
  { href: '/admin/users', label: 'Users', what: 'manageUsers' },
  { href: '/admin/audit', label: 'Audit', what: 'seeAudit' },
] as const satisfies readonly (NavLinkItem & { what?: keyof typeof MAY })[];

/** A page the user's role may not open says so, instead of failing with the server's 403s. */
function Allowed({
  user,
  what,
  children,
}: {
  user: SessionUser;
  what: keyof typeof MAY;
  children: ReactNode;
}) {
  if (may(user, what)) return children;
  return (
    <p className="p-4">
      This page is for {MAY[what].join(' and ')} users; you are logged in as a {user.role}.{' '}
      <Link href="/" className="text-status-selected underline">
        Back to the map
      </Link>
    </p>
  );
}

export function App() {
  const session = useQuery(sessionQueries.state());
  const [location] = useLocation();
  if (session.isPending) return <p className="p-4 text-ink-muted">Loading Haulview…</p>;
  if (session.isError)
    return <ErrorBanner error={session.error} onRetry={() => void session.refetch()} kept={false} />;
  const user = session.data.user;
  if (user === null)
    return (
      <Suspense fallback={<p className="p-4 text-ink-muted">Loading Haulview…</p>}>
        <LoginPage />
      </Suspense>
    );
  const links = NAV.filter((link) => !('what' in link) || may(user, link.what));
  return (
    <div className="flex h-full flex-col">
      <LiveStream />
      <header className="relative flex flex-wrap items-center justify-between gap-x-4 bg-ink px-4 py-1 text-white md:flex-nowrap md:justify-start">
        <h1 className="text-lg font-semibold tracking-tight">Haulview</h1>
        <MainNav links={links} />
        <SessionMenu session={session.data} />
        <OpenModeBanner session={session.data} />
        <HeaderBell user={user.name} />
      </header>
      <main className="min-h-0 flex-1">
        <PageBoundary page={location}>
          <Suspense fallback={<p className="p-4 text-ink-muted">Loading…</p>}>
            <Switch>
              <Route path="/" component={DispatcherRoute} />
              <Route path="/loads/:by/:id" component={LoadDetailRoute} />
              <Route path="/exceptions">
                <Allowed user={user} what="seeExceptions">
                  <ExceptionsRoute />
                </Allowed>
              </Route>
              <Route path="/replay" component={ReplayRoute} />
              <Route path="/documents">
                <Allowed user={user} what="reviewDocuments">
                  <DocumentsRoute />
                </Allowed>
              </Route>
              <Route path="/billing">
                <Allowed user={user} what="bill">
                  <BillingPage />
                </Allowed>
              </Route>
              <Route path="/shares">
                <Allowed user={user} what="manageShares">
                  <SharesPage />
                </Allowed>
              </Route>
              <Route path="/webhooks">
                <Allowed user={user} what="manageWebhooks">
                  <WebhooksRoute />
                </Allowed>
              </Route>
              <Route path="/admin/users">
                <Allowed user={user} what="manageUsers">
                  <UsersPage session={session.data} />
                </Allowed>
              </Route>
              <Route path="/admin/audit">
                <Allowed user={user} what="seeAudit">
                  <AuditPage />
                </Allowed>
              </Route>
              <Route path="/admin/alerts">
                <Allowed user={user} what="manageAlerts">
                  <AlertsAdminPage />
                </Allowed>
              </Route>
              <Route path="/diagnostics">
                <Allowed user={user} what="seeDiagnostics">
                  <DiagnosticsPage />
                </Allowed>
              </Route>
              <Route>
                <p className="p-4">
                  There is no page here.{' '}
                  <Link href="/" className="text-status-selected underline">
                    Back to the map
                  </Link>
                </p>
              </Route>
            </Switch>
          </Suspense>
        </PageBoundary>
      </main>
    </div>
  );
}
