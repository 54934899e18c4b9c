import { z } from 'zod';
import {
  codeText,
  coordinate,
  optionalCoordinate,
  optionalDriver,
  optionalId,
  optionalNumber,
  text,
} from './fields';

/**
 * What the pull operations answer (sections 2.3 to 2.6), read leniently: unknown fields are kept
 * (`looseObject`), `null` is absent, ids become strings. Only what an item cannot be used without is
 * required; the parser in `parse-pull.ts` skips such an item and reports why.
 */

/** 2.6.1 latestLocation. lat/lon are required: a location without them places nothing. */
export const LatestLocation = z.looseObject({
  lat: coordinate,
  lon: coordinate,
  accuracy: optionalNumber,
  timestampSec: text,
  timestamp: text,
  timestampUTC: text,
  city: text,
  state: text,
  country: text,
  driver: optionalDriver,
});
export type LatestLocation = z.infer<typeof LatestLocation>;

/** 2.6.2 latestStatus. */
export const LatestStatus = z.looseObject({
  name: text,
  code: codeText,
  timestampSec: text,
  timestamp: text,
  timestampUTC: text,
  driver: optionalDriver,
});
export type LatestStatus = z.infer<typeof LatestStatus>;

/** 2.6.3 locations item (a ping). `driverPhoneNumber` appears in the by-load-number answer (2.5). */
export const LocationItem = z.looseObject({
  lat: coordinate,
  lon: coordinate,
  deviceTimeGmt: text,
  accuracy: optionalNumber,
  timestamp: text,
  driver: optionalDriver,
  driverPhoneNumber: text,
});
export type LocationItem = z.infer<typeof LocationItem>;

/**
 * 2.6.4 events item. The schema's required list spells the UTC field `timstampUTC`; the defined
 * property is `timestampUTC`. Both are read; the defined one wins.
 */
export const EventItem = z
  .looseObject({
    id: optionalId,
    timestampSec: text,
    timestamp: text,
    timestampUTC: text,
    timstampUTC: text,
    name: text,
    code: codeText,
    driver: optionalDriver,
  })
  .transform(({ timstampUTC, ...rest }) => ({ ...rest, timestampUTC: rest.timestampUTC ?? timstampUTC }));
export type EventItem = z.infer<typeof EventItem>;

/** The `location` of a comment or document (2.6.5, 2.6.7). */
export const PlaceLocation = z.looseObject({
  lat: optionalCoordinate,
  lon: optionalCoordinate,
  accuracy: optionalNumber,
  city: text,
  state: text,
  country: text,
});
export type PlaceLocation = z.infer<typeof PlaceLocation>;
const optionalPlace = PlaceLocation.nullish().transform((v) => v ?? undefined);

/** 2.6.5 comments item; all fields optional. `commentBy` is `D` (driver) or `B` (broker). */
export const CommentItem = z.looseObject({
  comment: text,
  commentBy: z
    .enum(['D', 'B'])
    .nullish()
    .transform((v) => v ?? undefined),
  timestampSec: text,
  timestamp: text,
  timestampUTC: text,
  location: optionalPlace,
  driver: optionalDriver,
});
export type CommentItem = z.infer<typeof CommentItem>;

/**
 * 2.6.6 temperature reading. The location's longitude is spelled `longitutde` in the interface;
 * `longitude` is read too.
 */
export const TemperatureReadingItem = z.looseObject({
  deviceId: optionalId,
  location: z
    .looseObject({
      latitude: optionalCoordinate,
      longitutde: optionalCoordinate,
      longitude: optionalCoordinate,
      accuracy: optionalNumber,
    })
    .nullish()
    .transform((v) =>
      v ? { latitude: v.latitude, longitude: v.longitutde ?? v.longitude, accuracy: v.accuracy } : undefined,
    ),
  timestamp: text,
  temperature: z
    .looseObject({
      zone1: z
        .looseObject({ supply: optionalNumber, return: optionalNumber, set: optionalNumber })
        .nullish()
        .transform((v) => v ?? undefined),
      UnitOfMeasurement: text,
    })
    .nullish()
    .transform((v) => v ?? undefined),
});
export type TemperatureReadingItem = z.infer<typeof TemperatureReadingItem>;

/** 2.6.7 documents item. `url` is required: a document without an address shows nothing. */
export const DocumentItem = z.looseObject({
  type: codeText,
  timestamp: text,
  url: z.string(),
  location: optionalPlace,
  stopExternalId: optionalId,
  stopOrderNumber: optionalNumber,
  driver: optionalDriver,
});
export type DocumentItem = z.infer<typeof DocumentItem>;

/** The lists of a load detail, each parsed item by item. */
export const detailLists = {
  locations: LocationItem,
  temperatures: TemperatureReadingItem,
  events: EventItem,
  comments: CommentItem,
  documents: DocumentItem,
} as const;
export type DetailListName = keyof typeof detailLists;

/** The single objects of a load detail, each dropped alone when malformed. */
export const detailObjects = {
  latestLocation: LatestLocation,
  latestStatus: LatestStatus,
  latestTemperature: TemperatureReadingItem,
} as const;

/**
 * The documented fields of each list's items and of each single object. The real service sometimes
 * wraps an item one level deeper (`{ "event": { "id": 5, … } }`); an item that holds none of these
 * is looked into (`parse-pull.ts`).
 */
export const documentedFields: {
  readonly [K in DetailListName | keyof typeof detailObjects]: readonly string[];
} = {
  locations: Object.keys(LocationItem.shape),
  temperatures: Object.keys(TemperatureReadingItem.shape),
  events: Object.keys(EventItem.in.shape),
  comments: Object.keys(CommentItem.shape),
  documents: Object.keys(DocumentItem.shape),
  latestLocation: Object.keys(LatestLocation.shape),
  latestStatus: Object.keys(LatestStatus.shape),
  latestTemperature: Object.keys(TemperatureReadingItem.shape),
};

/**
 * 2.4 and 2.5 load detail, one schema for both operations: 2.5 has `loadNumber` instead of
 * `loadTrackExternalId` and no temperatures; everything is optional at object level.
 */
export const LoadDetail = z.looseObject({
  loadTrackExternalId: optionalId,
  ltExternalId: optionalId,
  loadNumber: optionalId,
  latestLocation: LatestLocation.optional(),
  latestStatus: LatestStatus.optional(),
  latestTemperature: TemperatureReadingItem.optional(),
  locations: z.array(LocationItem).optional(),
  temperatures: z.array(TemperatureReadingItem).optional(),
  events: z.array(EventItem).optional(),
  comments: z.array(CommentItem).optional(),
  documents: z.array(DocumentItem).optional(),
});
export type LoadDetail = z.infer<typeof LoadDetail>;
/** A load detail's documented fields: a detail that holds none of them may be wrapped (`parse-pull.ts`). */
export const loadDetailFields: readonly string[] = Object.keys(LoadDetail.shape);
/** What a sender (the simulator) writes: the wire form, before the lenient transforms. */
export type LoadDetailWire = z.input<typeof LoadDetail>;

/** 2.3 pull response envelope. `details` is parsed load by load (see `parse-pull.ts`). */
export const PullEnvelope = z.looseObject({
  status: z.boolean(),
  timeStamp: text,
  details: z.array(z.unknown()).nullish(),
});
