import { z } from 'zod';

/**
 * A stop as the service sends it inside a load detail. `stops` is not in the documented schema
 * (upstream-api.md), so every field is read as loosely as it may come: any may be missing, `null`,
 * a number where text is usual or text where a number is; one that cannot be read is absent, never
 * the whole stop. The domain (`domain/stops.ts`) makes numbers and an appointment of them.
 */
const loose = z
  .union([z.string(), z.number(), z.boolean()])
  .nullish()
  .transform((v) => {
    if (v === null || v === undefined || typeof v === 'boolean') return undefined;
    const s = String(v).trim();
    return s === '' ? undefined : s;
  })
  .catch(undefined);

export const StopItem = z.looseObject({
  orderNumber: loose,
  /** The simulator's and some answers' older name for `orderNumber`. */
  stopOrderNumber: loose,
  stopExternalId: loose,
  /** `PICKUP` or `DELIVERY`, in any case. */
  stopType: loose,
  locationName: loose,
  city: loose,
  state: loose,
  zipcode: loose,
  lat: loose,
  lon: loose,
  /** The appointment, `MM/DD/YYYY HH:mm` in the stop's local time. */
  datetime: loose,
  /** Hours from GMT of the stop's local time, as text ("-6", "-5.5"). */
  stopGMTDiff: loose,
});
export type StopItem = z.infer<typeof StopItem>;
