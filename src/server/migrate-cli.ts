// `npm run db:migrate` (`node dist/server/migrate.js`, built by `npm run build`): brings the store's
// schema up to date, as start-up does (DATABASE_URL, or the embedded store in DATA_DIR, which must
// not be in use by a running dashboard). Built, so a production install without tsx can run it.
import { ConfigError, parseEnv, readProcessEnv } from './config';
import { openAndMigrate, StoreStartError } from './store/open-at-start';

try {
  const env = parseEnv(readProcessEnv());
  const { store, applied } = await openAndMigrate({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await store.close();
  console.log(
    applied.length === 0
      ? `${store.where}: schema up to date`
      : `${store.where}: applied ${applied.join(', ')}`,
  );
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof StoreStartError)) throw error;
  console.error(error.message);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
