import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedBoard } from '@/contract/boards-api';
import { createQueryClient } from '../../data/query-client';
import { SavedBoardsMenu } from './saved-boards';

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const board = (id: string, name: string, owner: string, shared: boolean): SavedBoard => ({
  id,
  name,
  owner,
  shared,
  search: '?ids=e:700100',
  updatedAt: '2026-11-28T10:00:00Z',
});

let boards: SavedBoard[];
let role: 'dispatcher' | 'admin';
let sent: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  role = 'dispatcher';
  sent = [];
  boards = [
    board('1', 'Team TX', 'Dee', true),
    board('2', 'Mine only', 'Dee', false),
    board('3', 'Bo’s reefers', 'Bo', true),
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (url, init) => {
      const path = String(url);
      const method = init?.method ?? 'GET';
      if (path === '/api/session') return json(200, { mode: 'users', user: { name: 'Dee', role } });
      if (method === 'GET') return json(200, { boards });
      const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
      sent.push({ method, path, body });
      if (method === 'DELETE') {
        boards = boards.filter((b) => `/api/boards/${b.id}` !== path);
        return json(204, null);
      }
      return json(200, { ...board('9', 'x', 'Dee', false), ...(body as object) });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const show = async () => {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SavedBoardsMenu />
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Boards' }));
  await screen.findByRole('list', { name: 'Saved boards' });
  return user;
};

describe('SavedBoardsMenu', () => {
  it('deletes a board of yours after a second click, and offers no delete of a colleague’s', async () => {
    const user = await show();
    const list = screen.getByRole('list', { name: 'Saved boards' });
    await screen.findByRole('button', { name: 'Delete board Mine only' });
    expect(within(list).queryByRole('button', { name: 'Delete board Bo’s reefers' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete board Mine only' }));
    expect(sent).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete “Mine only”' }));
    expect(await screen.findByText('Team TX')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Mine only')).toBeNull());
    expect(sent).toEqual([{ method: 'DELETE', path: '/api/boards/2', body: undefined }]);
  });

  it('lets an admin delete a colleague’s shared board', async () => {
    role = 'admin';
    await show();
    expect(await screen.findByRole('button', { name: 'Delete board Bo’s reefers' })).toBeInTheDocument();
  });

  it('keeps a shared board shared when it is saved again under its name', async () => {
    const user = await show();
    await screen.findByRole('button', { name: 'Delete board Team TX' });
    const share = screen.getByRole('checkbox', { name: 'Share with the team' });
    expect(share).not.toBeChecked();
    await user.type(screen.getByRole('textbox', { name: 'Save this board as' }), 'Team TX');
    expect(share).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ method: 'PUT', body: { name: 'Team TX', shared: true } });
  });
});
