import type { ParseIssue } from '@/contract/parse-issue';
import type { ItemTime } from './time';

/**
 * The normalized model the views and the proxy cache work with: numbers for coordinates, accuracy in
 * meters or null (unknown: no circle), an instant on every timed item, raw device-local text kept.
 * It is read-only: items share their small parts where they are equal (one `Driver` for the pings
 * of a driver, one `ItemTime` for readings of the same minute), so nothing may change one in place.
 */

/** How a load is identified: by the partner's external id or by the broker's load number. */
export type LoadBy = 'external-id' | 'load-number';

export interface Driver {
  name: string | undefined;
  phone: string | undefined;
}

export interface Place {
  city: string | undefined;
  state: string | undefined;
  country: string | undefined;
}

export interface Position {
  lat: number;
  lon: number;
  /** Meters around the point that hold the load with 68% likelihood; null when unknown. */
  accuracy: number | null;
}

interface Timed {
  /** Identity of the item within its load and kind; see `keys` in normalize.ts. */
  key: string;
  /** The wire item (contract shape, as parsed) it was read from, served again by the proxy. */
  source?: unknown;
  instant: number;
  time: ItemTime;
}

export interface LatestLocation extends Position, Timed {
  place: Place;
  driver: Driver | undefined;
}

export interface Ping extends Position, Timed {
  driver: Driver | undefined;
}

export interface StatusEvent extends Timed {
  id: string | undefined;
  name: string | undefined;
  code: string | undefined;
  driver: Driver | undefined;
}

export interface Comment extends Timed {
  text: string | undefined;
  by: 'driver' | 'broker' | undefined;
  position: Position | undefined;
  place: Place | undefined;
  driver: Driver | undefined;
}

/** A document keeps its place even without a readable time (instant null): losing a bill of lading
 * because of a bad timestamp would cost more than listing it last. */
export interface Document extends Omit<Timed, 'instant'> {
  instant: number | null;
  url: string;
  type: string | undefined;
  stopExternalId: string | undefined;
  stopOrderNumber: number | undefined;
  position: Position | undefined;
  place: Place | undefined;
  driver: Driver | undefined;
}

export interface TemperatureReading extends Timed {
  deviceId: string | undefined;
  supply: number | undefined;
  return: number | undefined;
  set: number | undefined;
  unit: string | undefined;
  position: Position | undefined;
}

export interface Load {
  by: LoadBy;
  /** The id this load was asked for by (external id or load number), as a string. */
  id: string;
  externalId: string | undefined;
  loadNumber: string | undefined;
  ltExternalId: string | undefined;
  latestLocation: LatestLocation | undefined;
  latestStatus: StatusEvent | undefined;
  latestTemperature: TemperatureReading | undefined;
  /** Each list sorted by instant, oldest first, no two items with the same key. */
  pings: Ping[];
  events: StatusEvent[];
  comments: Comment[];
  documents: Document[];
  readings: TemperatureReading[];
  /** Undocumented fields the upstream sent (stops, say), kept as they came. */
  extras: Record<string, unknown>;
  /** What was skipped or noted while reading this load. */
  issues: ParseIssue[];
}
