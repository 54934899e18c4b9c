import type { ItemTime } from '@/domain/model';

/**
 * Every time the pages show, in one format: "Nov 26, 13:26 MST", the zone always named. Times are
 * written in the zone the viewer chose (`TimeZoneChoice`): the driver's, as the phone reported it,
 * or the viewer's own. The driver's zone comes from the offset the server read for each item's
 * local text (the page keeps no zone tables).
 */

/** Whose clock times are read on: the driver's phone's zone, or the viewer's own. */
export type TimeZoneChoice = 'driver' | 'mine';

/** A zone to write times in: the viewer's own, or a fixed offset (minutes east of UTC) with its name. */
export type ZoneSpec = { kind: 'mine' } | { kind: 'fixed'; offset: number; name: string };

export const UTC_ZONE: ZoneSpec = { kind: 'fixed', offset: 0, name: 'UTC' };

const OPTIONS: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
};
// One locale for every time: the pages are in English, and a 24-hour clock reads the same as the
// service's own texts.
const FIXED = new Intl.DateTimeFormat('en-US', { ...OPTIONS, timeZone: 'UTC' });
let viewer: Intl.DateTimeFormat | undefined;
const viewerFormat = () => (viewer ??= new Intl.DateTimeFormat('en-US', OPTIONS));

export interface ClockParts {
  /** "Nov 26" */
  date: string;
  /** "13:26" */
  clock: string;
  /** "07" */
  seconds: string;
  /** "MST", "CST", "GMT+1" */
  zone: string;
}

/** The date, clock and zone name of an instant in a zone. */
export function clockParts(instant: number, zone: ZoneSpec): ClockParts {
  const fixed = zone.kind === 'fixed';
  const parts = (fixed ? FIXED : viewerFormat()).formatToParts(
    new Date(fixed ? instant + zone.offset * 60_000 : instant),
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${part('month')} ${part('day')}`,
    clock: `${part('hour')}:${part('minute')}`,
    seconds: part('second'),
    zone: fixed ? zone.name : part('timeZoneName'),
  };
}

/**
 * "Nov 26, 13:26 MST", or with seconds "Nov 26, 13:26:07 MST" where they matter (a deadline to the
 * second); no zone name at all for a fixed zone named "".
 */
export function formatTime(instant: number, zone: ZoneSpec, { seconds = false } = {}): string {
  // Intl throws on an invalid date: a text that was no time must not take its page down.
  if (!Number.isFinite(instant)) return 'time unknown';
  const parts = clockParts(instant, zone);
  const clock = seconds ? `${parts.clock}:${parts.seconds}` : parts.clock;
  return `${parts.date}, ${clock}${parts.zone ? ` ${parts.zone}` : ''}`;
}

/** An instant in the viewer's own zone, to the second: "Nov 22, 08:15:47 EST". */
export const viewerTime = (instant: number): string =>
  formatTime(instant, { kind: 'mine' }, { seconds: true });

/** The viewer's own zone, short ("CST", "UTC", "GMT+1"), as of `instant`. */
export function viewerZoneName(instant: number = Date.now()): string {
  return clockParts(instant, { kind: 'mine' }).zone;
}

/** An instant as UTC with seconds, "2026-11-26 20:26:03 UTC": for hover texts and copies. */
export function utcIso(instant: number): string {
  return `${new Date(instant).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The zone an item's own time is in, when the server knew its offset. */
export function driverZoneOf(time: ItemTime): ZoneSpec | undefined {
  return time.offset === undefined
    ? undefined
    : { kind: 'fixed', offset: time.offset, name: time.zone ?? '' };
}

export interface ItemTimeWords {
  /** What is shown: "Nov 26, 13:26 MST", or "time unknown". */
  text: string;
  /** What is said beside it: the zone is unknown, the phone sent no local time. */
  note: string | undefined;
  /** The same time in the other zone, in UTC and as the phone sent it: for hover. */
  title: string;
}

/**
 * An item's time in the chosen zone. An unknown zone cannot be converted: its wall time is shown as
 * sent, with the abbreviation it came with, and said so. An item with only a UTC time has no driver's
 * zone: it is written in UTC.
 */
export function itemTimeWords(time: ItemTime, instant: number | null, choice: TimeZoneChoice): ItemTimeWords {
  if (instant === null)
    return {
      text: time.local ?? 'time unknown',
      note: time.local === undefined ? undefined : 'not a readable time',
      title: 'No readable time',
    };
  const sent = time.local === undefined ? [] : [`As sent: ${time.local}`];
  if (time.approximate) {
    // The instant is the wall time read as UTC: written "in UTC", it reads as the wall time sent.
    const text = formatTime(instant, { kind: 'fixed', offset: 0, name: time.zone ?? '' });
    return { text, note: 'zone unknown', title: [...sent, 'Its zone is unknown: not converted'].join('\n') };
  }
  const driver = driverZoneOf(time);
  const inDriver = formatTime(instant, driver ?? UTC_ZONE);
  const inMine = formatTime(instant, { kind: 'mine' });
  const title = [
    driver ? `Driver’s zone: ${inDriver}` : 'The phone sent no local time',
    `Your zone: ${inMine}`,
    utcIso(instant),
    ...sent,
  ].join('\n');
  if (choice === 'mine') return { text: inMine, note: undefined, title };
  return { text: inDriver, note: driver ? undefined : 'no device time', title };
}

/**
 * Labels of a time axis in a zone: the clock at each tick, with seconds when ticks are less than a
 * minute apart (readings over a minute or two), and the date where the day changes.
 */
export function timeTickLabels(instants: readonly number[], zone: ZoneSpec): string[] {
  let day: string | undefined;
  const withSeconds = instants.some((t, i) => i > 0 && t - instants[i - 1]! < 60_000);
  return instants.map((instant) => {
    const { date, clock: minute, seconds } = clockParts(instant, zone);
    const clock = withSeconds ? `${minute}:${seconds}` : minute;
    const label = date === day ? clock : `${clock}\n${date}`;
    day = date;
    return label;
  });
}
