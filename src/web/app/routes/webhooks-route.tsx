import { WebhooksPage } from '../../features/webhooks/webhooks-page';
import { WithConfig } from './with-config';

/** `/webhooks`: the admin form, once the config (demo token) is known. */
export function WebhooksRoute() {
  return <WithConfig>{(config) => <WebhooksPage config={config} />}</WithConfig>;
}
