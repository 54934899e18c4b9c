import type { Appointment } from './model';

/*
 * A stop's appointment as the service sends it beside its documented fields (`datetime`, the
 * stop's local time, and `stopGMTDiff`). Read alike by the server's stops and the page's trip, and
 * free of schemas, so the page's bundle carries only this.
 */

const APPOINTMENT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::\d{2})?$/;

/**
 * `stopGMTDiff`: hours from GMT, as text ("-6", "-5.5", "+05:30", "GMT-6") or a number; undefined
 * when it is none of these or beyond any zone on Earth.
 */
export function offsetHours(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(?:GMT|UTC)?\s*([-+])?\s*(\d{1,2})(?::(\d{2})|(\.\d+))?$/i.exec(text.trim());
  if (!m) return undefined;
  const hours =
    Number(m[2]) + (m[3] !== undefined ? Number(m[3]) / 60 : m[4] !== undefined ? Number(m[4]) : 0);
  const signed = m[1] === '-' ? -hours : hours;
  return Math.abs(signed) <= 14 && (m[3] === undefined || Number(m[3]) < 60) ? signed : undefined;
}

/**
 * The appointment of a stop: its local text as written and, when the offset is known, the instant.
 * Undefined when the text is missing or is not a date and time (`MM/DD/YYYY HH:mm`).
 */
export function appointmentOf(
  datetime: string | undefined,
  gmtDiff: string | undefined,
): Appointment | undefined {
  const m = datetime === undefined ? null : APPOINTMENT.exec(datetime);
  if (!m) return undefined;
  const [month, day, year, hour, minute] = m.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const d = new Date(wall);
  // 02/30 or 25:00 are no time at all: Date would roll them over into another.
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || hour > 23 || minute > 59) return undefined;
  const local = `${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}/${year} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  const offset = offsetHours(gmtDiff);
  return offset === undefined
    ? { local }
    : { local, offsetHours: offset, instant: wall - Math.round(offset * 60) * 60_000 };
}
