import { proxyPullAnswer } from '@/testing/proxy-answer';

/**
 * Load details in the upstream's wire shape (upstream-api.md 2.4 / 2.5), for the page's tests:
 * they go through the proxy's own parser and normalizer, quirks included.
 */

export type Wire = Record<string, unknown>;

export function wireEvent(
  id: number | string,
  name: string | null,
  code: string | null,
  local: string,
): Wire {
  // `timestampSec` only: the instant comes from the local text and its zone.
  return { id, name, code, timestampSec: local, timestamp: local.replace(/:\d\d (\w+)$/, ' $1') };
}

export function wirePing(
  gmt: string,
  lat: string,
  lon: string,
  accuracy: number | null,
  local: string,
): Wire {
  return { lat, lon, deviceTimeGmt: gmt, accuracy, timestamp: local };
}

export function wireReading(local: string, supply: number, ret: number, set: number): Wire {
  return {
    deviceId: 'RF-700100',
    location: { latitude: '41.2', longitutde: '-95.9', accuracy: null },
    timestamp: local,
    temperature: { zone1: { supply, return: ret, set }, UnitOfMeasurement: 'Fahrenheit' },
  };
}

/** A reefer load by external id with a little of everything, and a few bad items. */
export function wireDetail(over: Wire = {}): Wire {
  return {
    loadTrackExternalId: 700100,
    ltExternalId: 9100,
    latestLocation: {
      lat: '41.2565',
      lon: '-95.9345',
      accuracy: 12.5,
      timestampSec: '11/22/2026 07:26:01 CST',
      timestamp: '11/22/2026 07:26 CST',
      timestampUTC: '11/22/2026 13:26:01 UTC',
      city: 'Omaha',
      state: 'NE',
      country: 'US',
      driver: { name: 'Elena Smith', phoneNumber: '+1 (402) 555-0100' },
    },
    latestStatus: {
      name: 'In transit',
      code: null,
      timestampSec: '11/22/2026 07:15:47 CST',
      timestamp: '11/22/2026 07:15 CST',
      timestampUTC: '11/22/2026 13:15:47 UTC',
    },
    locations: [
      wirePing('2026-11-22 13:20:00', '41.2000', '-95.9000', 8, '11/22/2026 07:20 CST'),
      // Skipped by the domain: a latitude that is no number.
      wirePing('2026-11-22 13:21:00', 'abc', '-95.9000', 8, '11/22/2026 07:21 CST'),
      wirePing('2026-11-22 13:26:01', '41.2565', '-95.9345', null, '11/22/2026 07:26 CST'),
    ],
    events: [
      wireEvent(1, 'Dispatched', 'DSP', '11/22/2026 04:00:00 CST'),
      wireEvent(2, 'In transit', null, '11/22/2026 07:15:47 CST'),
      wireEvent(3, 'Driver has viewed the load track', null, '11/22/2026 04:10:00 CST'),
      wireEvent(4, 'Sent text message to driver', null, '11/22/2026 03:50:00 CST'),
      // Skipped by the domain: no time at all.
      { id: 5, name: 'Arrived at pickup', code: 'APU' },
    ],
    comments: [
      {
        comment: 'Seal intact, pallets look good',
        commentBy: 'D',
        timestampSec: '11/22/2026 06:00:00 CST',
        location: { lat: '41.1', lon: '-96.0', accuracy: 15, city: 'Lincoln', state: 'NE', country: 'US' },
        driver: { name: 'Elena Smith', phoneNumber: null },
      },
      { comment: 'Please send the POD', commentBy: 'B', timestampSec: '11/22/2026 06:10:00 CST' },
    ],
    documents: [
      {
        type: 'BOL',
        timestamp: '11/22/2026 04:30 CST',
        url: 'https://docs.example.com/bol.jpg',
        location: { lat: '41.25', lon: '-95.93', city: 'Omaha', state: 'NE', country: 'US' },
        stopOrderNumber: 1,
        stopExternalId: 'S1',
        driver: { name: 'Elena Smith' },
      },
      {
        type: 'POD',
        timestamp: '11/22/2026 07:00 CST',
        url: 'https://docs.example.com/pod.pdf',
        location: {},
        stopOrderNumber: 2,
      },
    ],
    temperatures: [
      wireReading('11/22/2026 07:00 CST', 34.1, 35.0, 34),
      wireReading('11/22/2026 07:15 CST', 33.1, 42.4, 34),
      wireReading('11/22/2026 07:30 CST', 33.0, 36.0, 34),
    ],
    latestTemperature: wireReading('11/22/2026 07:30 CST', 33.0, 36.0, 34),
    stops: [
      { stopExternalId: 'S1', stopOrderNumber: 1, stopType: 'Pickup', city: 'Omaha', state: 'NE' },
      { stopOrderNumber: 2, address: { city: 'Denver' }, weird: [1, 2], nothing: null },
      'a bare string',
      null,
    ],
    ...over,
  };
}

/** The proxy's pull answer for some details, as the proxy would read and serve them. */
export function pullAnswer(details: unknown[], missing: string[] = []) {
  return proxyPullAnswer(details, { missing });
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
