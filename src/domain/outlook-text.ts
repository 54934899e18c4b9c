import type { DarkReason, Outlook, StopOutlook, StopStatus } from './model';

/**
 * A load's outlook (`domain/outlook.ts`, reckoned by the proxy) in a dispatcher's words: the board,
 * the map and the load page all say it with these, so every screen says the same of a load.
 */

/**
 * A stop's status at `now`: an upcoming stop whose appointment has passed is late whatever its ETA
 * said when it was reckoned (a dark load's ETA is as of its last ping).
 */
export function stopStatusAt(stop: StopOutlook, now: number): { status: StopStatus; passed: boolean } {
  const due = stop.appointment?.instant;
  if (stop.progress === 'upcoming' && due !== undefined && now > due) return { status: 'late', passed: true };
  return { status: stop.status, passed: false };
}

/** The stop the load heads for or stands at; undefined when every stop is behind it, or none is known. */
export function nextStopOutlook(outlook: Outlook | undefined): StopOutlook | undefined {
  return outlook?.stops.find((s) => s.progress !== 'departed');
}

export const STOP_STATUS_TEXT: Record<StopStatus, string> = {
  'on-time': 'On time',
  'at-risk': 'At risk',
  late: 'Late',
  'no-appointment': 'No appointment',
  unknown: 'No ETA',
};

/** Worst first: the board sorts and the map counts by it. */
export const STOP_STATUS_ORDER: readonly StopStatus[] = [
  'late',
  'at-risk',
  'unknown',
  'no-appointment',
  'on-time',
];

