// The proxy as a benchmark child starts it: as main.ts does, without the embedded simulator.
import { parseEnv } from '@/server/config';
import { toStdout } from '@/server/middleware/logging';
import { buildProxy, listen, PULLER_ROUND_MS } from '@/server/start';
import { startPuller } from '@/server/puller/puller';
import { openAndMigrate } from '@/server/store/open-at-start';
import { closers } from './child-runtime';
import type { ChildReady, ChildRole } from './processes';

export async function startProxyRole(role: Extract<ChildRole, { kind: 'proxy' }>): Promise<ChildReady> {
  const env = parseEnv({ TILE_URL: 'none', ...role.env });
  // With DATABASE_URL (and TRACKS=store), as main.ts starts an instance of several: the store, and
  // the puller on its lease.
  const store = env.DATABASE_URL
    ? (await openAndMigrate({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })).store
    : undefined;
  const app = buildProxy(
    env,
    { baseUrl: role.upstreamUrl, ...role.credentials, mode: 'remote', demo: null },
    // As main.ts does: one line per request on stdout (here /dev/null: the parent ignores it).
    { log: toStdout, store },
  );
  const puller =
    app.puller && startPuller(app.puller, { leaseSeconds: env.LEASE_SECONDS, roundMs: PULLER_ROUND_MS });
  closers.push(async () => {
    await puller?.stop();
    await store?.close();
  });
  const server = await listen(app, '127.0.0.1', 0);
  closers.push(server.close);
  return { urls: [server.url], ids: [] };
}
