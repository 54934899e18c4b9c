import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ClientConfig } from '@/contract/proxy-api';
import { ErrorBanner } from '../../components/error-banner';
import { configQuery } from '../../data/load-queries';

/** Renders a page once the config is known: a line while it loads, the error and a retry if it failed. */
export function WithConfig({
  loading = 'Loading…',
  children,
}: {
  loading?: string;
  children: (config: ClientConfig) => ReactNode;
}) {
  const config = useQuery(configQuery());
  if (config.isPending) return <p className="p-4 text-ink-muted">{loading}</p>;
  if (config.isError)
    return <ErrorBanner error={config.error} onRetry={() => void config.refetch()} kept={false} />;
  return children(config.data);
}
