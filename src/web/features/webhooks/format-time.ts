import { viewerTime } from '../../lib/time-format';

/** An instant as the viewer reads it (their zone) and in UTC; undefined when the text is no time. */
export function formatInstant(text: string): { local: string; utc: string } | undefined {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const date = new Date(ms);
  const local = viewerTime(ms);
  return { local, utc: `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC` };
}
