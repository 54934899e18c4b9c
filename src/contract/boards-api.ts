import * as z from 'zod/mini';
import './zod-locale';

/** `/api/boards`: saved boards, own and shared. */

/**
 * A saved board: a name for a watch list with its filter and sort, kept as the address query the
 * dispatcher page writes (`?w=…&status=…`), its owner's or shared with the team.
 */
export const SavedBoard = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  shared: z.boolean(),
  search: z.string(),
  /** ISO 8601. */
  updatedAt: z.string(),
});
export type SavedBoard = z.infer<typeof SavedBoard>;

export const BoardsAnswer = z.object({ boards: z.array(SavedBoard) });
export type BoardsAnswer = z.infer<typeof BoardsAnswer>;

/** The most an address query of a saved board may hold (a watch list of MAX_IDS ids fits). */
export const BOARD_SEARCH_MAX_LENGTH = 16_000;

/** `PUT /api/boards`: save the board under a name (the same name replaces it). */
export const SaveBoardRequest = z.strictObject({
  name: z.string().check(
    z.trim(),
    z.minLength(1, 'a board needs a name'),
    z.maxLength(80, 'a name is at most 80 characters'),
    z.refine((n) => !/[\p{Cc}\p{Cf}]/u.test(n), 'a name has no control or invisible characters'),
  ),
  shared: z.boolean(),
  search: z.string().check(
    z.maxLength(
      BOARD_SEARCH_MAX_LENGTH,
      `the board's address is at most ${BOARD_SEARCH_MAX_LENGTH} characters`,
    ),
    // Only a query of this page's own address: never another page or site.
    z.regex(/^(\?[^#\s]*)?$/, 'the board is an address query starting with "?"'),
  ),
});
export type SaveBoardRequest = z.infer<typeof SaveBoardRequest>;
