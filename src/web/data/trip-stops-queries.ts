import { queryOptions } from '@tanstack/react-query';
import { TripStopsAnswer } from '@/contract/trip-stops';
import type { LoadBy } from '@/domain/model';
import { apiGet } from './api-client';

/** A load's trips' stops as the server kept them while each trip was current. */
export const tripStopsQueries = {
  all: () => ['trip-stops'] as const,
  /**
   * `current`: the start of the load's current trip as the page knows it, so a new trip asks again;
   * an ended trip's stops do not change.
   */
  of: (by: LoadBy, id: string, current: number) =>
    queryOptions({
      queryKey: [...tripStopsQueries.all(), by, id, current],
      queryFn: ({ signal }) =>
        apiGet(
          `/api/trips/stops?load=${encodeURIComponent(`${by === 'load-number' ? 'n' : 'e'}:${id}`)}`,
          TripStopsAnswer,
          signal,
        ),
      staleTime: Infinity,
      retry: 1,
    }),
};
