import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { type ClientConfig } from '@/contract/proxy-api';
import { ReviewChanged, ReviewsAnswer, type DocumentReview, type ReviewRequest } from '@/contract/review-api';
import { ApiError, apiGet, apiSend } from './api-client';

/**
 * The reviews held after an answer: those `held` had, each replaced by its newer version in
 * `changes`. A review held at a higher version (a decision just made here) stays. Unchanged reviews
 * keep their objects, and no change at all keeps the list itself, so nothing renders again.
 */
export function mergeReviews(held: ReviewsAnswer, changes: ReviewsAnswer): ReviewsAnswer {
  if (changes.full) return changes;
  if (changes.reviews.length === 0)
    return changes.cursor === held.cursor ? held : { ...held, cursor: changes.cursor };
  const byUrl = new Map(held.reviews.map((r) => [r.url, r]));
  const fresh: DocumentReview[] = [];
  for (const review of changes.reviews) {
    const before = byUrl.get(review.url);
    if (before && before.version > review.version) continue;
    byUrl.delete(review.url);
    fresh.push(review);
  }
  return { reviews: [...fresh, ...byUrl.values()], cursor: changes.cursor, full: false };
}

/**
 * The team's document reviews, kept on the server; refreshed with the inbox. The first answer is
 * the whole list; each refresh after it asks only for what changed since (`?since=`) and merges it.
 */
export const reviewQueries = {
  all: () => ['document-reviews'] as const,
  list: (refreshSeconds: number) =>
    queryOptions({
      queryKey: reviewQueries.all(),
      queryFn: async ({ signal, client, queryKey }) => {
        const held = client.getQueryData<ReviewsAnswer>(queryKey);
        const path = held
          ? `/api/documents/reviews?since=${encodeURIComponent(held.cursor)}`
          : '/api/documents/reviews';
        const changes = await apiGet(path, ReviewsAnswer, signal);
        // Merged into what is held now: a decision made here while the answer came stays.
        const now = client.getQueryData<ReviewsAnswer>(queryKey) ?? held;
        return now ? mergeReviews(now, changes) : changes;
      },
      refetchInterval: refreshSeconds * 1000,
      refetchIntervalInBackground: false,
      placeholderData: (previous) => previous,
      // A store that does not answer is said at once; the next refresh asks again.
      retry: (count, error) =>
        count < 2 && !(error instanceof ApiError && (!error.transient || error.code === 'store_unavailable')),
    }),
};

/** Document URL → its review, for documents approved or rejected: those count as reviewed. */
export type DecidedReviews = ReadonlyMap<string, DocumentReview>;

export interface TeamReviews {
  /** Every document's review by URL, `pending` ones too (a decision undone, maybe by a teammate). */
  byUrl: ReadonlyMap<string, DocumentReview>;
  /** The approved or rejected ones. */
  decided: DecidedReviews;
}

const NONE: TeamReviews = { byUrl: new Map(), decided: new Map() };

// Module-level, so TanStack Query computes it once per answer.
function teamReviewsOf(answer: ReviewsAnswer): TeamReviews {
  const byUrl = new Map(answer.reviews.map((r) => [r.url, r]));
  const decided = new Map(answer.reviews.filter((r) => r.decision !== 'pending').map((r) => [r.url, r]));
  return { byUrl, decided };
}

export interface Reviews extends TeamReviews {
  /** Why the reviews cannot be read (a 503 `store_unavailable`, say), or null. */
  error: unknown;
  refetch: () => void;
}

/** The team's reviews, refreshed every `refreshSeconds`; `enabled` false while no document is watched. */
export function useReviews(config: Pick<ClientConfig, 'refreshSeconds'>, enabled = true): Reviews {
  const query = useQuery({ ...reviewQueries.list(config.refreshSeconds), select: teamReviewsOf, enabled });
  const refetch = query.refetch;
  return useMemo(
    () => ({ ...(query.data ?? NONE), error: query.error, refetch: () => void refetch() }),
    [query.data, query.error, refetch],
  );
}

