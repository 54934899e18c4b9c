import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/wire-fixtures';
import { createQueryClient } from '../../data/query-client';
import { UsersPage } from './users-page';

afterEach(() => vi.unstubAllGlobals());

describe('adding a user', () => {
  it('names the field the server refused, beside the message', async () => {
    // The server's answer to a name of spaces (the form trims it).
    const refusal = {
      error: {
        code: 'invalid_request',
        message: 'name: must be 1 to 64 characters (got 0)',
        details: [{ path: 'name', message: 'must be 1 to 64 characters (got 0)' }],
      },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(400, refusal))),
    );
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <UsersPage session={{ mode: 'open', user: null }} />
      </QueryClientProvider>,
    );
    await user.type(screen.getByRole('textbox', { name: 'Name' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Name must be 1 to 64 characters (got 0)');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('says a taken name as the sentence it is, without the field’s name before it', async () => {
    const refusal = {
      error: {
        code: 'duplicate_user',
        message: 'name: a user named "boss" already exists (names that differ only in case are one)',
        details: [
          {
            path: 'name',
            message: 'a user named "boss" already exists (names that differ only in case are one)',
          },
        ],
      },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(409, refusal))),
    );
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <UsersPage session={{ mode: 'open', user: null }} />
      </QueryClientProvider>,
    );
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Boss');
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^A user named "boss" already exists \(names that differ only in case are one\)$/,
    );
  });
});
