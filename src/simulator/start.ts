import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSimulatorApp } from './app';
import { DEMO_JWT_SECRET } from './demo';
import { createFaultInjector, type FaultOptions } from './faults';
import { generateFleet, type LoadPlan } from './fleet';

export interface StartSimulatorOptions {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  seed: number;
  loads: number;
  speed: number;
  /** Load 0 gets this many pings (benchmarks); 0 or absent: off. */
  longTrackPings?: number;
  /** Every load on a long trip with this many pings so far, one a simulated minute (benchmarks). */
  tripPings?: number;
  partnerId: number;
  accountId: string;
  /** HS256 secret of webhook bearer tokens; the demo secret when absent. */
  jwtSecret?: string;
  /** Fault knobs of the pull operations (faults.ts); all off when absent. */
  faults?: FaultOptions;
  now?: () => number;
}

export interface RunningSimulator {
  /** Base URL of the upstream interface, e.g. http://127.0.0.1:8081 */
  url: string;
  fleet: LoadPlan[];
  /** Pull calls received so far, of either operation, faulted or not. */
  pulls: () => number;
  /** Replaces the fault settings (all off with `{}`) and restarts their random sequence. */
  setFaults: (faults: FaultOptions) => void;
  close: () => Promise<void>;
}

/** Starts the simulator on a loopback port and resolves once it listens. */
export function startSimulator(options: StartSimulatorOptions): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  const fleet = generateFleet({
    seed: options.seed,
    loads: options.loads,
    speed: options.speed,
    startedAt: now(),
    longTrackPings: options.longTrackPings,
    tripPings: options.tripPings,
  });
  // Validated before listening, so bad settings fail the start, not the first pull.
  const faults = createFaultInjector(options.seed, options.faults);
  return new Promise((resolve, reject) => {
    let publicUrl = '';
    let pulls = 0;
    const app = createSimulatorApp({
      fleet,
      partnerId: options.partnerId,
      accountId: options.accountId,
      jwtSecret: options.jwtSecret ?? DEMO_JWT_SECRET,
      faults,
      speed: options.speed,
      seed: options.seed,
      get publicUrl() {
        return publicUrl;
      },
      now,
      onPull: () => pulls++,
    });
    const server = serve({ fetch: app.fetch, port: options.port, hostname: host }, (info: AddressInfo) => {
      publicUrl = `http://${host}:${info.port}`;
      resolve({
        url: publicUrl,
        fleet,
        pulls: () => pulls,
        setFaults: (next) => faults.set(next),
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
