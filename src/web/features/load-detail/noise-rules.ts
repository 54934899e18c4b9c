/**
 * Which status events are app and system notices rather than news about the freight ("Driver has
 * viewed the load track", "Sent text message to driver", "App not installed"). They are hidden from
 * the timeline by default, behind a toggle that says how many there are.
 *
 * This list is the one place that decides. Each rule is a piece of text looked for in the event's
 * name, case-insensitively and with runs of blanks folded. A rule with `onlyWithoutCode` counts
 * only for events that carry no code: the service gives codes to the driver's real statuses, so a
 * generic word ("notification") is noise only on an event without one.
 */
export interface NoiseRule {
  /** Text looked for in the event's name; case and runs of blanks do not matter. */
  contains: string;
  /** Only events without a code are noise by this rule. */
  onlyWithoutCode?: boolean;
}

export const NOISE_RULES: readonly NoiseRule[] = [
  { contains: 'has viewed the load track' },
  { contains: 'viewed the load' },
  { contains: 'sent text message' },
  { contains: 'text message sent' },
  { contains: 'app not installed' },
  { contains: 'app installed' },
  { contains: 'app uninstalled' },
  { contains: 'tracking link opened' },
  { contains: 'opened the tracking link' },
  { contains: 'location permission' },
  { contains: 'reminder sent' },
  { contains: 'email sent' },
  { contains: 'sms', onlyWithoutCode: true },
  { contains: 'notification', onlyWithoutCode: true },
  { contains: 'text message', onlyWithoutCode: true },
  { contains: 'reminder', onlyWithoutCode: true },
  { contains: 'invitation', onlyWithoutCode: true },
];

const fold = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

interface Judge {
  rules: readonly { contains: string; onlyWithoutCode: boolean }[];
  /** The verdict per name, with and without a code: a load's thousands of events share a few names. */
  withCode: Map<string, boolean>;
  withoutCode: Map<string, boolean>;
}

const judges = new WeakMap<readonly NoiseRule[], Judge>();

function judgeOf(rules: readonly NoiseRule[]): Judge {
  let judge = judges.get(rules);
  if (!judge) {
    judge = {
      rules: rules.map((r) => ({ contains: fold(r.contains), onlyWithoutCode: r.onlyWithoutCode === true })),
      withCode: new Map(),
      withoutCode: new Map(),
    };
    judges.set(rules, judge);
  }
  return judge;
}

/** Whether an event is an app or system notice by `rules`. An event without a name is never noise. */
export function isNoiseEvent(
  event: { name: string | undefined; code: string | undefined },
  rules: readonly NoiseRule[] = NOISE_RULES,
): boolean {
  if (!event.name) return false;
  const judge = judgeOf(rules);
  const noCode = !event.code?.trim();
  const known = noCode ? judge.withoutCode : judge.withCode;
  let verdict = known.get(event.name);
  if (verdict === undefined) {
    const name = fold(event.name);
    verdict = judge.rules.some((rule) => (noCode || !rule.onlyWithoutCode) && name.includes(rule.contains));
    // Names are few in practice; a hostile answer with endless distinct names must not grow this forever.
    if (known.size > 10_000) known.clear();
    known.set(event.name, verdict);
  }
  return verdict;
}
