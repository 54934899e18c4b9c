import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import * as z from 'zod/mini';
import { SaveBoardRequest, type BoardsAnswer } from '@/contract/boards-api';
import type { AppEnv } from '../app-env';
import { deleteBoard, listBoards, saveBoard } from '../boards/boards';
import { ProxyError, requireStore, storeUnavailable } from '../errors';
import type { Database } from '../store/database';
import { validate } from '../validation';

const unavailable = storeUnavailable('saved boards cannot be read or saved now');

/** `/api/boards`: every role saves its boards, shares them with the team, and opens the shared ones. */
export function boardRoutes(db: Kysely<Database> | undefined) {
  const store = () => requireStore(db);
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const boards = await listBoards(store(), c.get('user').name).catch(unavailable);
      return c.json({ boards } satisfies BoardsAnswer);
    })
    .put('/', validate('json', SaveBoardRequest), async (c) => {
      const board = await saveBoard(store(), c.req.valid('json'), c.get('user').name).catch(unavailable);
      return c.json(board);
    })
    .delete(
      '/:id',
      validate('param', z.object({ id: z.string().check(z.regex(/^\d{1,18}$/, 'a board id is a number')) })),
      async (c) => {
        const deleted = await deleteBoard(store(), c.req.valid('param').id, c.get('user')).catch(unavailable);
        if (!deleted) throw new ProxyError(404, 'board_not_found', 'no such board of yours');
        return c.body(null, 204);
      },
    );
}
