// `npm run build:server`, the second half of `npm run build`: the server as plain JavaScript in
// dist/server/ (see server-build.ts). Runs after `vite build`, which empties dist/ first.
import { buildServer, MIGRATE_OUTFILE, SERVER_OUTFILE, USERS_OUTFILE } from './server-build';

await buildServer();
console.log(
  `Server built: ${SERVER_OUTFILE} (and the users and migrate commands, ${USERS_OUTFILE}, ${MIGRATE_OUTFILE})`,
);
