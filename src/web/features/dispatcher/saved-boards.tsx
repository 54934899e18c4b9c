import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { BoardsAnswer, SavedBoard } from '@/contract/boards-api';
import * as z from 'zod/mini';
import { apiGet, apiSend, ApiError } from '../../data/api-client';
import { sessionQueries } from '../../data/session-queries';
import { useDismiss } from '../../lib/use-dismiss';
import { queryText } from '../../lib/url-state';

const boardsQuery = () =>
  queryOptions({
    queryKey: ['boards'],
    queryFn: ({ signal }) => apiGet('/api/boards', BoardsAnswer, signal),
  });

/** A board deleted: `204`, no body. */
const Deleted = z.undefined();

/** What the address says of the view alone (the selection, the map's view, the phone's switch): not part of a board. */
const NOT_OF_A_BOARD = ['load', 'map', 'view', 'board'];

/** The board as it is on screen: its watch list, filter and sort, as an address query. */
export function boardSearch(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of NOT_OF_A_BOARD) params.delete(name);
  const text = queryText(params);
  return text ? `?${text}` : '';
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.code === 'store_unavailable')
    return 'Saved boards are unavailable: Haulview’s database does not answer. The board itself keeps working.';
  if (error instanceof ApiError) return error.message;
  return 'That did not work. Try again.';
}

/**
 * "Boards": open a board saved by you or shared by a colleague, or save this one under a name
 * (shared with the team or not). `?board=ID` in the address opens a saved board, so it can be sent
 * as a link.
 */
export function SavedBoardsMenu() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const search = useSearch();
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const linked = new URLSearchParams(search).get('board');
  const boards = useQuery({ ...boardsQuery(), enabled: open || linked !== null });
  const session = useQuery({ ...sessionQueries.state(), enabled: open });
  const me = session.data?.user;
  /** The server's rule: your own boards, and an admin the shared ones. */
  const mayDelete = (b: SavedBoard) =>
    me !== null && me !== undefined && (b.owner === me.name || (me.role === 'admin' && b.shared));
  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) =>
      apiSend('DELETE', `/api/boards/${encodeURIComponent(id)}`, undefined, Deleted),
    onSuccess: () => {
      setConfirming(null);
      void client.invalidateQueries({ queryKey: boardsQuery().queryKey });
    },
  });
  /** Saving under a name of yours replaces that board: its sharing is kept unless changed. */
  const typeName = (value: string) => {
    setName(value);
    const same = boards.data?.boards.find((b) => b.owner === me?.name && b.name === value.trim());
    if (same) setShared(same.shared);
  };
  const save = useMutation({
    mutationFn: (input: { name: string; shared: boolean; search: string }) =>
      apiSend('PUT', '/api/boards', input, SavedBoard),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: boardsQuery().queryKey });
    },
  });

  // A link to a saved board: the board's own address replaces it once the boards are known.
  const target = linked === null ? undefined : boards.data?.boards.find((b) => b.id === linked);
  useEffect(() => {
    if (target) navigate(`/${target.search}`, { replace: true });
  }, [target, navigate]);

  useDismiss(open, setOpen, { box: wrapper });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && !save.isPending)
      save.mutate({ name: name.trim(), shared, search: boardSearch(search) });
  };
  const missing = linked !== null && boards.isSuccess && target === undefined;

  return (
    <div ref={wrapper} className="relative ml-auto">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        className="rounded border border-panel-line px-2 py-0.5 text-xs hover:bg-panel-sunk"
      >
        Boards
      </button>
      {missing && (
        <p
          role="alert"
          className="absolute right-0 z-[1100] mt-1 w-64 rounded border bg-panel p-2 text-xs shadow md:right-auto md:left-0"
        >
          That saved board is gone, or it is not shared with you.
        </p>
      )}
      {open && (
        <div
          id={menuId}
          className="absolute right-0 z-[1100] mt-1 w-64 space-y-2 md:right-auto md:left-0 md:w-72 rounded border border-panel-line bg-panel p-2 text-sm shadow-lg"
        >
          {boards.isError && <p className="text-xs text-red-800">{messageOf(boards.error)}</p>}
          {remove.error && (
            <p role="alert" className="text-xs text-red-800">
              {messageOf(remove.error)}
            </p>
          )}
          {boards.data && boards.data.boards.length === 0 && (
            <p className="text-xs text-ink-muted">No saved boards yet.</p>
          )}
          {boards.data && boards.data.boards.length > 0 && (
            <ul aria-label="Saved boards" className="max-h-60 overflow-auto">
              {boards.data.boards.map((b) => (
                <li key={b.id} className="flex flex-wrap items-baseline gap-x-2">
                  <Link
                    href={`/${b.search}`}
                    onClick={() => setOpen(false)}
                    className="truncate text-status-selected underline"
                  >
                    {b.name}
                  </Link>
                  <span className="shrink-0 text-xs text-ink-muted">
                    {b.shared ? `shared by ${b.owner}` : 'yours'}
                  </span>
                  {mayDelete(b) &&
                    (confirming === b.id ? (
                      <span className="ml-auto flex shrink-0 gap-1 text-xs">
                        <button
                          type="button"
                          disabled={remove.isPending}
                          onClick={() => remove.mutate(b.id)}
                          className="rounded bg-red-700 px-1.5 text-white disabled:opacity-60"
                        >
                          Delete “{b.name}”
                        </button>
                        <button type="button" onClick={() => setConfirming(null)} className="underline">
                          Keep
                        </button>
                      </span>
                    ) : (
                      <button
                        type="button"
                        aria-label={`Delete board ${b.name}`}
                        onClick={() => setConfirming(b.id)}
                        className="ml-auto shrink-0 text-xs text-ink-muted underline hover:text-red-800"
                      >
                        Delete
                      </button>
                    ))}
                </li>
              ))}
            </ul>
          )}
          <form onSubmit={submit} className="space-y-1 border-t border-panel-line pt-2">
            <label className="block text-xs font-medium">
              Save this board as
              <input
                value={name}
                onChange={(e) => typeName(e.target.value)}
                maxLength={80}
                className="mt-0.5 block w-full rounded border border-panel-line px-1.5 py-0.5"
              />
            </label>
            <label className="flex items-center gap-1 text-xs">
              <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
              Share with the team
            </label>
            <button
              type="submit"
              disabled={save.isPending || !name.trim()}
              className="rounded bg-status-selected px-2 py-0.5 text-xs font-medium text-white disabled:opacity-60"
            >
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
            {save.isSuccess && (
              <p role="status" className="text-xs">
                Saved “{save.data.name}”.
              </p>
            )}
            {save.error && (
              <p role="alert" className="text-xs text-red-800">
                {messageOf(save.error)}
              </p>
            )}
          </form>
        </div>
      )}
    </div>
  );
}
