import { z } from 'zod';
import { unit } from './random';

/**
 * Fault knobs of the pull operations, all off by default. They let the proxy's error handling be
 * exercised against the very failures a real upstream shows: slowness, 5xx, rate limiting, a page that
 * is no JSON, a 200 whose envelope says `status: false`, and, after the `sendNewData` cursors have
 * already moved (the cases that lose a delta unless the client falls back to a full pull), a body
 * cut short, a connection dropped, an answer held past the client's deadline, or one without end.
 */
const rate = z.number().min(0).max(1).default(0);

export const FaultSettings = z.strictObject({
  /** Added before every pull is answered. */
  latencyMs: z.number().int().min(0).max(600_000).default(0),
  /** Probability of a 500. */
  errorRate: rate,
  /** Probability of a 429 carrying `Retry-After: retryAfterSeconds`. */
  tooManyRequestsRate: rate,
  retryAfterSeconds: z.number().int().min(0).max(86_400).default(1),
  /** Probability of a 200 whose body is no JSON at all (a gateway's HTML page); cursors stay put. */
  invalidJsonRate: rate,
  /** Probability that a 200 ends after a valid prefix of its JSON. */
  truncateRate: rate,
  /** Probability that the socket is destroyed, without an answer, after the cursors moved. */
  resetRate: rate,
  /** Probability of a 200 whose envelope says `status: false` (as the real service fails); cursors stay put. */
  statusFalseRate: rate,
  /** Probability that an answer is held `slowMs` after the cursors moved (past a client's deadline). */
  slowRate: rate,
  slowMs: z.number().int().min(0).max(600_000).default(30_000),
  /** Probability of a 200, after the cursors moved, whose body goes on past any size cap (1 GiB at most). */
  oversizeRate: rate,
});
/** The settings as given: every field optional. */
export type FaultOptions = z.input<typeof FaultSettings>;
export type Faults = z.output<typeof FaultSettings>;

/** What happens to one pull request. */
export interface FaultPlan {
  latencyMs: number;
  /** Answered instead of the pull; cursors stay where they were. */
  before: 'too-many-requests' | 'error' | 'invalid-json' | 'status-false' | undefined;
  /** Done to a 200 answer, once the pull (and its cursor moves) happened. */
  after: 'reset' | 'truncate' | 'slow' | 'oversize' | undefined;
  /** Where a truncated body is cut, as a fraction of its length. */
  cut: number;
}

export interface FaultInjector {
  readonly settings: Faults;
  /** Replaces the settings (validated) and restarts the random sequence, so a run is repeatable. */
  set: (options: FaultOptions) => void;
  /** The fate of the next pull request. */
  draw: () => FaultPlan;
}

/** Tag of the fault draws, so they never coincide with the fleet's own random streams. */
const FAULT_STREAM = 0xfa17;

/**
 * Draws are a pure function of the seed and the request's number since the settings were last set:
 * the same seed, settings and sequence of requests give the same faults on every run.
 */
export function createFaultInjector(seed: number, options: FaultOptions = {}): FaultInjector {
  let settings = FaultSettings.parse(options);
  let n = 0;
  return {
    get settings() {
      return settings;
    },
    set(next) {
      settings = FaultSettings.parse(next);
      n = 0;
    },
    draw() {
      const i = n++;
      // Each kind has a draw of its own (a pure function of seed, request and kind), so switching
      // one kind on or off does not change when the others strike.
      const u = (kind: number) => unit(seed, FAULT_STREAM, i, kind);
      /** The first kind whose draw falls under its rate, in the order given. */
      const first = <K extends string>(kinds: [draw: number, rate: number, kind: K][]) =>
        kinds.find(([draw, rate]) => u(draw) < rate)?.[2];
      const before = first([
        [1, settings.tooManyRequestsRate, 'too-many-requests'],
        [2, settings.errorRate, 'error'],
        [6, settings.invalidJsonRate, 'invalid-json'],
        [7, settings.statusFalseRate, 'status-false'],
      ]);
      const after = first([
        [3, settings.resetRate, 'reset'],
        [4, settings.truncateRate, 'truncate'],
        [8, settings.slowRate, 'slow'],
        [9, settings.oversizeRate, 'oversize'],
      ]);
      return { latencyMs: settings.latencyMs, before, after, cut: u(5) };
    },
  };
}

/** Whether any fault is on (for the start-up banner). */
export function faultsActive(f: Faults): boolean {
  return (
    f.latencyMs > 0 ||
    f.errorRate > 0 ||
    f.tooManyRequestsRate > 0 ||
    f.invalidJsonRate > 0 ||
    f.truncateRate > 0 ||
    f.resetRate > 0 ||
    f.statusFalseRate > 0 ||
    f.slowRate > 0 ||
    f.oversizeRate > 0
  );
}

/**
 * A strict, non-empty prefix of a JSON text: what a client receives when the connection ends early.
 * `cut` in [0, 1) picks where, between the first character and the last.
 */
export function truncateJson(text: string, cut: number): string {
  if (text.length < 2) return '';
  return text.slice(0, 1 + Math.floor(cut * (text.length - 1)));
}
