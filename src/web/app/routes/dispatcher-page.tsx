import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { FleetMap } from '../../features/map/fleet-map';
import { configQuery } from '../../lib/load-queries';

/** `/`: the dispatcher's view. Until the watch list exists, it watches the demo fleet. */
export function DispatcherPage() {
  const config = useQuery(configQuery());
  if (config.isPending) return <p className="p-4 text-ink-muted">Loading Haulview…</p>;
  if (config.isError) return <ErrorBanner error={config.error} onRetry={() => void config.refetch()} />;
  const ids = config.data.demo?.externalIds ?? [];
  return <FleetMap config={config.data} by="external-id" ids={ids} />;
}
