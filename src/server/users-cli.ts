// `npm run users -- …` (and `node dist/server/users.js …` after `npm run build`): manages the users
// in the store that DATABASE_URL or DATA_DIR names, as the server would open it (src/server/auth/users-cli.ts).
import { text } from 'node:stream/consumers';
import { usersCli } from './auth/users-cli';
import { parseEnv, readProcessEnv } from './config';
import { openAndMigrate } from './store/open-at-start';

process.exitCode = await usersCli(process.argv.slice(2), {
  readStdin: async () => (process.stdin.isTTY ? undefined : text(process.stdin)),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  openStore: async () => {
    const env = parseEnv(readProcessEnv());
    return (await openAndMigrate({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })).store;
  },
});
