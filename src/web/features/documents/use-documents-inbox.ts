import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { ClientConfig } from '@/contract/proxy-api';
import type { DocumentReview } from '@/contract/review-api';
import type { Load } from '@/domain/model';
import { loadQueries } from '../../data/load-queries';
import { idsBy, useWatchedLoads, useWatchList } from '../../lib/watch-list';
import type { LoadRef } from '../../lib/load-ref';
import { collectDocuments, type InboxDocument } from './inbox-model';
import { useReviews } from '../../data/review-queries';
import { useQuietStart } from './use-quiet-start';

type Collected = Omit<InboxDocument, 'reviewed' | 'review'>;
// One object per document and review: a review elsewhere in the queue leaves this one's object
// alone, so its memoized card does not re-render (reviews keep their objects across refreshes).
const joined = new WeakMap<Collected, InboxDocument>();
function withReview(d: Collected, review: DocumentReview | undefined): InboxDocument {
  const before = joined.get(d);
  if (before && before.review === review) return before;
  const reviewed = review !== undefined && review.decision !== 'pending';
  const item: InboxDocument = { ...d, review, reviewed };
  joined.set(d, item);
  return item;
}

export interface DocumentsInbox {
  /** Every document of the watched loads, newest first (no readable time last), each URL once. */
  documents: InboxDocument[];
  /** The same documents without their reviews: the same array until the loads change. */
  collected: readonly Omit<InboxDocument, 'reviewed' | 'review'>[];
  /** How many of them are not reviewed: the nav's badge. */
  unreviewed: number;
  /** How many loads are watched. */
  watched: number;
  /** The watched loads the service knows, with their documents. */
  loads: Load[];
  /** Watched ids the service does not know. */
  notFound: LoadRef[];
  /** How many watched ids the proxy's store has not pulled yet. */
  waiting: number;
  /** True until every watched kind of id has answered once. */
  isPending: boolean;
  isFetching: boolean;
  /** The first error of the two pulls, or null; the last data stays. */
  error: unknown;
  /** Why the team's reviews cannot be read (the store does not answer, say), or null. */
  reviewsError: unknown;
  /** When the last answer came (epoch ms), 0 before any. */
  updatedAt: number;
  refetch: () => void;
}

/**
 * The documents inbox's data: the watch list's documents (one pull per kind of id, refreshed every
 * `refreshSeconds`) joined with the team's reviews (kept on the server, refreshed alike). The page and the nav's badge both call it;
 * TanStack Query runs the pulls once for both. The badge waits for the page's own pulls.
 */
export function useDocumentsInbox(
  config: Pick<ClientConfig, 'refreshSeconds'>,
  { wait = false }: { wait?: boolean } = {},
): DocumentsInbox {
  const entries = useWatchList();
  const externalIds = useMemo(() => idsBy(entries, 'external-id'), [entries]);
  const loadNumbers = useMemo(() => idsBy(entries, 'load-number'), [entries]);
  // `wait`: pull only once the page's own pulls are done (see useQuietStart); until then, whatever
  // another user of these queries (the inbox page) already has.
  const quiet = useQuietStart();
  const go = !wait || quiet;
  const byExternal = useQuery({
    ...loadQueries.documents('external-id', externalIds, config.refreshSeconds),
    enabled: go && externalIds.length > 0,
  });
  const byNumber = useQuery({
    ...loadQueries.documents('load-number', loadNumbers, config.refreshSeconds),
    enabled: go && loadNumbers.length > 0,
  });
  // Nothing watched, nothing to review: the store is not asked.
  const reviews = useReviews(config, entries.length > 0);
  const byUrl = reviews.byUrl;

  const loads = useWatchedLoads(entries, byExternal, byNumber);
  const collected = useMemo(() => collectDocuments(loads), [loads]);
  const documents = useMemo(() => collected.map((d) => withReview(d, byUrl.get(d.url))), [collected, byUrl]);
  const unreviewed = useMemo(() => documents.filter((d) => !d.reviewed).length, [documents]);

  const externalMissing = byExternal.data?.missing;
  const numberMissing = byNumber.data?.missing;
  const notFound = useMemo(
    (): LoadRef[] => [
      ...(externalMissing ?? [])
        .filter((id) => externalIds.includes(id))
        .map((id) => ({ by: 'external-id' as const, id })),
      ...(numberMissing ?? [])
        .filter((id) => loadNumbers.includes(id))
        .map((id) => ({ by: 'load-number' as const, id })),
    ],
    [externalMissing, numberMissing, externalIds, loadNumbers],
  );

  // Ids the proxy's store has not pulled yet (several instances): their documents are not known yet.
  const waiting = (byExternal.data?.pending?.length ?? 0) + (byNumber.data?.pending?.length ?? 0);

  const refetchExternal = byExternal.refetch;
  const refetchNumber = byNumber.refetch;
  const hasExternal = externalIds.length > 0;
  const hasNumber = loadNumbers.length > 0;
  const refetchReviews = reviews.refetch;
  const refetch = useCallback(() => {
    if (hasExternal) void refetchExternal();
    if (hasNumber) void refetchNumber();
    refetchReviews();
  }, [hasExternal, hasNumber, refetchExternal, refetchNumber, refetchReviews]);

  return {
    documents,
    collected,
    unreviewed,
    watched: entries.length,
    loads,
    notFound,
    waiting,
    isPending: (hasExternal && byExternal.isPending) || (hasNumber && byNumber.isPending),
    isFetching: byExternal.isFetching || byNumber.isFetching,
    error: byExternal.error ?? byNumber.error ?? null,
    reviewsError: reviews.error ?? null,
    updatedAt: Math.max(byExternal.dataUpdatedAt, byNumber.dataUpdatedAt),
    refetch,
  };
}

const NO_URLS: readonly string[] = [];

/**
 * The URLs of the watched loads' documents, each kind of id's as the pull worker last read them (a
 * load watched by both of its ids brings its URLs twice): the nav's badge counts those not
 * reviewed, without holding the documents. Pulls only once the page's own pulls are done.
 */
export function useWatchedDocumentUrls(
  config: Pick<ClientConfig, 'refreshSeconds'>,
): readonly (readonly string[])[] {
  const entries = useWatchList();
  const externalIds = useMemo(() => idsBy(entries, 'external-id'), [entries]);
  const loadNumbers = useMemo(() => idsBy(entries, 'load-number'), [entries]);
  const quiet = useQuietStart();
  const byExternal = useQuery({
    ...loadQueries.documentUrls('external-id', externalIds, config.refreshSeconds),
    enabled: quiet && externalIds.length > 0,
  });
  const byNumber = useQuery({
    ...loadQueries.documentUrls('load-number', loadNumbers, config.refreshSeconds),
    enabled: quiet && loadNumbers.length > 0,
  });
  // A list emptied of one kind of id keeps no URLs of it (the placeholder is the last list's).
  const external = externalIds.length > 0 ? byExternal.data?.urls : undefined;
  const numbers = loadNumbers.length > 0 ? byNumber.data?.urls : undefined;
  // Two lists, not one made of both: each holds a URL once, and the count dedupes across them.
  return useMemo(() => [external ?? NO_URLS, numbers ?? NO_URLS], [external, numbers]);
}
