/**
 * Failed logins, counted per client address and per username, each with its own backoff: a flood
 * from one address slows that address only, and guesses at one name from many addresses slow that
 * name only. A high ceiling for everyone together stops a flood from many addresses at once.
 * Counts live in the process; several instances each count their own.
 */
export interface ThrottlePolicy {
  /** Failures an address may have before its next try waits. */
  freePerAddress: number;
  /** Failures a username may have before the next login to it waits. */
  freePerUsername: number;
  /** The first wait; each further failure doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A count with no new failure for this long starts afresh. */
  forgetAfterMs: number;
  /** Failed logins per minute, from everyone, past which every login waits a minute. */
  globalPerMinute: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  freePerAddress: 10,
  freePerUsername: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  globalPerMinute: 600,
};

export type Refusal = { scope: 'address' | 'username' | 'everyone'; retryAfterMs: number };

interface Count {
  failures: number;
  last: number;
}

/** Entries kept before old ones are swept, so a flood of made-up names cannot grow memory for ever. */
const SWEEP_ABOVE = 10_000;

export function createLoginThrottle(policy: ThrottlePolicy = DEFAULT_THROTTLE, now: () => number = Date.now) {
  const byAddress = new Map<string, Count>();
  const byUsername = new Map<string, Count>();
  let recent: number[] = [];

  const delay = (failures: number, free: number) =>
    failures < free ? 0 : Math.min(policy.baseDelayMs * 2 ** (failures - free), policy.maxDelayMs);

  /** How long this key must still wait (0: it may try now). */
  const wait = (map: Map<string, Count>, key: string, free: number, t: number) => {
    const count = map.get(key);
    if (count === undefined) return 0;
    if (t - count.last >= policy.forgetAfterMs) {
      map.delete(key);
      return 0;
    }
    return Math.max(0, count.last + delay(count.failures, free) - t);
  };

  const sweep = (map: Map<string, Count>, t: number) => {
    if (map.size <= SWEEP_ABOVE) return;
    for (const [key, count] of map) if (t - count.last >= policy.forgetAfterMs) map.delete(key);
  };

  const bump = (map: Map<string, Count>, key: string, t: number) => {
    const count = map.get(key);
    const before = count === undefined || t - count.last >= policy.forgetAfterMs ? 0 : count.failures;
    map.set(key, { failures: before + 1, last: t });
    sweep(map, t);
  };

  return {
    /** Whether a login may be tried now; a refusal says whose count stops it and for how long. */
    check(address: string, username: string): Refusal | undefined {
      const t = now();
      recent = recent.filter((f) => f > t - 60_000);
      if (recent.length >= policy.globalPerMinute)
        return { scope: 'everyone', retryAfterMs: (recent[0] ?? t) + 60_000 - t };
      const forAddress = wait(byAddress, address, policy.freePerAddress, t);
      if (forAddress > 0) return { scope: 'address', retryAfterMs: forAddress };
      const forUsername = wait(byUsername, username, policy.freePerUsername, t);
      if (forUsername > 0) return { scope: 'username', retryAfterMs: forUsername };
      return undefined;
    },
    failed(address: string, username: string): void {
      const t = now();
      recent.push(t);
      bump(byAddress, address, t);
      bump(byUsername, username, t);
    },
    /** A correct login clears its address's and its username's counts. */
    succeeded(address: string, username: string): void {
      byAddress.delete(address);
      byUsername.delete(username);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
