import type { Document, ItemTime, LatestLocation, Load, LoadBy, Ping, StatusEvent } from '@/domain/model';

/** A time of an item whose instant is all that matters to a test. */
export const testTime = (instant = 0): ItemTime => ({
  instant,
  approximate: false,
  local: undefined,
  zone: undefined,
  zoneKnown: false,
});

/** A latest location in Norman, OK, at `instant`, 20 m sure, no driver; tests override what they are about. */
export function testLatestLocation(instant: number, fields: Partial<LatestLocation> = {}): LatestLocation {
  return {
    key: 'p',
    instant,
    time: testTime(instant),
    lat: 35,
    lon: -97,
    accuracy: 20,
    place: { city: 'Norman', state: 'OK', country: 'US' },
    driver: undefined,
    ...fields,
  };
}

/** A ping at a place and instant, no driver. */
export const testPing = (instant: number, lat: number, lon: number, accuracy: number | null = 10): Ping => ({
  key: `${instant}|${lat}|${lon}`,
  instant,
  time: testTime(instant),
  lat,
  lon,
  accuracy,
});

/** A status event by its name (and code), with no id and no driver. */
export const testEvent = (instant: number, name: string, code?: string): StatusEvent => ({
  key: `${instant}|${name}`,
  instant,
  time: testTime(instant),
  id: undefined,
  name,
  code,
  driver: undefined,
});

/** An instant as the service writes an appointment, `MM/DD/YYYY HH:mm` at `offsetHours` from GMT. */
export function wallText(instant: number, offsetHours: number): string {
  const d = new Date(instant + offsetHours * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

/** A load with nothing in it; tests fill in what they are about. */
export function emptyLoad(id: string, by: LoadBy = 'external-id', fields: Partial<Load> = {}): Load {
  return {
    by,
    id,
    externalId: by === 'external-id' ? id : undefined,
    loadNumber: by === 'load-number' ? id : undefined,
    ltExternalId: undefined,
    latestLocation: undefined,
    latestStatus: undefined,
    latestTemperature: undefined,
    pings: [],
    events: [],
    comments: [],
    documents: [],
    readings: [],
    extras: {},
    issues: [],
    ...fields,
  };
}

/** A load on the wire (by external id) whose latest location is in Joliet at 10:`minute` UTC. */
export const located = (id: string, minute: number) => ({
  loadTrackExternalId: id,
  latestLocation: {
    lat: '41.1',
    lon: String(-90 - minute / 100),
    accuracy: 10,
    timestampSec: `11/22/2026 04:${String(minute).padStart(2, '0')}:00 CST`,
    timestamp: `11/22/2026 04:${String(minute).padStart(2, '0')} CST`,
    timestampUTC: `11/22/2026 10:${String(minute).padStart(2, '0')}:00 UTC`,
    city: 'Joliet',
    state: 'IL',
    country: 'US',
  },
});

/** A document at this URL, sent at `instant` (null: no readable time); tests fill in the rest. */
export function testDocument(url: string, instant: number | null, extra: Partial<Document> = {}): Document {
  return {
    key: url,
    instant,
    time: testTime(instant ?? undefined),
    url,
    type: 'BOL',
    stopExternalId: undefined,
    stopOrderNumber: undefined,
    position: undefined,
    place: undefined,
    driver: undefined,
    ...extra,
  };
}

/** A load of these pings and events, its stops as the service sends them, its latest status and location its last. */
export function trackedLoad(pings: Ping[], events: StatusEvent[], stops: unknown[]): Load {
  const last = pings[pings.length - 1];
  return emptyLoad('L1', 'external-id', {
    pings,
    events,
    extras: { stops },
    latestStatus: events[events.length - 1],
    latestLocation: last && { ...last, place: {} },
  });
}
