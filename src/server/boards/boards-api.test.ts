import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { BoardsAnswer, SavedBoard } from '@/contract/boards-api';
import { loginAs } from '@/testing/login';
import { startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Store } from '../store/store';

describe.each(STORE_KINDS)('/api/boards, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let ana: string;
  let bo: string;
  let admin: string;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({ store });
    ana = (await loginAs(stack, store.db, 'dispatcher', 'Ana')).cookie;
    bo = (await loginAs(stack, store.db, 'broker', 'Bo')).cookie;
    admin = (await loginAs(stack, store.db, 'admin', 'Ada')).cookie;
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const send = (method: 'GET' | 'PUT' | 'DELETE', path: string, cookie: string, body?: unknown) =>
    fetch(`${stack.proxy.url}${path}`, {
      method,
      headers: { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const boardsOf = async (cookie: string) =>
    BoardsAnswer.parse(await (await send('GET', '/api/boards', cookie)).json()).boards.map(
      (b) => `${b.owner}/${b.name}${b.shared ? ' shared' : ''}`,
    );

  it('keeps each user’s boards; a shared one the team sees; the same name replaces', async () => {
    const west = SavedBoard.parse(
      await (
        await send('PUT', '/api/boards', ana, {
          name: ' West reefers ',
          shared: true,
          search: '?w=e:1,e:2&reefer=1',
        })
      ).json(),
    );
    expect(west).toMatchObject({
      name: 'West reefers',
      owner: 'Ana',
      shared: true,
      search: '?w=e:1,e:2&reefer=1',
    });
    await send('PUT', '/api/boards', ana, { name: 'Mine', shared: false, search: '?w=e:3' });
    await send('PUT', '/api/boards', bo, { name: 'Mine', shared: false, search: '?w=e:4' });
    expect(await boardsOf(ana)).toEqual(['Ana/Mine', 'Ana/West reefers shared']);
    expect(await boardsOf(bo)).toEqual(['Bo/Mine', 'Ana/West reefers shared']);
    const again = SavedBoard.parse(
      await (
        await send('PUT', '/api/boards', ana, { name: 'West reefers', shared: true, search: '?w=e:1' })
      ).json(),
    );
    expect(again.id).toBe(west.id);
    expect(again.search).toBe('?w=e:1');
    const audit = await store.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'subject'])
      .where('action', 'like', 'board.%')
      .execute();
    expect(audit).toContainEqual({ actor: 'Ana', action: 'board.save', subject: 'West reefers' });
  });

  it('lets the owner delete a board, an admin a shared one, nobody else', async () => {
    const boards = BoardsAnswer.parse(await (await send('GET', '/api/boards', ana)).json()).boards;
    const mine = boards.find((b) => b.name === 'Mine')!;
    const shared = boards.find((b) => b.shared)!;
    const refused = await send('DELETE', `/api/boards/${mine.id}`, bo);
    expect(refused.status).toBe(404);
    expect(ProxyErrorBody.parse(await refused.json()).error.code).toBe('board_not_found');
    expect((await send('DELETE', `/api/boards/${shared.id}`, bo)).status).toBe(404);
    expect((await send('DELETE', `/api/boards/${mine.id}`, admin)).status).toBe(404);
    expect((await send('DELETE', `/api/boards/${shared.id}`, admin)).status).toBe(204);
    expect((await send('DELETE', `/api/boards/${mine.id}`, ana)).status).toBe(204);
    expect(await boardsOf(ana)).toEqual([]);
  });

  it('refuses a malformed board with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ name: '', shared: false, search: '?w=e:1' }, 'name'],
      [{ name: 'x'.repeat(81), shared: false, search: '?w=e:1' }, 'name'],
      [{ name: 'a\u200bb', shared: false, search: '?w=e:1' }, 'name'],
      [{ name: 'ok', shared: 'yes', search: '?w=e:1' }, 'shared'],
      [{ name: 'ok', shared: false, search: 'https://evil.example/?w=1' }, 'search'],
      [{ name: 'ok', shared: false, search: '?w=1#x' }, 'search'],
      [{ name: 'ok', shared: false, search: `?w=${'1,'.repeat(9000)}` }, 'search'],
      [{ name: 'ok', shared: false, search: '?w=1', owner: 'Bo' }, 'owner'],
    ];
    for (const [body, field] of cases) {
      const response = await send('PUT', '/api/boards', ana, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify(await response.json()), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    expect((await send('DELETE', '/api/boards/not-a-number', ana)).status).toBe(400);
    expect((await send('PUT', '/api/boards', ana, '{"name":')).status).toBe(400);
  });
});
