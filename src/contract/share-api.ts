import * as z from 'zod/mini';
import { LoadRefText } from './proxy-api';
import './zod-locale';

/**
 * Customer share links (issue 38): what a dispatcher, broker or admin sends to create one and reads
 * back (`/api/shares`), and the only shape the public page gets (`GET /api/share/:token`). The share
 * view is a schema of its own, not a LoadView cut down: a field nobody listed here can never leak.
 */

export const SHARE_LOADS_MAX = 20;
export const SHARE_DAYS_MAX = 90;

/** What a link shows besides the load's name: map and latest position, status, stops, the POD. */
export const ShareShows = z.strictObject({
  map: z.boolean(),
  status: z.boolean(),
  stops: z.boolean(),
  pod: z.boolean(),
});
export type ShareShows = z.infer<typeof ShareShows>;

const Days = z
  .int()
  .check(z.minimum(1, 'at least 1 day'), z.maximum(SHARE_DAYS_MAX, `at most ${SHARE_DAYS_MAX} days`));

/** How long a link lasts: N days from now, or N days after every load was delivered. */
export const ShareExpiry = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('days'), days: Days }),
  z.strictObject({ kind: z.literal('after-delivery'), days: Days }),
]);
export type ShareExpiry = z.infer<typeof ShareExpiry>;

/** `POST /api/shares`. */
export const CreateShareRequest = z.strictObject({
  loads: z
    .array(LoadRefText)
    .check(
      z.minLength(1, 'a link shares at least one load'),
      z.maxLength(SHARE_LOADS_MAX, `a link shares at most ${SHARE_LOADS_MAX} loads`),
    ),
  expiry: z._default(ShareExpiry, { kind: 'days', days: 7 }),
  shows: z._default(ShareShows, { map: true, status: true, stops: true, pod: false }),
  /**
   * What the customer calls the shipment ("PO 4471"): when given, the page names the loads by it and
   * never shows our ids, which may be internal (a POD's address is the service's own, and may hold them).
   */
  reference: z.optional(
    z
      .string()
      .check(z.trim(), z.minLength(1, 'a reference is not empty'), z.maxLength(60, 'at most 60 characters')),
  ),
});
export type CreateShareRequest = z.infer<typeof CreateShareRequest>;

/** A link as the team sees it: never its token (only its hash is kept). */
export const ShareLink = z.object({
  id: z.string(),
  loads: z.array(z.string()),
  shows: ShareShows,
  /** ISO 8601: when it stops working (for `after-delivery`, the latest it may last). */
  expiresAt: z.string(),
  afterDeliveryDays: z.nullable(z.number()),
  /** The customer's name for the shipment, shown instead of our ids (null: our ids are shown). */
  reference: z.nullable(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  revokedAt: z.nullable(z.string()),
  revokedBy: z.nullable(z.string()),
  views: z.number(),
  lastViewAt: z.nullable(z.string()),
  /** Whether it works now: not revoked and not expired. */
  live: z.boolean(),
});
export type ShareLink = z.infer<typeof ShareLink>;

/** `POST /api/shares` answer: the link, and its token, shown this once. */
export const ShareCreated = z.object({ link: ShareLink, token: z.string(), path: z.string() });
export type ShareCreated = z.infer<typeof ShareCreated>;

/** `GET /api/shares`: the team's links, newest first. */
export const SharesAnswer = z.object({ links: z.array(ShareLink) });
export type SharesAnswer = z.infer<typeof SharesAnswer>;

const SharePlace = z.strictObject({
  city: z.optional(z.string()),
  state: z.optional(z.string()),
  country: z.optional(z.string()),
});

/** One stop as a customer sees it: where, its appointment, and when the truck gets or got there. */
export const SharedStop = z.strictObject({
  order: z.number(),
  type: z.optional(z.enum(['pickup', 'delivery'])),
  name: z.optional(z.string()),
  place: z.optional(SharePlace),
  lat: z.optional(z.number()),
  lon: z.optional(z.number()),
  /** The appointment as the stop's local time (`MM/DD/YYYY HH:mm`). */
  appointment: z.optional(z.string()),
  /** The appointment's instant (epoch ms), when the stop's offset from GMT is known. */
  appointmentAt: z.optional(z.number()),
  progress: z.enum(['upcoming', 'arrived', 'departed']),
  /** Epoch ms. */
  eta: z.optional(z.number()),
  arrivedAt: z.optional(z.number()),
  departedAt: z.optional(z.number()),
  status: z.enum(['on-time', 'at-risk', 'late', 'no-appointment', 'unknown']),
});
export type SharedStop = z.infer<typeof SharedStop>;

/** One shared load: only what the link shows, and never a driver, comment, notice or other load. */
export const SharedLoad = z.strictObject({
  /** The id the link was made with (its load number or external id), or the customer's reference. */
  label: z.string(),
  /** False when the service does not know the load (any more), or has not answered for it yet. */
  found: z.boolean(),
  /** True while Haulview waits for the service's first answer for the load: its data is to come. */
  pending: z.optional(z.literal(true)),
  position: z.optional(
    z.strictObject({
      lat: z.number(),
      lon: z.number(),
      /** Meters, 68% likely; null when unknown. */
      accuracy: z.nullable(z.number()),
      at: z.number(),
    }),
  ),
  place: z.optional(SharePlace),
  status: z.optional(z.strictObject({ name: z.string(), at: z.number() })),
  stops: z.optional(z.array(SharedStop)),
  /** Proofs of delivery: their addresses and when they were taken. */
  pod: z.optional(z.array(z.strictObject({ url: z.string(), at: z.nullable(z.number()) }))),
  /**
   * True once the load has begun another trip under the same ids: the link shows the trip it was
   * made for as it ended (its status and proofs), never the next one's places.
   */
  ended: z.optional(z.literal(true)),
});
export type SharedLoad = z.infer<typeof SharedLoad>;

/** `GET /api/share/:token`: the public page's only answer. */
export const ShareView = z.strictObject({
  /** Who sent the link (the user who made it). */
  broker: z.string(),
  expiresAt: z.string(),
  shows: ShareShows,
  /** Seconds between the page's polls. */
  refreshSeconds: z.number(),
  /** The map's tiles (null: the built-in basemap only) and their credit. */
  tileUrl: z.nullable(z.string()),
  tileAttribution: z.string(),
  /** Epoch ms of this answer. */
  servedAt: z.number(),
  loads: z.array(SharedLoad),
});
export type ShareView = z.infer<typeof ShareView>;

/** The one answer for a token that is unknown, expired or revoked: the three are not told apart. */
export const SHARE_NOT_VALID = {
  error: { code: 'share_not_valid', message: 'this tracking link is not valid: it may have expired' },
} as const;
