import { useRoute } from 'wouter';
import type { ClientConfig } from '@/contract/proxy-api';
import { useUnreviewedCount } from '../../data/review-queries';
import { useDocumentsInbox, useWatchedDocumentUrls } from './use-documents-inbox';

type BadgeProps = { config: Pick<ClientConfig, 'refreshSeconds'> };

/**
 * The number of documents not reviewed, for the nav link to `/documents`: a number to see, words
 * to hear ("12 not reviewed"); nothing when all are reviewed. On the inbox it counts the inbox's
 * documents (the same queries); on every other page it counts their URLs only, which the pull worker
 * sends without the documents, and pulls only once the page's own pulls are done.
 */
export function DocumentsNavBadge({ config }: BadgeProps) {
  const [onInbox] = useRoute('/documents');
  return onInbox ? <FromInbox config={config} /> : <FromUrls config={config} />;
}

function FromInbox({ config }: BadgeProps) {
  return <Badge count={useDocumentsInbox(config, { wait: true }).unreviewed} />;
}

function FromUrls({ config }: BadgeProps) {
  return <Badge count={useUnreviewedCount(useWatchedDocumentUrls(config), config)} />;
}

function Badge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="ml-1 inline-block min-w-5 rounded-full bg-amber-300 px-1.5 text-center text-xs font-semibold text-ink">
      <span aria-hidden="true">{count > 999 ? '999+' : count}</span>
      <span className="sr-only">, {count} not reviewed</span>
    </span>
  );
}
