import { ExceptionsPage } from '../../features/exceptions/exceptions-page';
import { WithConfig } from './with-config';

/** `/exceptions`: the loads that need action, once the config is known. */
export function ExceptionsRoute() {
  return <WithConfig>{(config) => <ExceptionsPage config={config} />}</WithConfig>;
}
