import { fileURLToPath } from 'node:url';

/**
 * How to run the users command where this code runs: a release installed without its development
 * tools has only the built file (`npm run users` needs tsx and the sources); a checkout has both.
 */
export const USERS_COMMAND = /[\\/]dist[\\/]server[\\/]/.test(fileURLToPath(import.meta.url))
  ? 'node dist/server/users.js'
  : 'npm run users --';
