import { describe, expect, it } from 'vitest';
import { ApiError } from '../../data/api-client';
import { loginMessage } from './login-page';

describe('loginMessage', () => {
  const slowed = (retryAfter?: string) =>
    loginMessage(new ApiError(429, 'too_many_attempts', 'slow down', undefined, retryAfter));

  it('says how long to wait after too many failed logins, in words that read right', () => {
    expect(slowed('1')).toBe('Too many failed logins. Try again in a second.');
    expect(slowed('12')).toBe('Too many failed logins. Try again in 12 seconds.');
    expect(slowed()).toBe('Too many failed logins. Try again in a few seconds.');
  });
});
