import { performance } from 'node:perf_hooks';
import { parsePullAnswer } from '@/contract/parse-pull';
import { normalizeLoad } from '@/domain/normalize';
import { generateFleet } from '@/simulator/fleet';
import type { Figure } from './figures';
import { median } from './peer-figures';
import { simulatedDetails } from '@/testing/simulated-answer';
import { StrictPullAnswer } from './peers/strict-zod';

/** A ~20 MB pull answer: 1,000 loads and about 50,000 pings, from the simulator's own generator. */
function answerText(): { text: string; pings: number } {
  const startedAt = Date.parse('2026-11-22T12:00:00Z');
  const fleet = generateFleet({ seed: 3, loads: 1000, speed: 60, startedAt });
  const now = startedAt + 60 * 60_000;
  const details = simulatedDetails(fleet, now, { speed: 60, seed: 3, lastPings: 50 });
  const pings = details.reduce((n, d) => n + d.locations.length, 0);
  return { text: JSON.stringify({ status: true, timeStamp: '11/22/2026 13:00:00 UTC', details }), pings };
}

export function benchContract(): Figure[] {
  const { text, pings } = answerText();
  const mb = Buffer.byteLength(text) / 1e6;
  const plain: number[] = [];
  const full: number[] = [];
  const strict: number[] = [];
  let strictRejected = 0;
  for (let round = 0; round < 7; round++) {
    // Side by side in the same round, so machine noise hits both alike.
    let t = performance.now();
    JSON.parse(text);
    plain.push(performance.now() - t);
    t = performance.now();
    const parsed = parsePullAnswer(JSON.parse(text));
    if ('error' in parsed) throw new Error(parsed.error);
    parsed.data.details.forEach((d, i) =>
      normalizeLoad(d, 'external-id', `details[${i}]`, parsed.data.detailIssues[i]),
    );
    full.push(performance.now() - t);
    t = performance.now();
    if (!StrictPullAnswer.safeParse(JSON.parse(text)).success) strictRejected++;
    strict.push(performance.now() - t);
  }
  const ratio = median(full) / median(plain);
  const toStrict = median(full) / median(strict);
  return [
    {
      figure: `contract: answer size (${pings} pings)`,
      value: Math.round(mb * 10) / 10,
      unit: 'MB',
      goal: '~20',
      pass: mb > 10,
    },
    {
      figure: 'contract: JSON.parse alone (median of 7)',
      value: Math.round(median(plain)),
      unit: 'ms',
      goal: '-',
      pass: true,
    },
    {
      figure: 'contract: JSON.parse + parse + normalize (median of 7)',
      value: Math.round(median(full)),
      unit: 'ms',
      goal: '-',
      pass: true,
      peers: [
        { name: 'JSON.parse alone', value: Math.round(median(plain)) },
        { name: 'JSON.parse + strict zod', value: Math.round(median(strict)) },
      ],
    },
    {
      figure: 'contract: parse + normalize / JSON.parse',
      value: Math.round(ratio * 100) / 100,
      unit: 'x',
      goal: '<= 2',
      pass: ratio <= 2,
    },
    {
      figure: 'contract: JSON.parse + a strict zod parse, the peer (median of 7)',
      value: Math.round(median(strict)),
      unit: 'ms',
      goal: '-',
      pass: true,
    },
    {
      figure: `contract: lenient parse + normalize / strict zod peer (peer rejected ${strictRejected} of 7)`,
      value: Math.round(toStrict * 100) / 100,
      unit: 'x',
      goal: '-',
      pass: true,
    },
    {
      figure: 'contract: throughput',
      value: Math.round((mb / median(full)) * 1000 * 10) / 10,
      unit: 'MB/s',
      goal: '-',
      pass: true,
    },
  ];
}
