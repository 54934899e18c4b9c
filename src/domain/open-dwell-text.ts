import type { Dwell, OpenDwell } from './dwell';
import { durationText, stopTime } from './outlook-text';

// Apart from `dwell.ts`, which the board's first page carries: only the load page says this.
/**
 * An open stay's evidence in words, times in the stop's zone: "Departure unknown: last ping Nov 24,
 * 06:10 GMT-6, 50 m from the stop, inside its fence. Detention at least 40 min by the pings; 3 h if
 * still there."
 */
export function openDwellText(d: Dwell, offsetHours: number | undefined): string | undefined {
  const open = d.open;
  if (!open) return undefined;
  const where =
    open.meters === undefined ? 'inside its fence' : `${open.meters} m from the stop, inside its fence`;
  const floor =
    d.detentionMinutes > 0
      ? `Detention at least ${durationText(open.provenDetentionMinutes)} by the pings; ${durationText(d.detentionMinutes)} if still there.`
      : `Inside at least ${durationText(open.provenInsideMinutes)} by the pings; ${durationText(d.insideMinutes)} if still there.`;
  return `Departure unknown: last ping ${stopTime(open.lastPingAt, offsetHours)}, ${where}. ${floor}`;
}

/**
 * An open stay in a few words, for the exceptions list and the alerts: "at least 3 h 10 min there,
 * phone dark at the stop". What the pings prove: the truck may have left since the last one.
 */
export const openStayWords = (open: OpenDwell): string =>
  `at least ${durationText(open.provenInsideMinutes)} there, phone dark at the stop`;
