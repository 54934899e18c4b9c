import { performance } from 'node:perf_hooks';
import { DEMO_ACCOUNT_ID, DEMO_PARTNER_ID } from '@/simulator/demo';
import { generateFleet } from '@/simulator/fleet';
import { startSimulator } from '@/simulator/start';
import type { Figure } from './figures';

const LOADS = 10_000;
const IDS = 500;
const ROUNDS = 7;
const SEED = 20261122;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/**
 * The simulator at 10,000 loads: how long fleet generation takes, and what a full pull of 500 ids
 * (`sendNewData: no`, every include flag on) costs over real HTTP on loopback, request to last byte.
 */
export async function benchSimulator(): Promise<Figure[]> {
  const startedAt = Date.now();
  const generation: number[] = [];
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    generateFleet({ seed: SEED, loads: LOADS, speed: 60, startedAt });
    generation.push(performance.now() - t);
  }

  const credentials = { partnerId: DEMO_PARTNER_ID, accountId: DEMO_ACCOUNT_ID };
  const sim = await startSimulator({ port: 0, seed: SEED, loads: LOADS, speed: 60, ...credentials });
  const latency: number[] = [];
  let bytes = 0;
  try {
    const body = JSON.stringify({
      ...credentials,
      loadTrackExternalIds: sim.fleet.slice(0, IDS).map((p) => String(p.externalId)),
      sendNewData: 'no',
      includeLocations: true,
      includeEvents: true,
      includeDocuments: true,
      includeComments: true,
    });
    for (let round = 0; round < ROUNDS; round++) {
      const t = performance.now();
      const response = await fetch(`${sim.url}/loadtrackservice/getLoadTrackDetailsServiceV2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      const answer = await response.arrayBuffer();
      latency.push(performance.now() - t);
      if (response.status !== 200) throw new Error(`simulator answered ${response.status}`);
      bytes = answer.byteLength;
    }
  } finally {
    await sim.close();
  }

  return [
    {
      figure: `simulator: fleet generation, ${LOADS.toLocaleString('en-US')} loads (median of 3)`,
      value: Math.round(median(generation)),
      unit: 'ms',
      goal: '-',
      pass: true,
    },
    {
      figure: `simulator: pull of ${IDS} ids, all items, over HTTP (median of ${ROUNDS})`,
      value: Math.round(median(latency)),
      unit: 'ms',
      goal: '-',
      pass: true,
    },
    {
      figure: `simulator: answer size of that pull`,
      value: Math.round((bytes / 1e6) * 10) / 10,
      unit: 'MB',
      goal: '-',
      pass: true,
    },
  ];
}
