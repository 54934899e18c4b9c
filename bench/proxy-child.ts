// Entry of the proxy's benchmark child as production runs it: bundled by bench/bundle-child.ts the
// way `npm run build` bundles the server, run by plain `node` (no TypeScript loader, no simulator).
import { runChild } from './child-runtime';
import type { ChildRole } from './processes';
import { startProxyRole } from './proxy-role';

const role = JSON.parse(process.argv[2] ?? '{}') as ChildRole;
runChild(() => {
  if (role.kind !== 'proxy') throw new Error(`proxy-child.ts runs the proxy, not ${role.kind}`);
  return startProxyRole(role);
});