/** What a decision by `actor` replaces, as the server keeps it (see reviews.ts on the server). */
function replacedBy(before: DocumentReview | undefined, actor: string): DocumentReview['replaced'] {
  if (!before) return null;
  if (before.decidedBy === actor) return before.replaced;
  if (before.decision === 'pending') return null;
  const { decision, reason, decidedBy, decidedAt } = before;
  return { decision, reason, decidedBy, decidedAt };
}

/** The list with this document's review replaced (or removed, with `review` undefined). */
function withReview(
  answer: ReviewsAnswer | undefined,
  url: string,
  review: DocumentReview | undefined,
): ReviewsAnswer {
  const others = (answer?.reviews ?? []).filter((r) => r.url !== url);
  return {
    reviews: review ? [review, ...others] : others,
    cursor: answer?.cursor ?? '0',
    full: answer?.full ?? false,
  };
}

/**
 * Stores a decision on a document. The inbox shows it at once, as it will be stored; the server's
 * answer then takes its place, or, when it fails, the review as it was comes back. The promise
 * answers the stored review and the one of another user it replaced.
 */
export function useDecideReview(actor: string): (input: ReviewRequest) => Promise<ReviewChanged> {
  const client = useQueryClient();
  // The latest decision asked for each document: an older answer arriving late is not shown.
  const latest = useRef(new Map<string, number>());
  const turn = useRef(0);
  return useCallback(
    async (input: ReviewRequest) => {
      const key = reviewQueries.all();
      const put = (review: DocumentReview | undefined) =>
        client.setQueryData<ReviewsAnswer>(key, (answer) => withReview(answer, input.url, review));
      const before = client.getQueryData<ReviewsAnswer>(key)?.reviews.find((r) => r.url === input.url);
      const mine = ++turn.current;
      latest.current.set(input.url, mine);
      // A list being fetched now may not hold this decision: it must not overwrite it.
      void client.cancelQueries({ queryKey: key });
      put({
        load: input.load,
        url: input.url,
        decision: input.decision,
        reason: input.reason ?? null,
        note: input.note ?? null,
        decidedBy: actor,
        decidedAt: new Date().toISOString(),
        version: (before?.version ?? 0) + 1,
        replaced: replacedBy(before, actor),
      });
      try {
        const answer = await apiSend('PUT', '/api/documents/reviews', input, ReviewChanged);
        if (latest.current.get(input.url) === mine) put(answer.review);
        return answer;
      } catch (error) {
        if (latest.current.get(input.url) === mine) put(before);
        // Ask the server what is stored: it may be down (then the inbox says so) or hold newer reviews.
        void client.invalidateQueries({ queryKey: key });
        throw error;
      }
    },
    [client, actor],
  );
}

/**
 * How many of these document URLs are not reviewed, each URL counted once. Each list holds a URL
 * at most once (the pull worker's URLs of one kind of id); a URL may be in more than one list (a
 * load watched by external id and by load number). A set of all the URLs, made again for each
 * count, is slow on the dispatcher's main thread; a lookup of each in the reviewed ones is cheap.
 */
export function countUnreviewed(
  lists: readonly (readonly string[])[],
  reviewed: ReadonlyMap<string, unknown>,
): number {
  let count = 0;
  // Only when there is more than one list: the URLs of the lists before.
  const before = lists.length > 1 ? new Set<string>() : undefined;
  lists.forEach((list, k) => {
    for (const url of list) if (!reviewed.has(url) && !(k > 0 && before?.has(url))) count++;
    if (before && k < lists.length - 1) for (const url of list) before.add(url);
  });
  return count;
}

export function useUnreviewedCount(
  lists: readonly (readonly string[])[],
  config: Pick<ClientConfig, 'refreshSeconds'>,
): number {
  const { decided } = useReviews(
    config,
    lists.some((l) => l.length > 0),
  );
  return useMemo(() => countUnreviewed(lists, decided), [lists, decided]);
}

/** Why saving a review failed, as the end of "… was not saved: <why>". */
export function saveFailure(error: unknown): string {
  if (error instanceof ApiError && error.code === 'store_unavailable') return 'the store does not answer';
  return error instanceof Error ? error.message : 'it failed';
}
