import { sql, type Kysely, type Selectable } from 'kysely';
import type { SavedBoard, SaveBoardRequest } from '@/contract/boards-api';
import { recordAudit } from '../store/audit';
import type { Database, SavedBoardsTable } from '../store/database';

const toBoard = (row: Selectable<SavedBoardsTable>): SavedBoard => ({
  id: row.id,
  name: row.name,
  owner: row.owner,
  shared: row.shared,
  search: row.search,
  updatedAt: row.updated_at.toISOString(),
});

/** The boards a user may open: their own, and those others shared; by name. */
export async function listBoards(db: Kysely<Database>, user: string): Promise<SavedBoard[]> {
  const rows = await db
    .selectFrom('saved_boards')
    .selectAll()
    .where((eb) => eb.or([eb('owner', '=', user), eb('shared', '=', true)]))
    .orderBy('name')
    .orderBy('owner')
    .execute();
  return rows.map(toBoard);
}

/** Saves a board under its name for its owner: a name they already used is replaced. Audited. */
export async function saveBoard(
  db: Kysely<Database>,
  input: SaveBoardRequest,
  owner: string,
): Promise<SavedBoard> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('saved_boards')
      .values({ name: input.name, owner, shared: input.shared, search: input.search })
      .onConflict((c) =>
        c.constraint('saved_boards_owner_name').doUpdateSet({
          shared: input.shared,
          search: input.search,
          updated_at: sql<Date>`now()`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor: owner,
      action: 'board.save',
      subject: input.name,
      details: { id: row.id, shared: input.shared },
    });
    return toBoard(row);
  });
}

/**
 * Deletes a board: its owner may, and an admin. Answers false when there is no such board for this
 * user (a board of someone else's that is not shared is not told apart from none).
 */
export async function deleteBoard(
  db: Kysely<Database>,
  id: string,
  user: { name: string; role: string },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('saved_boards')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (row === undefined || (row.owner !== user.name && !(user.role === 'admin' && row.shared)))
      return false;
    await trx.deleteFrom('saved_boards').where('id', '=', id).execute();
    await recordAudit(trx, {
      actor: user.name,
      action: 'board.delete',
      subject: row.name,
      details: { id, owner: row.owner },
    });
    return true;
  });
}
