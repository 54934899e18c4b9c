import { useEffect } from 'react';
import { DispatcherPage, preloadFleetMap } from '../../features/dispatcher/dispatcher-page';
import { WithConfig } from './with-config';

/** `/`: the dispatcher's view. Its map's chunk is asked for at once, while the config loads. */
export function DispatcherRoute() {
  useEffect(preloadFleetMap, []);
  return (
    <WithConfig loading="Loading Haulview…">{(config) => <DispatcherPage config={config} />}</WithConfig>
  );
}
