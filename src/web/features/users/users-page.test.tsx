import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/wire-fixtures';
import { createQueryClient } from '../../data/query-client';
import { sessionQueries } from '../../data/session-queries';
import { UsersPage } from './users-page';

afterEach(() => vi.unstubAllGlobals());

/** Adds a user named `name` on the page, the server refusing it with `status` and `code`, for `field`. */
async function addRefused(name: string, status: number, code: string, field: string, problem: string) {
  const refusal = {
    error: { code, message: `${field}: ${problem}`, details: [{ path: field, message: problem }] },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(status, refusal))),
  );
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <UsersPage session={{ mode: 'open', user: null }} />
    </QueryClientProvider>,
  );
  await user.type(screen.getByRole('textbox', { name: 'Name' }), name);
  await user.click(screen.getByRole('button', { name: 'Add user' }));
  return screen.findByRole('alert');
}

describe('adding a user', () => {
  it('names the field the server refused, beside the message', async () => {
    // The server's answer to a name of spaces (the form trims it).
    const alert = await addRefused(
      '   ',
      400,
      'invalid_request',
      'name',
      'must be 1 to 64 characters (got 0)',
    );
    expect(alert).toHaveTextContent('Name must be 1 to 64 characters (got 0)');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('says a taken name as the sentence it is, without the field’s name before it', async () => {
    const taken = 'a user named "boss" already exists (names that differ only in case are one)';
    expect(await addRefused('Boss', 409, 'duplicate_user', 'name', taken)).toHaveTextContent(
      /^A user named "boss" already exists \(names that differ only in case are one\)$/,
    );
  });
});

describe('adding the first user', () => {
  it('asks for the session at once, so the header leaves the open demo, and keeps the password shown', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((input, init) => {
        const url = String(input);
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        if (url.endsWith('/api/users') && init?.method === 'POST')
          return Promise.resolve(
            jsonResponse(201, {
              user: { name: 'Zed', role: 'admin', disabledAt: null, createdAt: '2026-11-29T04:00:00Z' },
              password: 'generated-once-4711',
            }),
          );
        if (url.endsWith('/api/session'))
          return Promise.resolve(jsonResponse(200, { mode: 'users', user: { name: 'Zed', role: 'admin' } }));
        return Promise.resolve(jsonResponse(200, { users: [] }));
      }),
    );
    function Header() {
      const session = useQuery(sessionQueries.state());
      return <p>{session.data?.mode ?? 'no session yet'}</p>;
    }
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Header />
        <UsersPage session={{ mode: 'open', user: null }} />
      </QueryClientProvider>,
    );
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Zed');
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    expect(await screen.findByText('generated-once-4711')).toBeVisible();
    await waitFor(() => expect(calls.filter((c) => c === 'GET /api/session')).toHaveLength(2));
    expect(screen.getByText('users')).toBeVisible();
    expect(screen.getByText('generated-once-4711')).toBeVisible();
  });
});
