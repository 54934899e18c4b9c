// Entry of a benchmark child process (started by bench/processes.ts): either simulators or the proxy,
// each in a process of their own, as in production where the upstream is another service and the
// browsers are other machines. The parent learns the URLs over IPC and can ask for the memory figures.
import { startSimulator } from '@/simulator/start';
import { advancedMs, closers, runChild } from './child-runtime';
import type { ChildReady, ChildRole } from './processes';
import { startProxyRole } from './proxy-role';

const role = JSON.parse(process.argv[2] ?? '{}') as ChildRole;

async function start(): Promise<ChildReady> {
  if (role.kind === 'proxy') return startProxyRole(role);
  const urls: string[] = [];
  let ids: string[] = [];
  // Identical twins (same seed, fleet and clock) with cursors of their own.
  for (let i = 0; i < role.count; i++) {
    const sim = await startSimulator({
      port: 0,
      seed: role.seed,
      loads: role.loads,
      speed: 60,
      tripPings: role.tripPings,
      ...role.credentials,
      ...(role.frozenAt === undefined ? {} : { now: () => (role.frozenAt as number) + advancedMs() }),
    });
    closers.push(sim.close);
    urls.push(sim.url);
    ids = sim.fleet.map((p) => String(p.externalId));
  }
  return { urls, ids };
}

runChild(start);
