// Pure helpers of the map peer bench (bench/map-peers.ts): the refresh's moved answer, the main
// thread's work per frame read from a Chromium trace, and the figures with their peers and ratios.
import type { Figure } from './figures';

/** A load as the proxy's answer carries it, as far as a refresh moves it. */
interface AnswerLoad {
  id: string;
  latestLocation?: { lat: number; lon: number; key: string; instant: number; time: { instant?: number } };
}

/**
 * The answer to a poll after the first, in refresh number `k` (1, 2, …): the same `share` of the
 * loads with a position, spread evenly over the answer, each `0.002 * k` degrees north-east of where
 * the first answer had it, as a newer fix (a new instant and key) at `now`. Only those loads, as the
 * proxy answers after a cursor. The first answer is left as it was.
 */
export function movedAnswer(firstText: string, k: number, now: number, share = 0.1): string {
  const answer = JSON.parse(firstText) as { cursor: string; loads: AnswerLoad[] };
  const located = answer.loads.filter((d) => d.latestLocation);
  const target = Math.min(located.length, Math.round(answer.loads.length * share));
  const step = target === 0 ? 0 : located.length / target;
  const loads = Array.from({ length: target }, (_, n) => {
    const load = located[Math.floor(n * step)] as AnswerLoad;
    const at = load.latestLocation as NonNullable<AnswerLoad['latestLocation']>;
    const lat = Number((at.lat + 0.002 * k).toFixed(6));
    const lon = Number((at.lon + 0.002 * k).toFixed(6));
    return {
      ...load,
      latestLocation: {
        ...at,
        lat,
        lon,
        instant: now,
        time: { ...at.time, instant: now },
        key: `${now}|${lat}|${lon}`,
      },
    };
  });
  return JSON.stringify({ ...answer, cursor: `${answer.cursor}-moved${k}`, loads });
}

export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs), where the trace records it. */
  tdur?: number;
  args?: { name?: string };
}

/**
 * The renderer main thread's work per frame, in ms, from a trace with the `toplevel` and
 * `disabled-by-default-devtools.timeline.frame` categories: the time its top-level tasks ran between
 * one `BeginMainThreadFrame` and the next (the frame's rendering, and the input and script that led
 * to the next one). Not the gap between frames, which snaps to the display's interval. The thread is
 * the renderer main thread that began the most frames (the page's, when one page was traced).
 */
export function frameWork(events: TraceEvent[]): number[] {
  const mains = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const beginsOf = (m: TraceEvent) =>
    events
      .filter((e) => e.name === 'BeginMainThreadFrame' && e.pid === m.pid && e.tid === m.tid)
      .map((e) => e.ts)
      .sort((a, b) => a - b);
  let main: TraceEvent | undefined;
  let begins: number[] = [];
  for (const m of mains) {
    const b = beginsOf(m);
    if (b.length > begins.length) [main, begins] = [m, b];
  }
  if (!main || begins.length < 2) return [];
  const on = main;
  // Top-level tasks only, and none inside another (a task runner's slice may wrap another's).
  const tasks: [number, number][] = [];
  for (const e of events
    .filter(
      (x) =>
        x.pid === on.pid && x.tid === on.tid && x.ph === 'X' && (x.cat ?? '').split(',').includes('toplevel'),
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
    const end = e.ts + (e.dur ?? 0);
    const last = tasks.at(-1);
    if (last && e.ts < last[1]) last[1] = Math.max(last[1], end);
    else tasks.push([e.ts, end]);
  }
  const work: number[] = [];
  let t = 0;
  for (let i = 1; i < begins.length; i++) {
    const from = begins[i - 1] as number;
    const to = begins[i] as number;
    while (t < tasks.length && (tasks[t] as [number, number])[1] <= from) t++;
    let busy = 0;
    for (let j = t; j < tasks.length && (tasks[j] as [number, number])[0] < to; j++) {
      const [s, e] = tasks[j] as [number, number];
      busy += Math.min(e, to) - Math.max(s, from);
    }
    work.push(busy / 1000);
  }
  return work;
}

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor(s.length / 2)] as number);
};

/** The nearest-rank percentile (`p` of 100); NaN for no values. */
export const percentile = (values: number[], p: number): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0
    ? NaN
    : (s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number);
};

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** What a figure must be: at most `max`, and at most `ratio[peer]` times each named peer's value. */
export interface PeerGoal {
  max?: number;
  /** Slack on `max` only (frame figures: timer rounding), never on a ratio. */
  slack?: number;
  ratio?: Record<string, number>;
}

/** Haulview's value over the peer's, to two places; NaN when either is missing or the peer's is 0. */
export const ratioOf = (value: number, peer: number): number =>
  Number.isFinite(value) && Number.isFinite(peer) && peer > 0 ? round(value / peer, 2) : NaN;

const fraction = (r: number) => (r < 1 ? `1/${round(1 / r, 1)}` : String(r));

/**
 * A figure with its peers beside it. It passes when the value is within `max` and within each named
 * ratio of its peer; a peer without a figure, or a value that is not a number, fails a goal that
 * names it.
 */
export function peerFigure(
  figure: string,
  unit: string,
  value: number,
  peers: { name: string; value: number }[],
  goal: PeerGoal = {},
): Figure {
  const parts: string[] = [];
  let pass = true;
  if (goal.max !== undefined) {
    parts.push(`<= ${goal.max}`);
    pass &&= Number.isFinite(value) && value <= goal.max + (goal.slack ?? 0);
  }
  for (const [name, most] of Object.entries(goal.ratio ?? {})) {
    parts.push(`<= ${fraction(most)}x ${name}`);
    const peer = peers.find((p) => p.name === name);
    const r = peer && peer.value > 0 ? value / peer.value : NaN;
    pass &&= Number.isFinite(r) && r <= most;
  }
  return {
    figure,
    value: round(value),
    unit,
    goal: parts.length === 0 ? '-' : parts.join(', '),
    pass,
    peers: peers.map((p) => ({ name: p.name, value: round(p.value) })),
  };
}
