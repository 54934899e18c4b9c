import { describe, expect, it } from 'vitest';
import { manualClock } from '@/testing/stack';
import { createLoginThrottle, DEFAULT_THROTTLE } from './login-throttle';

describe('the login throttle', () => {
  it('lets an address fail its free attempts, then doubles its wait up to the cap', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle({ ...DEFAULT_THROTTLE, freePerUsername: 1000 }, clock.now);
    for (let i = 0; i < DEFAULT_THROTTLE.freePerAddress; i++) {
      expect(throttle.check('a', `u${i}`)).toBeUndefined();
      throttle.failed('a', `u${i}`);
    }
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      const refusal = throttle.check('a', 'x');
      expect(refusal?.scope).toBe('address');
      waits.push(refusal!.retryAfterMs);
      clock.advance(refusal!.retryAfterMs);
      throttle.failed('a', `v${i}`);
    }
    expect(waits.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);
    expect(Math.max(...waits)).toBe(DEFAULT_THROTTLE.maxDelayMs);
    expect(throttle.check('b', 'x')).toBeUndefined();
  });

  it('forgets an address with no failure for an hour, and a username that logged in', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle(DEFAULT_THROTTLE, clock.now);
    for (let i = 0; i < 30; i++) throttle.failed('a', `u${i}`);
    expect(throttle.check('a', 'x')).toBeDefined();
    // The longest wait over, one more failure brings it back whole: the count is remembered.
    clock.advance(DEFAULT_THROTTLE.maxDelayMs);
    expect(throttle.check('a', 'x')).toBeUndefined();
    throttle.failed('a', 'x');
    expect(throttle.check('a', 'x')?.retryAfterMs).toBe(DEFAULT_THROTTLE.maxDelayMs);
    // An hour without a failure, and it starts afresh.
    clock.advance(DEFAULT_THROTTLE.forgetAfterMs);
    throttle.failed('a', 'x');
    expect(throttle.check('a', 'x')).toBeUndefined();
    for (let i = 0; i < 6; i++) throttle.failed(`b${i}`, 'cy');
    expect(throttle.check('c', 'cy')?.scope).toBe('username');
    throttle.succeeded('c', 'cy');
    expect(throttle.check('c', 'cy')).toBeUndefined();
  });

  it('stops every login for a minute past the global ceiling', () => {
    const clock = manualClock();
    const throttle = createLoginThrottle({ ...DEFAULT_THROTTLE, globalPerMinute: 20 }, clock.now);
    for (let i = 0; i < 20; i++) throttle.failed(`a${i}`, `u${i}`);
    expect(throttle.check('fresh', 'fresh')?.scope).toBe('everyone');
    clock.advance(60_000);
    expect(throttle.check('fresh', 'fresh')).toBeUndefined();
  });
});
