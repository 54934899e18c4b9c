import { DocumentsPage } from '../../features/documents/documents-page';
import { WithConfig } from './with-config';

/** `/documents`: the brokers' inbox, once the config is known. */
export function DocumentsRoute() {
  return <WithConfig>{(config) => <DocumentsPage config={config} />}</WithConfig>;
}
