import { config } from 'zod/mini';
import { en } from 'zod/locales';

/**
 * English messages for the `zod/mini` schemas (the ones the page imports). Classic zod installs
 * English on its first schema; mini installs no locale and says only "Invalid input". Every module
 * of mini schemas imports this one, so a message reads the same on the server, in tests and in the
 * page. A locale set explicitly elsewhere is kept.
 */
if (!config().localeError) config(en());
