import { z } from 'zod';

/**
 * The parse peer: the pull answer's documented shape (upstream-api.md 2.3–2.6) as a team would first
 * write it with zod, strict about types and required fields. It rejects the whole answer at the first
 * field the real service sends otherwise; Haulview's lenient reader is measured against its speed only.
 */
const driver = z.object({ name: z.string(), phoneNumber: z.string() }).optional();
const place = z.object({
  lat: z.string(),
  lon: z.string(),
  accuracy: z.number(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
});
const stamps = { timestampSec: z.string(), timestamp: z.string(), timestampUTC: z.string() };

const Detail = z.object({
  loadTrackExternalId: z.number().int().optional(),
  loadNumber: z.string().optional(),
  ltExternalId: z.number().int().optional(),
  latestLocation: place.extend({ ...stamps, driver }).optional(),
  latestStatus: z.object({ name: z.string(), code: z.string(), ...stamps, driver }).optional(),
  locations: z
    .array(
      z.object({
        lat: z.string(),
        lon: z.string(),
        deviceTimeGmt: z.string(),
        accuracy: z.number(),
        timestamp: z.string(),
        driver,
        driverPhoneNumber: z.string().optional(),
      }),
    )
    .optional(),
  events: z
    .array(z.object({ id: z.number().int(), name: z.string(), code: z.string(), ...stamps, driver }))
    .optional(),
  comments: z
    .array(
      z.object({
        comment: z.string().optional(),
        commentBy: z.enum(['D', 'B']).optional(),
        timestampSec: z.string().optional(),
        timestamp: z.string().optional(),
        timestampUTC: z.string().optional(),
        location: place.partial().optional(),
        driver,
      }),
    )
    .optional(),
  documents: z
    .array(
      z.object({
        type: z.string(),
        timestamp: z.string(),
        url: z.string(),
        location: place.partial(),
        stopExternalId: z.string().optional(),
        stopOrderNumber: z.number().int().optional(),
        driver,
      }),
    )
    .optional(),
  temperatures: z
    .array(
      z.object({
        deviceId: z.string().optional(),
        timestamp: z.string().optional(),
        location: z
          .object({
            latitude: z.string().optional(),
            longitutde: z.string().optional(),
            accuracy: z.number().nullable().optional(),
          })
          .optional(),
        temperature: z
          .object({
            zone1: z.object({ supply: z.number(), return: z.number(), set: z.number() }).partial().optional(),
            UnitOfMeasurement: z.string().optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});

export const StrictPullAnswer = z.object({
  status: z.boolean(),
  timeStamp: z.string(),
  details: z.array(Detail).optional(),
});
