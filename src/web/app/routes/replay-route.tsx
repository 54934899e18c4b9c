import { ReplayPage } from '../../features/replay/replay-page';
import { WithConfig } from './with-config';

/** `/replay?loads=e:1,e:2&t=…&speed=60`: several loads on one time slider. */
export function ReplayRoute() {
  return <WithConfig>{(config) => <ReplayPage config={config} />}</WithConfig>;
}
