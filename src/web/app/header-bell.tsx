import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { configQuery } from '../data/load-queries';

// The first page draws without the bell's code: its count waits for the first answer anyway.
const AlertBell = lazy(() =>
  import('../features/exceptions/alert-bell').then((m) => ({ default: m.AlertBell })),
);

/** The header's alert bell, once the refresh interval is known; its place kept meanwhile. */
export function HeaderBell({ user }: { user: string }) {
  const config = useQuery(configQuery());
  const placeholder = <span className="inline-block size-7" aria-hidden="true" />;
  return config.data ? (
    <Suspense fallback={placeholder}>
      <AlertBell user={user} refreshSeconds={config.data.refreshSeconds} />
    </Suspense>
  ) : (
    placeholder
  );
}
