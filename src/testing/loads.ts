import type { Load, LoadBy } from '@/domain/model';
import type { ItemTime } from '@/domain/time';

/** A time of an item whose instant is all that matters to a test. */
export const testTime = (instant = 0): ItemTime => ({
  instant,
  approximate: false,
  local: undefined,
  zone: undefined,
  zoneKnown: false,
});

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
