import { describe, expect, it } from 'vitest';
import { frameWork, movedAnswer, peerFigure, percentile, ratioOf, type TraceEvent } from './peer-figures';

const load = (id: string, lat?: number) => ({
  id,
  by: 'external-id',
  ...(lat === undefined
    ? {}
    : {
        latestLocation: {
          lat,
          lon: -90,
          accuracy: 20,
          key: `k${id}`,
          instant: 1,
          time: { instant: 1, zone: 'CST' },
        },
      }),
});

describe('movedAnswer', () => {
  const first = JSON.stringify({
    version: 2,
    cursor: '41',
    loads: [load('a', 40), load('b'), load('c', 41), load('d', 42), load('e', 43), load('f', 44)],
    missing: [],
  });

  it('moves a share of the loads with a position, and sends only those, as a newer fix', () => {
    const answer = JSON.parse(movedAnswer(first, 3, 5_000, 0.5)) as {
      cursor: string;
      version: number;
      loads: ReturnType<typeof load>[];
    };
    expect(answer.version).toBe(2);
    expect(answer.cursor).not.toBe('41');
    expect(answer.loads.map((l) => l.id)).toEqual(['a', 'c', 'e']);
    const a = answer.loads[0]?.latestLocation;
    expect(a).toEqual({
      lat: 40.006,
      lon: -89.994,
      accuracy: 20,
      key: '5000|40.006|-89.994',
      instant: 5000,
      time: { instant: 5000, zone: 'CST' },
    });
  });

  it('moves the same loads further at each refresh, from where the first answer had them', () => {
    const lat = (k: number) =>
      (JSON.parse(movedAnswer(first, k, 1, 0.5)) as { loads: ReturnType<typeof load>[] }).loads[1]
        ?.latestLocation?.lat;
    expect([lat(1), lat(2)]).toEqual([41.002, 41.004]);
  });

  it('sends no load when none has a position', () => {
    const none = JSON.stringify({ cursor: '1', loads: [load('x'), load('y')] });
    expect(JSON.parse(movedAnswer(none, 1, 1)).loads).toEqual([]);
  });

  it('refuses an answer that is not JSON', () => {
    expect(() => movedAnswer('{"loads": [', 1, 1)).toThrow();
  });
});

describe('frameWork', () => {
  const thread = (pid: number, tid: number, name: string): TraceEvent => ({
    name: 'thread_name',
    ph: 'M',
    pid,
    tid,
    ts: 0,
    args: { name },
  });
  const begin = (pid: number, ts: number): TraceEvent => ({
    name: 'BeginMainThreadFrame',
    ph: 'I',
    pid,
    tid: 1,
    ts,
  });
  const task = (pid: number, ts: number, dur: number, cat = 'toplevel'): TraceEvent => ({
    name: 'ThreadControllerImpl::RunTask',
    cat,
    ph: 'X',
    pid,
    tid: 1,
    ts,
    dur,
  });

  it("sums the page's top-level tasks between one frame's start and the next, in ms", () => {
    const events = [
      thread(7, 1, 'CrRendererMain'),
      thread(9, 1, 'CrRendererMain'),
      begin(9, 0),
      begin(9, 50_000),
      // The page with more frames is the one measured.
      begin(7, 0),
      begin(7, 16_000),
      begin(7, 32_000),
      begin(7, 100_000),
      task(7, 1_000, 4_000),
      // Nested in the task before: counted once.
      task(7, 2_000, 1_000),
      // Across a frame's start: each frame gets its part.
      task(7, 14_000, 6_000),
      // Not a top-level task.
      task(7, 40_000, 9_000, 'devtools.timeline'),
      task(7, 50_000, 30_000),
      task(9, 1_000, 40_000),
    ];
    expect(frameWork(events)).toEqual([6, 4, 30]);
  });

  it('gives no frames for a trace without two frame starts or without a renderer', () => {
    expect(frameWork([thread(7, 1, 'CrRendererMain'), begin(7, 0), task(7, 0, 5)])).toEqual([]);
    expect(frameWork([thread(7, 1, 'CrBrowserMain'), begin(7, 0), begin(7, 10)])).toEqual([]);
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([percentile(values, 95), percentile(values, 99), percentile([3], 50)]).toEqual([95, 99, 3]);
    expect(percentile([], 95)).toBeNaN();
  });
});

describe('peerFigure', () => {
  const peers = [
    { name: 'markercluster', value: 900 },
    { name: 'react-leaflet', value: 3000 },
  ];

  it('passes when within the absolute goal and every ratio, and keeps the peers beside', () => {
    const f = peerFigure('draw', 'ms', 280.04, peers, {
      max: 500,
      ratio: { markercluster: 1 / 3, 'react-leaflet': 1 / 10 },
    });
    expect(f).toEqual({
      figure: 'draw',
      value: 280,
      unit: 'ms',
      goal: '<= 500, <= 1/3x markercluster, <= 1/10x react-leaflet',
      pass: true,
      peers,
    });
  });

  it('fails on one ratio missed though the absolute goal holds', () => {
    expect(peerFigure('draw', 'ms', 310, peers, { max: 500, ratio: { markercluster: 1 / 3 } }).pass).toBe(
      false,
    );
  });

  it('fails a ratio whose peer has no figure, and a value that is not a number', () => {
    expect(
      peerFigure('x', 'ms', 1, [{ name: 'markercluster', value: NaN }], { ratio: { markercluster: 2 } }).pass,
    ).toBe(false);
    expect(peerFigure('x', 'ms', 1, [], { ratio: { 'react-leaflet': 2 } }).pass).toBe(false);
    expect(peerFigure('x', 'ms', NaN, peers, { max: 10 }).pass).toBe(false);
  });

  it('allows the slack on the absolute goal only', () => {
    expect(peerFigure('f', 'ms', 17.1, peers, { max: 16.7, slack: 0.5 }).pass).toBe(true);
    expect(peerFigure('f', 'ms', 17.3, peers, { max: 16.7, slack: 0.5 }).pass).toBe(false);
  });

  it('has no goal when none is given, and says the ratio', () => {
    const f = peerFigure('heap', 'MB', 30, peers);
    expect([f.goal, f.pass]).toEqual(['-', true]);
    expect([ratioOf(30, 90), ratioOf(30, 0), ratioOf(NaN, 3)]).toEqual([0.33, NaN, NaN]);
  });
});
