import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { WebhooksPage } from '../../features/webhooks/webhooks-page';
import { configQuery } from '../../data/load-queries';

/** `/webhooks`: the admin form, once the config (demo token) is known. */
export function WebhooksRoute() {
  const config = useQuery(configQuery());
  if (config.isPending) return <p className="p-4 text-ink-muted">Loading…</p>;
  if (config.isError) return <ErrorBanner error={config.error} onRetry={() => void config.refetch()} />;
  return <WebhooksPage config={config.data} />;
}
