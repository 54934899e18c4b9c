import type { ClientConfig } from '@/contract/proxy-api';
import { useDocumentsInbox } from './use-documents-inbox';

/**
 * The number of documents not reviewed, for the nav link to `/documents`: a number to see, words
 * to hear ("12 not reviewed"); nothing when all are reviewed. Shares the inbox's queries, and
 * pulls only once the page's own pulls are done.
 */
export function DocumentsNavBadge({ config }: { config: Pick<ClientConfig, 'refreshSeconds'> }) {
  // It waits: the page's own data (the dispatcher's board, say) comes first.
  const { unreviewed } = useDocumentsInbox(config, { wait: true });
  if (unreviewed === 0) return null;
  return (
    <span className="ml-1 inline-block min-w-5 rounded-full bg-amber-300 px-1.5 text-center text-xs font-semibold text-ink">
      <span aria-hidden="true">{unreviewed > 999 ? '999+' : unreviewed}</span>
      <span className="sr-only">, {unreviewed} not reviewed</span>
    </span>
  );
}
