import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link, Route, Switch } from 'wouter';
import { ErrorBanner } from '../components/error-banner';
import { sessionQueries } from '../data/session-queries';
import { DispatcherRoute } from './routes/dispatcher-route';
import { MainNav } from './main-nav';
import { LoginPage } from '../features/session/login-page';

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
const DiagnosticsPage = lazy(() =>
  import('../features/diagnostics/diagnostics-page').then((m) => ({ default: m.DiagnosticsPage })),
);

const NAV = [
  { href: '/', label: 'Map' },
  { href: '/documents', label: 'Documents' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/diagnostics', label: 'Diagnostics' },
] as const;

export function App() {
  const session = useQuery(sessionQueries.state());
  if (session.isPending) return <p className="p-4 text-ink-muted">Loading Haulview…</p>;
  if (session.isError) return <ErrorBanner error={session.error} onRetry={() => void session.refetch()} />;
  if (session.data.required && !session.data.active) return <LoginPage />;
  return (
    <div className="flex h-full flex-col">
      <header className="relative flex items-center justify-between gap-4 bg-ink px-4 py-1 text-white md:justify-start">
        <h1 className="text-lg font-semibold tracking-tight">Haulview</h1>
        <MainNav links={NAV} />
      </header>
      <main className="min-h-0 flex-1">
        <Suspense fallback={<p className="p-4 text-ink-muted">Loading…</p>}>
          <Switch>
            <Route path="/" component={DispatcherRoute} />
            <Route path="/loads/:by/:id" component={LoadDetailRoute} />
            <Route path="/documents" component={DocumentsRoute} />
            <Route path="/webhooks" component={WebhooksRoute} />
            <Route path="/diagnostics" component={DiagnosticsPage} />
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
      </main>
    </div>
  );
}
