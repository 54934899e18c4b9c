import { DataDirInUseError } from './data-dir-lock';
import { MigrationError, migrateToLatest } from './migrate';
import { openStore, StoreUnavailableError, type Store, type StoreOptions } from './store';

/** Why the store cannot be had at start, in one line an operator can act on. */
export class StoreStartError extends Error {}

/**
 * Opens the store and brings its schema up to date, as start-up and `npm run db:migrate` do.
 * What an operator can fix (a server that does not answer, a DATA_DIR another process holds, a
 * failed migration) becomes a StoreStartError with one line; anything else keeps its stack trace.
 */
export async function openAndMigrate(options: StoreOptions): Promise<{ store: Store; applied: string[] }> {
  let store: Store;
  try {
    store = await openStore(options);
  } catch (error) {
    if (error instanceof StoreUnavailableError || error instanceof DataDirInUseError)
      throw new StoreStartError(error.message, { cause: error });
    throw error;
  }
  try {
    return { store, applied: await migrateToLatest(store.db) };
  } catch (error) {
    await store.close().catch(() => {});
    if (error instanceof MigrationError)
      throw new StoreStartError(`${store.where}: ${error.message.replace(/\s+/g, ' ')}`, { cause: error });
    throw error;
  }
}