/** "1 h 10 min", "25 min", "3 h". */
export function durationText(minutes: number): string {
  const m = Math.round(Math.abs(minutes));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** "GMT-6", "GMT+5:30". */
export function offsetText(hours: number): string {
  const sign = hours < 0 ? '-' : '+';
  const h = Math.floor(Math.abs(hours));
  const m = Math.round((Math.abs(hours) - h) * 60);
  return `GMT${sign}${h}${m ? `:${pad(m)}` : ''}`;
}

/**
 * An instant as a stop's wall clock: "Nov 24, 14:10 GMT-6" with the stop's offset; in UTC when the
 * offset is unknown ("Nov 24, 20:10 UTC"). Dated like every other time the pages show: a weekday alone
 * did not say which one for a load hours late or a stop days ahead.
 */
export function stopTime(instant: number, offsetHours: number | undefined): string {
  const d = new Date(instant + Math.round((offsetHours ?? 0) * 60) * 60_000);
  const zone = offsetHours === undefined ? 'UTC' : offsetText(offsetHours);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} ${zone}`;
}

const MINUTE = 60_000;

/**
 * The ETA the pages show, to the minute: the appointment plus the lateness when both are known, so the
 * ETA and the "late" beside it never disagree. The lateness is rounded and on the track's clock (the
 * demo's runs `clockScale` times faster: 28 s past the appointment there is 28 min late), where a
 * time shown alone is cut to its minute. Without an appointment, the ETA to the nearest minute.
 */
export function shownEta(stop: StopOutlook): number | undefined {
  if (stop.eta === undefined) return undefined;
  const due = stop.appointment?.instant;
  if (due !== undefined && stop.lateMinutes !== undefined) return due + stop.lateMinutes * MINUTE;
  return Math.round(stop.eta / MINUTE) * MINUTE;
}

/**
 * An upcoming stop's ETA against its appointment, both in the stop's zone: "ETA Nov 24, 11:10 GMT-6,
 * appointment Nov 24, 10:00 GMT-6".
 */
export function etaAgainstAppointment(stop: StopOutlook): string {
  const offset = stop.appointment?.offsetHours;
  const due = stop.appointment?.instant;
  const eta = shownEta(stop);
  const etaWords = eta === undefined ? 'ETA not known' : `ETA ${stopTime(eta, offset)}`;
  return `${etaWords}, appointment ${due === undefined ? (stop.appointment?.local ?? 'not known') : stopTime(due, offset)}`;
}

const STOP_TYPE: Record<NonNullable<StopOutlook['type']>, string> = {
  pickup: 'pickup',
  delivery: 'delivery',
};

/** "Stop 2 (delivery), Acme DC, Dallas, TX". */
export function stopName(stop: StopOutlook): string {
  const kind = stop.type ? ` (${STOP_TYPE[stop.type]})` : '';
  const where = [stop.name, stop.place?.city, stop.place?.state].filter(Boolean).join(', ');
  return `Stop ${stop.order}${kind}${where ? `, ${where}` : ''}`;
}

/** How late or early, in words: "1 h 10 min late", "40 min early", "on the minute". */
export function latenessText(lateMinutes: number): string {
  if (lateMinutes === 0) return 'on the minute';
  return `${durationText(lateMinutes)} ${lateMinutes > 0 ? 'late' : 'early'}`;
}

/** A stop's status in a few words, for the board and the map: "Late 1 h 10 min", "At risk, 25 min to spare". */
export function stopStatusShort(stop: StopOutlook, now: number): string {
  const { status, passed } = stopStatusAt(stop, now);
  if (passed && (stop.lateMinutes === undefined || stop.lateMinutes <= 0)) return 'Late: appointment passed';
  if (status === 'late' && stop.lateMinutes !== undefined) return `Late ${durationText(stop.lateMinutes)}`;
  if (status === 'at-risk' && stop.lateMinutes !== undefined)
    return `At risk, ${durationText(stop.lateMinutes)} to spare`;
  // Reckoned but not judged (the appointment's offset from GMT unknown): the ETA is still worth saying.
  const eta = status === 'unknown' ? shownEta(stop) : undefined;
  if (eta !== undefined) return `ETA ${stopTime(eta, stop.appointment?.offsetHours)}, not judged`;
  return STOP_STATUS_TEXT[status];
}

/**
 * The ETA's reckoning, for the load page: "412 mi at 52 mph + one 10 h rest → ETA Nov 24, 14:10 GMT-6;
 * appointment 13:00 → 1 h 10 min late". Once the appointment has passed with the stop not reached
 * (`now`), the ETA reckoned at the last ping says nothing more (the stop's status says it is late):
 * "412 mi to go at 52 mph at its last ping".
 */
export function etaText(stop: StopOutlook, now?: number): string | undefined {
  const i = stop.etaInputs;
  const eta = shownEta(stop);
  if (eta === undefined || !i) return undefined;
  const rests =
    i.rests === 0
      ? ''
      : ` + ${i.rests === 1 ? `one ${i.restHours} h rest` : `${i.rests} rests of ${i.restHours} h`}`;
  const speed = `${i.mph} mph${i.measured ? '' : ' (usual speed: too few recent pings)'}`;
  const offset = stop.appointment?.offsetHours;
  const a = stop.appointment;
  if (a && now !== undefined && stopStatusAt(stop, now).passed)
    return `${i.miles} mi to go at ${speed}${rests} at its last ping`;
  let text = `${i.miles} mi at ${speed}${rests} → ETA ${stopTime(eta, offset)}`;
  if (a) {
    const wall = a.local.slice(11);
    text +=
      a.instant === undefined || stop.lateMinutes === undefined
        ? `; appointment ${a.local} (its offset from GMT is unknown: not judged)`
        : `; appointment ${wall} → ${latenessText(stop.lateMinutes)}`;
  } else text += '; no appointment';
  return text;
}

export interface DarkReasonWords {
  /** What happened, in a few words. */
  title: string;
  /** What shows it. */
  evidence: string;
  /** What to do. */
  action: string;
}

const NOTICE: Record<NonNullable<DarkReason['noticeKind']>, [title: string, action: string]> = {
  'app-closed': ['App closed', 'Call the driver: ask them to open the app and leave it running'],
  permission: [
    'Location permission not "Always"',
    'Call the driver: ask them to set the app\'s location permission to "Always"',
  ],
  'phone-off': ['Phone off', 'Call the driver; if there is no answer, the phone may be off or flat'],
  'not-installed': [
    'App not installed',
    'Call the driver: ask them to install the app from the text message',
  ],
  other: ['Tracking notice', 'Call the driver'],
};

/** Why a load is dark, in words, with its evidence and the action. */
export function darkReasonWords(d: DarkReason, stops: readonly StopOutlook[] = []): DarkReasonWords {
  switch (d.reason) {
    case 'never-started':
      return {
        title: 'Never started',
        evidence: 'Dispatched, and no ping on this trip yet',
        action: 'Call the driver: ask them to open the app and start tracking',
      };
    case 'notice': {
      const [title, action] = NOTICE[d.noticeKind ?? 'other'];
      return { title, evidence: `The service says: "${d.notice ?? ''}"`, action };
    }
    case 'at-stop': {
      const stop = stops.find((s) => s.order === d.stopOrder);
      return {
        title: 'Waiting at a stop',
        evidence: `Last ping ${d.meters ?? 0} m from ${stop ? stopName(stop) : `stop ${d.stopOrder ?? ''}`}`,
        action: 'Call the driver or the facility: phones often go quiet while waiting at a dock',
      };
    }
    case 'intermittent':
      return {
        title: 'Intermittent',
        evidence: `${d.gaps ?? 0} gaps over 3 times its usual ${d.usualMinutes ?? 0} min between pings`,
        action: 'Weak signal or battery saver: call the driver if it stays dark',
      };
    case 'moving':
      return {
        title: 'Went dark while moving',
        evidence: `Its last pings moved at ${d.mph ?? 0} mph`,
        action: 'Call the driver: likely lost signal on the road',
      };
    case 'stopped':
      return {
        title: 'Went dark while stopped',
        evidence: 'Its last pings stood still, away from its stops (a rest, or the phone off)',
        action: 'Call the driver',
      };
  }
}
