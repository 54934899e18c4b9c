import { TimeZoneSwitch } from '../../components/time-zone-switch';
import { UpdatedAge } from '../../components/updated-age';
import type { InboxDocument } from './inbox-model';
import { INBOX_BUTTON, plural } from './inbox-text';

export interface InboxHeaderProps {
  documents: readonly InboxDocument[];
  unreviewed: number;
  watched: number;
  /** How many watched loads the service does not know. */
  notFound: number;
  /** How many watched loads the proxy has not had a first answer about yet. */
  waiting: number;
  /** How many documents came since the page opened. */
  arrived: number;
  updatedAt: number;
  fetching: boolean;
  refreshSeconds: number;
  onRefresh: () => void;
}

/** The inbox's title, what it holds, what came since the page opened, and its refresh. */
export function InboxHeader({
  documents,
  unreviewed,
  watched,
  notFound,
  waiting,
  arrived,
  updatedAt,
  fetching,
  refreshSeconds,
  onRefresh,
}: InboxHeaderProps) {
  const loadsWithDocuments = new Set(documents.map((d) => d.load.key)).size;
  return (
    <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 border-b border-panel-line bg-panel px-4 py-2 text-sm">
      <h2 className="text-xl font-semibold">Documents</h2>
      <span>
        <strong>{unreviewed}</strong> not reviewed of {plural(documents.length, 'document')} from{' '}
        {plural(loadsWithDocuments, 'load')}
      </span>
      {notFound > 0 && (
        <span className="text-status-stale">{plural(notFound, 'watched load')} not found</span>
      )}
      {waiting > 0 && (
        <span className="text-ink-muted">{plural(waiting, 'watched load')} waiting for the first answer</span>
      )}
      <span aria-live="polite" className="text-blue-900">
        {arrived > 0 ? `${plural(arrived, 'new document')} since you opened this page` : ''}
      </span>
      <TimeZoneSwitch className="ml-auto" />
      <UpdatedAge
        className="text-ink-muted"
        updatedAt={updatedAt}
        fetching={fetching}
        refreshSeconds={refreshSeconds}
      />
      <button type="button" className={INBOX_BUTTON} onClick={onRefresh} disabled={fetching || watched === 0}>
        {fetching ? 'Refreshing…' : 'Refresh'}
      </button>
    </div>
  );
}
