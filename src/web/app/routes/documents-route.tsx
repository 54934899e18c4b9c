import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { DocumentsPage } from '../../features/documents/documents-page';
import { configQuery } from '../../data/load-queries';

/** `/documents`: the brokers' inbox, once the config is known. */
export function DocumentsRoute() {
  const config = useQuery(configQuery());
  if (config.isPending) return <p className="p-4 text-ink-muted">Loading…</p>;
  if (config.isError) return <ErrorBanner error={config.error} onRetry={() => void config.refetch()} />;
  return <DocumentsPage config={config.data} />;
}
