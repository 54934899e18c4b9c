import * as z from 'zod/mini';
import { StopOutlook } from './load-view';
import { LoadRefText } from './proxy-api';

/**
 * A trip's stops as Haulview keeps them (`trip_stops`): the service sends only the current trip's,
 * so each trip's are kept while it is current, for its billing, its share links and its replay
 * once the load is dispatched again under the same ids. What settles as the trip goes (where each
 * stop is, when the truck came and left); never an ETA, which changes with every ping.
 */
export const TripStop = z.extend(
  // The outlook's stop without what moves with each ping (ETA, its inputs). `status` and
  // `lateMinutes`: a stop reached, how it stood against its appointment; one not reached,
  // `unknown` or `no-appointment` (`tripStopsOf`).
  z.pick(StopOutlook, {
    order: true,
    type: true,
    name: true,
    place: true,
    zipcode: true,
    lat: true,
    lon: true,
    appointment: true,
    progress: true,
    arrivedAt: true,
    departedAt: true,
    status: true,
    lateMinutes: true,
  }),
  {
    /** The service's id of the stop, which a document may name instead of its order. */
    externalId: z.optional(z.string()),
  },
);
export type TripStop = z.infer<typeof TripStop>;

/** One trip's kept stops and the fence they were judged by. */
export const KeptStops = z.strictObject({
  stops: z.array(TripStop),
  /** A stop's fence before a ping's accuracy widens it, as the trip's outlook had it. */
  radiusMeters: z.optional(z.number()),
});
export type KeptStops = z.infer<typeof KeptStops>;

/** One kept trip as `GET /api/trips/stops` gives it. */
export const KeptTrip = z.strictObject({
  /** Epoch ms its trip began (its first planning status); absent: a first trip begun without one. */
  from: z.optional(z.number()),
  ...KeptStops.shape,
});
export type KeptTrip = z.infer<typeof KeptTrip>;

/** `GET /api/trips/stops?load=e:9001`. */
export const TripStopsQuery = z.strictObject({ load: LoadRefText });

/** Every kept trip of the load, oldest first, the current one's too (as last seen). */
export const TripStopsAnswer = z.strictObject({ trips: z.array(KeptTrip) });
export type TripStopsAnswer = z.infer<typeof TripStopsAnswer>;
