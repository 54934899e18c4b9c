import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSimulatorApp } from './app';
import { generateFleet, type LoadPlan } from './fleet';

export interface StartSimulatorOptions {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  seed: number;
  loads: number;
  speed: number;
  partnerId: number;
  accountId: string;
  now?: () => number;
}

export interface RunningSimulator {
  /** Base URL of the upstream interface, e.g. http://127.0.0.1:8081 */
  url: string;
  fleet: LoadPlan[];
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
  });
  return new Promise((resolve, reject) => {
    let publicUrl = '';
    const app = createSimulatorApp({
      fleet,
      partnerId: options.partnerId,
      accountId: options.accountId,
      speed: options.speed,
      seed: options.seed,
      get publicUrl() {
        return publicUrl;
      },
      now,
    });
    const server = serve({ fetch: app.fetch, port: options.port, hostname: host }, (info: AddressInfo) => {
      publicUrl = `http://${host}:${info.port}`;
      resolve({
        url: publicUrl,
        fleet,
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
