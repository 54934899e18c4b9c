import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../data/api-client';
import { createQueryClient } from '../../data/query-client';
import { noteSessionEnded } from '../../data/session-queries';
import { LoginPage, loginMessage } from './login-page';

describe('loginMessage', () => {
  const slowed = (retryAfter?: string) =>
    loginMessage(new ApiError(429, 'too_many_attempts', 'slow down', undefined, retryAfter));

  it('says how long to wait after too many failed logins, in words that read right', () => {
    expect(slowed('1')).toBe('Too many failed logins. Try again in a second.');
    expect(slowed('12')).toBe('Too many failed logins. Try again in 12 seconds.');
    expect(slowed()).toBe('Too many failed logins. Try again in a few seconds.');
  });
});

describe('LoginPage', () => {
  const show = () =>
    render(
      <QueryClientProvider client={createQueryClient()}>
        <LoginPage />
      </QueryClientProvider>,
    );

  it('says the session ended when it ended under the user, and that the last action was not saved', () => {
    noteSessionEnded();
    show();
    expect(screen.getByRole('status')).toHaveTextContent(/Your session ended .* was not saved/);
  });

  it('says nothing of it on a first visit', () => {
    show();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
