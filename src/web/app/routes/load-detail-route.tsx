import { Link } from 'wouter';
import { LoadDetailWithMap } from '../../features/load-detail/load-detail-with-map';
import { loadKey, parseLoadPage } from '../../lib/load-ref';
import { WithConfig } from './with-config';

/** `/loads/:by/:id`: one load's page, or a way back when the path names no load. */
export function LoadDetailRoute({ params }: { params: { by?: string; id?: string } }) {
  const ref = parseLoadPage(params);
  if (!ref) {
    return (
      <p className="p-4">
        There is no such load page.{' '}
        <Link href="/" className="text-status-selected underline">
          Back to the map
        </Link>
      </p>
    );
  }
  return (
    <WithConfig>
      {(config) => <LoadDetailWithMap key={loadKey(ref)} loadRef={ref} config={config} />}
    </WithConfig>
  );
}
