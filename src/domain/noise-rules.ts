import type { NoiseRule } from '@/contract/proxy-api';

export type { NoiseRule };

/**
 * Which status events are app and system notices rather than news about the freight ("Driver has
 * viewed the load track", "Sent text message to driver", "App not installed"). They are hidden from
 * the timeline by default, behind a toggle that says how many there are.
 *
 * This module is the one place that decides. Each rule is a piece of text looked for in the event's
 * name, case-insensitively and with runs of blanks folded. A rule with `onlyWithoutCode` counts
 * only for events that carry no code: the service gives codes to the driver's real statuses, so a
 * generic word ("notification") is noise only on an event without one.
 *
 * `NOISE_RULES` is the built-in list. The proxy's config may add rules or drop the built-in ones
 * (`noiseRules`), and hands the result to the browser in `/api/config`.
 */
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

/**
 * The rule list in force: the built-in one (unless `builtIn` is false) followed by the configured
 * texts, those in `containsWithoutCode` counting only for events without a code. A text already in
 * the list with the same reach is not added twice.
 */
export function noiseRules(options: {
  builtIn: boolean;
  contains?: readonly string[];
  containsWithoutCode?: readonly string[];
}): NoiseRule[] {
  const rules: NoiseRule[] = options.builtIn ? [...NOISE_RULES] : [];
  const seen = new Set(rules.map((r) => `${r.onlyWithoutCode === true}:${fold(r.contains)}`));
  const add = (texts: readonly string[] | undefined, onlyWithoutCode: boolean) => {
    for (const text of texts ?? []) {
      const key = `${onlyWithoutCode}:${fold(text)}`;
      if (fold(text) === '' || seen.has(key)) continue;
      seen.add(key);
      rules.push(onlyWithoutCode ? { contains: text, onlyWithoutCode } : { contains: text });
    }
  };
  add(options.contains, false);
  add(options.containsWithoutCode, true);
  return rules;
}

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
      // A rule with no text would find itself in every name.
      rules: rules
        .map((r) => ({ contains: fold(r.contains), onlyWithoutCode: r.onlyWithoutCode === true }))
        .filter((r) => r.contains !== ''),
      withCode: new Map(),
      withoutCode: new Map(),
    };
    judges.set(rules, judge);
  }
  return judge;
}

/** Whether an event is an app or system notice by `rules`. An event without a name is never noise. */
export function isNoiseEvent(
  event: { name?: string | undefined; code?: string | undefined },
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
