/**
 * A load's `stops`: undocumented, kept by the parser as they came. Whatever each stop holds is shown
 * as label/value pairs of its string, number and yes/no fields (one level of nesting is flattened:
 * `address.city`); anything else is left out, and odd shapes never fail.
 */
export interface StopView {
  /** "Stop 1", or the stop's position in the list when it has no order number. */
  title: string;
  fields: [label: string, value: string][];
}

/** Fields shown first, in this order, when a stop has them; the rest follow as they came. */
const FIRST = [
  'stopOrderNumber',
  'stopExternalId',
  'type',
  'stopType',
  'kind',
  'name',
  'city',
  'state',
  'country',
];
const MAX_STOPS = 100;
const MAX_FIELDS = 24;
const MAX_TEXT = 200;

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return undefined;
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function fieldsOf(stop: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(stop)) {
    const text = scalar(value);
    if (text !== undefined) out.push([key, text]);
    else if (isRecord(value)) {
      for (const [inner, v] of Object.entries(value)) {
        const t = scalar(v);
        if (t !== undefined) out.push([`${key}.${inner}`, t]);
      }
    }
  }
  const rank = (k: string) => {
    const i = FIRST.indexOf(k);
    return i < 0 ? FIRST.length : i;
  };
  return out
    .map((f, i) => [f, i] as const)
    .sort((a, b) => rank(a[0][0]) - rank(b[0][0]) || a[1] - b[1])
    .map(([f]) => f)
    .slice(0, MAX_FIELDS);
}

/** "stopOrderNumber" → "Stop order number", "address.city" → "Address city". */
export function fieldLabel(key: string): string {
  const text = key
    .replace(/[._-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return text ? text[0]!.toUpperCase() + text.slice(1) : key;
}

/** The stops to show, or null when `stops` is not a list (absent, or some other shape). */
export function readStops(stops: unknown): StopView[] | null {
  if (!Array.isArray(stops)) return null;
  const views: StopView[] = [];
  for (const [i, stop] of stops.slice(0, MAX_STOPS).entries()) {
    const text = scalar(stop);
    if (text !== undefined) {
      views.push({ title: `Stop ${i + 1}`, fields: [['Value', text]] });
      continue;
    }
    if (!isRecord(stop)) continue;
    const fields = fieldsOf(stop);
    const order = scalar(stop.stopOrderNumber);
    views.push({ title: `Stop ${order ?? i + 1}`, fields: fields.map(([k, v]) => [fieldLabel(k), v]) });
  }
  return views;
}
