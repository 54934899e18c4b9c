import type { Load, StopStatus } from '@/domain/model';
import {
  darkReasonWords,
  latenessText,
  nextStopOutlook,
  stopStatusAt,
  stopStatusShort,
} from '@/domain/outlook-text';
import type { Staleness } from '@/domain/staleness';

/** A stop's status in colour (always with its words beside it): late red, at risk amber, on time green. */
export const STOP_STATUS_CLASS: Record<StopStatus, string> = {
  'on-time': 'text-status-fresh',
  'at-risk': 'text-status-stale font-semibold',
  late: 'text-status-silent font-semibold',
  'no-appointment': 'text-status-unknown',
  unknown: 'text-status-unknown',
};

/** What the board and the map say of a load's next stop and, when its phone is dark, why. */
export interface OutlookLine {
  /** "Delivery: Late (1 h 10 min late)"; undefined when no stop is ahead. */
  next: { text: string; status: StopStatus } | undefined;
  /** "Went dark while moving"; only for a load that is stale, silent or never reported. */
  dark: string | undefined;
}

/** The outlook of a load in a line's words, at `now` (a stop whose appointment passed is late). */
export function outlookLine(load: Load, staleness: Staleness, finished: boolean, now: number): OutlookLine {
  const outlook = load.outlook;
  const stop = finished ? undefined : nextStopOutlook(outlook);
  const kind =
    stop?.type === 'pickup' ? 'Pickup' : stop?.type === 'delivery' ? 'Delivery' : `Stop ${stop?.order}`;
  const next =
    stop && stop.progress === 'upcoming'
      ? { text: `${kind}: ${stopStatusShort(stop, now)}`, status: stopStatusAt(stop, now).status }
      : stop
        ? {
            text: `At ${kind.toLowerCase()}${stop.status === 'late' && stop.lateMinutes !== undefined ? ` (arrived ${latenessText(stop.lateMinutes)})` : ''}`,
            status: stop.status,
          }
        : undefined;
  const dark =
    !finished && outlook?.dark && staleness !== 'fresh'
      ? darkReasonWords(outlook.dark, outlook.stops).title
      : undefined;
  return { next, dark };
}
