/**
 * Where in its trip a load is, from its latest main status. The service does not publish its set of
 * status names and codes (upstream-api.md 2.6), so a status is placed by its code when the code is
 * one we know (the service's own three-letter codes, and the X12 214 codes carriers use), else by
 * words in its name; a status that says neither is `other`, never a guess.
 */
export type StatusPhase = 'planned' | 'pickup' | 'transit' | 'delivery' | 'delivered' | 'other';

/** The phases in trip order, `other` last: the map's legend and the board list them so. */
export const STATUS_PHASES: readonly StatusPhase[] = [
  'planned',
  'pickup',
  'transit',
  'delivery',
  'delivered',
  'other',
];

/** Known codes: the service's (as the simulator sends them) and X12 214 shipment status codes. */
const BY_CODE: Readonly<Record<string, StatusPhase>> = {
  CRT: 'planned',
  DSP: 'planned',
  APU: 'pickup',
  LDD: 'pickup',
  ITR: 'transit',
  ADL: 'delivery',
  DLV: 'delivered',
  // X12 214: arrived at pickup, loaded, departed pickup, en route, arrived at delivery, delivered.
  X3: 'pickup',
  AF: 'transit',
  X6: 'transit',
  X1: 'delivery',
  D1: 'delivered',
};

/**
 * Words of a status name, the most telling first: "Arrived at delivery" is not yet "delivered", "En
 * route to receiver" is on the road, and "Unloaded" is at delivery although it holds "loaded".
 */
const BY_NAME: readonly [RegExp, StatusPhase][] = [
  [/\b(delivered|completed?|proof of delivery|pod)\b/i, 'delivered'],
  [/transit|en[- ]?route|on the (way|road)|departed|driving|moving/i, 'transit'],
  [/deliver|unload|consignee|receiver|drop[- ]?off/i, 'delivery'],
  [/pick[- ]?up|\bloaded\b|\bloading\b|shipper/i, 'pickup'],
  [/created|dispatch|assigned|tender|booked|scheduled|accepted|planned/i, 'planned'],
];

/** The phase of a status (a load's latest, say); `other` when nothing in it says. */
export function statusPhase(
  status: { name: string | undefined; code: string | undefined } | undefined,
): StatusPhase {
  if (!status) return 'other';
  const code = status.code?.trim().toUpperCase();
  // Own keys only: a code such as "constructor" is not a phase.
  const known = code && Object.hasOwn(BY_CODE, code) ? BY_CODE[code] : undefined;
  if (known) return known;
  const name = status.name ?? '';
  for (const [words, phase] of BY_NAME) if (words.test(name)) return phase;
  return 'other';
}
