import type { Load, StopStatus } from '@/domain/model';
import {
  darkReasonWords,
  latenessText,
  nextStopOutlook,
  stopStatusAt,
  stopStatusShort,
} from '@/domain/outlook-text';
import type { Staleness } from '@/domain/staleness';
import { darkAtStop, dwellText, stopDwell } from '@/domain/dwell';

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
  /**
   * "Delivery: Late 1 h 10 min", "At delivery · detention 1 h 20 min"; undefined when no stop is
   * ahead. `detention`: the load stands at a stop past its free time. `open`: its phone went dark
   * there and no departure is known, which the text says ("open, ").
   */
  next: { text: string; status: StopStatus; detention: boolean; open: boolean } | undefined;
  /** "Went dark while moving"; only for a load that is stale, silent or never reported. */
  dark: string | undefined;
}

/** The outlook of a load in a line's words, at `now` (a stop whose appointment passed is late). */
export function outlookLine(load: Load, staleness: Staleness, finished: boolean, now: number): OutlookLine {
  const outlook = load.outlook;
  const stop = finished ? undefined : nextStopOutlook(outlook);
  const kind =
    stop?.type === 'pickup' ? 'Pickup' : stop?.type === 'delivery' ? 'Delivery' : `Stop ${stop?.order}`;
  // A phone dark at the stop keeps the clock running, marked open.
  const dwell =
    stop && stop.progress === 'arrived'
      ? stopDwell(
          stop,
          now,
          outlook?.clockScale,
          darkAtStop(outlook, stop, load.latestLocation?.instant, staleness !== 'fresh'),
        )
      : undefined;
  const next =
    stop && stop.progress === 'upcoming'
      ? {
          text: `${kind}: ${stopStatusShort(stop, now)}`,
          status: stopStatusAt(stop, now).status,
          detention: false,
          open: false,
        }
      : stop
        ? {
            // The clock before the arrival's lateness: the row is cut at its end.
            text: `At ${kind.toLowerCase()}${dwell ? ` · ${dwellText(dwell)}` : ''}${stop.status === 'late' && stop.lateMinutes !== undefined ? ` · arrived ${latenessText(stop.lateMinutes)}` : ''}`,
            status: stop.status,
            detention: (dwell?.detentionMinutes ?? 0) > 0,
            open: dwell?.open !== undefined,
          }
        : undefined;
  const dark =
    !finished && outlook?.dark && staleness !== 'fresh'
      ? darkReasonWords(outlook.dark, outlook.stops).title
      : undefined;
  return { next, dark };
}
