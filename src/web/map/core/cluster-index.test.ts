import fc from 'fast-check';
import Supercluster from 'supercluster';
import { describe, expect, it } from 'vitest';
import { CLUSTER_STRIDE, clusterEngine, type ClusterAnswer } from './cluster-engine';
import { clusterIndex, type ClusterWorkerLike } from './cluster-index';
import type { ClusterReply, ClusterRequest } from './cluster-protocol';

const OPTIONS = { radius: 50, maxZoom: 6 };
const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

/** Three loads around Omaha and one in Denver: at zoom 4 one cluster of three and one load alone. */
const COORDS = Float64Array.from([-95.93, 41.25, -95.9, 41.27, -95.95, 41.22, -104.99, 39.74]);

/** A stand-in worker that runs the engine, as the real one does, answering later (a macrotask). */
function standIn() {
  const engine = { current: clusterEngine(OPTIONS) };
  const sent: ClusterRequest[] = [];
  const worker: ClusterWorkerLike & { fail(): void; terminated: boolean } = {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    terminated: false,
    postMessage(m) {
      sent.push(m);
      if (m.kind === 'options') engine.current = clusterEngine(m.options);
      else if (m.kind === 'load') engine.current.load(m.coords.slice(), m.late.slice());
      else if (m.kind === 'move') engine.current.move(m.places.slice(), m.coords.slice(), m.late.slice());
      else {
        const reply: ClusterReply =
          m.kind === 'query'
            ? { kind: 'query', id: m.id, ...engine.current.query(m.bbox, m.zoom, m.exclude) }
            : { kind: 'expansion', id: m.id, zoom: engine.current.expansionZoom(m.cluster) };
        setTimeout(() => this.onmessage?.({ data: reply } as MessageEvent<ClusterReply>), 0);
      }
    },
    terminate() {
      this.terminated = true;
    },
    fail() {
      this.onerror?.(new Event('error'));
    },
  };
  return { worker, sent };
}

const shape = (a: ClusterAnswer) => ({ clusters: [...a.clusters], points: [...a.points] });

describe('clusterEngine', () => {
  it('clusters nearby points with their count and tells lone points by their place in the list', () => {
    const engine = clusterEngine(OPTIONS);
    engine.load(COORDS);
    const answer = engine.query(WORLD, 4);
    expect(answer.clusters.length).toBe(CLUSTER_STRIDE);
    expect(answer.clusters[2]).toBe(3);
    // None of them late: none told.
    expect(answer.clusters[4]).toBe(0);
    // The cluster sits at the mean of its loads.
    expect(answer.clusters[0]).toBeCloseTo(-95.927, 2);
    expect([...answer.points]).toEqual([3]);
    // Zoomed in past the clusters, every load is alone.
    expect([...engine.query(WORLD, 7).points].sort()).toEqual([0, 1, 2, 3]);
    expect(engine.expansionZoom(answer.clusters[3] as number)).toBeGreaterThan(4);
  });

  it('counts the late points of each cluster, and a move that turns one late or back counts again', () => {
    const engine = clusterEngine(OPTIONS);
    // Omaha's second and third loads are late; Denver's (alone) too.
    engine.load(COORDS.slice(), Uint8Array.of(0, 1, 1, 1));
    const answer = engine.query(WORLD, 4);
    expect([answer.clusters[2], answer.clusters[4]]).toEqual([3, 2]);
    // Omaha's first load turns late, its second reports again; Denver's joins Omaha's, still late.
    engine.move(
      Uint32Array.of(0, 1, 3),
      Float64Array.of(-95.93, 41.25, -95.9, 41.27, -95.91, 41.26),
      Uint8Array.of(1, 0, 1),
    );
    const after = engine.query(WORLD, 4);
    expect([after.clusters.length, after.clusters[2], after.clusters[4]]).toEqual([CLUSTER_STRIDE, 4, 3]);
    // A move that does not say leaves the flags as they were.
    engine.move(Uint32Array.of(3), Float64Array.of(-95.92, 41.26));
    expect(engine.query(WORLD, 4).clusters[4]).toBe(3);
  });

  it('joins points up to `radius` of the map’s pixels apart (Leaflet’s 256-px tiles), and no farther', () => {
    // At zoom 3 the world is 256 * 8 = 2,048 px wide: a degree of longitude on the equator is 5.69 px.
    const pxToLon = (px: number) => (px * 360) / 2048;
    const engine = clusterEngine(OPTIONS);
    const pairAt = (px: number) => {
      engine.load(Float64Array.from([0, 0, pxToLon(px), 0]));
      return engine.query(WORLD, 3);
    };
    // 40 px apart: within the 50-px radius, one badge (supercluster's own unit, 512-px tiles, made
    // this 25 px, and two badges 30 px across covered each other's counts).
    const near = pairAt(40);
    expect([near.clusters.length / CLUSTER_STRIDE, near.points.length]).toEqual([1, 0]);
    expect(near.clusters[2]).toBe(2);
    const far = pairAt(60);
    expect([far.clusters.length / CLUSTER_STRIDE, far.points.length]).toEqual([0, 2]);
  });

  it('answers as a fresh index after moves and new lists of the same or another length (its points are reused)', () => {
    const engine = clusterEngine(OPTIONS);
    const fresh = (coords: Float64Array) => {
      const other = clusterEngine(OPTIONS);
      other.load(coords.slice());
      return shape(other.query(WORLD, 4));
    };
    engine.load(COORDS.slice());
    engine.move(Uint32Array.of(3), Float64Array.of(-95.91, 41.26));
    const moved = COORDS.slice();
    moved.set([-95.91, 41.26], 6);
    expect(shape(engine.query(WORLD, 4))).toEqual(fresh(moved));
    // A new list of the same length: every point takes its new place, none keeps a moved one.
    const apart = Float64Array.from([-122.42, 37.77, -87.63, 41.88, -80.19, 25.76, -104.99, 39.74]);
    engine.load(apart.slice());
    expect(shape(engine.query(WORLD, 4))).toEqual(fresh(apart));
    expect([...engine.query(WORLD, 4).points].sort()).toEqual([0, 1, 2, 3]);
    // A shorter list, then a move past its end: left out.
    engine.load(COORDS.slice(0, 4));
    engine.move(Uint32Array.of(3), Float64Array.of(0, 0));
    expect(shape(engine.query(WORLD, 4))).toEqual(fresh(COORDS.slice(0, 4)));
  });
});

describe('clusterEngine, one point left out of the clusters (the selected load)', () => {
  /** The clusters of an answer as [count, late] pairs, and its lone points, sorted. */
  const counts = (a: ClusterAnswer) => {
    const out: [number, number][] = [];
    for (let k = 0; k < a.clusters.length; k += CLUSTER_STRIDE)
      out.push([a.clusters[k + 2] as number, a.clusters[k + 4] as number]);
    return { clusters: out, points: [...a.points].sort() };
  };

  it('counts the others on the badge, shows the point alone, and centres the badge on the others', () => {
    const engine = clusterEngine(OPTIONS);
    // Omaha's second load is late.
    engine.load(COORDS.slice(), Uint8Array.of(0, 1, 0, 0));
    expect(counts(engine.query(WORLD, 4))).toEqual({ clusters: [[3, 1]], points: [3] });
    // Omaha's late load left out: a badge of the two others, none of them late; it is alone.
    const out = engine.query(WORLD, 4, 1);
    expect(counts(out)).toEqual({ clusters: [[2, 0]], points: [1, 3] });
    expect(out.clusters[0]).toBeCloseTo((-95.93 - 95.95) / 2, 6);
    expect(out.clusters[1]).toBeCloseTo((41.25 + 41.22) / 2, 3);
    // The badge is still the cluster's (a click zooms to where it falls apart).
    expect(out.clusters[3]).toBe(engine.query(WORLD, 4).clusters[3]);
    // A load alone anyway (Denver's) changes nothing but being named.
    expect(counts(engine.query(WORLD, 4, 3))).toEqual({ clusters: [[3, 1]], points: [3] });
    // Out of the box, it is not among the lone points.
    expect(counts(engine.query([-100, 30, -90, 45], 4, 3))).toEqual({ clusters: [[3, 1]], points: [] });
  });

  it('leaves the other point of a cluster of two alone, and asks nothing of the index at fleet zoom', () => {
    const engine = clusterEngine(OPTIONS);
    engine.load(COORDS.slice(2));
    expect(counts(engine.query(WORLD, 4))).toEqual({ clusters: [[2, 0]], points: [2] });
    expect(counts(engine.query(WORLD, 4, 0))).toEqual({ clusters: [], points: [0, 1, 2] });
    // Past the clustered zooms, every point is alone with or without it.
    expect(counts(engine.query(WORLD, 7, 0))).toEqual({ clusters: [], points: [0, 1, 2] });
  });

  it('follows the index as it changes: a refresh that moved the point, another list', () => {
    const engine = clusterEngine(OPTIONS);
    engine.load(COORDS.slice());
    expect(counts(engine.query(WORLD, 4, 3))).toEqual({ clusters: [[3, 0]], points: [3] });
    // Denver's load drives to Omaha: its cluster is the others' now.
    engine.move(Uint32Array.of(3), Float64Array.of(-95.92, 41.24));
    expect(counts(engine.query(WORLD, 4, 3))).toEqual({ clusters: [[3, 0]], points: [3] });
    expect(counts(engine.query(WORLD, 4, 0))).toEqual({ clusters: [[3, 0]], points: [0] });
    engine.load(COORDS.slice(0, 4));
    expect(counts(engine.query(WORLD, 4, 1))).toEqual({ clusters: [], points: [0, 1] });
  });

  it('takes the point out of the very cluster that holds it, at every zoom, as asking it for its points would', () => {
    // Fleets around a few towns, a point of them left out, asked at every zoom the map clusters at.
    const fleet = fc
      .array(
        fc.record({
          lon: fc.double({ min: -125, max: -70, noNaN: true }),
          lat: fc.double({ min: 25, max: 50, noNaN: true }),
          spread: fc.constantFrom(0.01, 0.3, 3),
          n: fc.integer({ min: 1, max: 40 }),
        }),
        { minLength: 1, maxLength: 8 },
      )
      .chain((towns) =>
        fc.tuple(
          fc.tuple(
            ...towns.map((t) =>
              fc
                .array(
                  fc.tuple(
                    fc.double({ min: -t.spread, max: t.spread, noNaN: true }),
                    fc.double({ min: -t.spread, max: t.spread, noNaN: true }),
                    fc.boolean(),
                  ),
                  { minLength: t.n, maxLength: t.n },
                )
                .map((pts) => pts.map(([dx, dy, late]) => [t.lon + dx, t.lat + dy, late] as const)),
            ),
          ),
          fc.nat(),
        ),
      );
    fc.assert(
      fc.property(fleet, ([towns, pick]) => {
        const all = towns.flat();
        const coords = Float64Array.from(all.flatMap(([lon, lat]) => [lon, lat]));
        const late = Uint8Array.from(all, ([, , l]) => (l ? 1 : 0));
        const left = pick % all.length;
        const engine = clusterEngine(OPTIONS);
        engine.load(coords.slice(), late.slice());
        // The index as supercluster builds it, asked the slow way: each cluster for all its points.
        const reference = new Supercluster<{ i: number }>({ ...OPTIONS, extent: 256 }).load(
          all.map(([lon, lat], i) => ({
            type: 'Feature',
            properties: { i },
            geometry: { type: 'Point', coordinates: [lon, lat] },
          })),
        );
        for (let zoom = 0; zoom <= OPTIONS.maxZoom; zoom++) {
          const whole = engine.query(WORLD, zoom);
          const out = engine.query(WORLD, zoom, left);
          const byId = new Map<number, [number, number]>();
          for (let k = 0; k < whole.clusters.length; k += CLUSTER_STRIDE)
            byId.set(whole.clusters[k + 3] as number, [
              whole.clusters[k + 2] as number,
              whole.clusters[k + 4] as number,
            ]);
          const holder = [...byId.keys()].find((id) =>
            reference.getLeaves(id, Infinity).some((leaf) => leaf.properties.i === left),
          );
          let total = out.points.length;
          for (let k = 0; k < out.clusters.length; k += CLUSTER_STRIDE) {
            const id = out.clusters[k + 3] as number;
            const [count, lateCount] = byId.get(id) ?? [Number.NaN, 0];
            const less = id === holder ? 1 : 0;
            expect([out.clusters[k + 2], out.clusters[k + 4]]).toEqual([
              count - less,
              lateCount - less * (late[left] ?? 0),
            ]);
            expect(out.clusters[k + 2]).toBeGreaterThanOrEqual(2);
            total += out.clusters[k + 2] as number;
          }
          expect(total).toBe(all.length);
          expect([...out.points]).toContain(left);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('clusterIndex', () => {
  it('without workers, answers at once on the page’s thread', () => {
    const index = clusterIndex(OPTIONS, () => null);
    index.load(COORDS);
    const answer = index.query(WORLD, 4);
    expect(answer).not.toBeInstanceOf(Promise);
    expect([...(answer as ClusterAnswer).points]).toEqual([3]);
    expect(index.where()).toBe('page');
  });

  it('with a worker, answers what the page’s thread would, from the points loaded last', async () => {
    const { worker, sent } = standIn();
    const index = clusterIndex(OPTIONS, () => worker);
    const here = clusterEngine(OPTIONS);
    index.load(COORDS);
    here.load(COORDS);
    expect(index.where()).toBe('worker');
    expect(shape(await index.query(WORLD, 4))).toEqual(shape(here.query(WORLD, 4)));
    // The selected load (Omaha's second) is left out in the worker as here: a badge of two.
    const without = await index.query(WORLD, 4, 1);
    expect(shape(without)).toEqual(shape(here.query(WORLD, 4, 1)));
    expect(without.clusters[2]).toBe(2);
    // A refresh moves Denver's load next to Omaha's: the next answer is one cluster of four.
    const moved = COORDS.slice();
    moved[6] = -95.91;
    moved[7] = 41.26;
    index.load(moved);
    const after = await index.query(WORLD, 4);
    expect(after.clusters[2]).toBe(4);
    expect([...after.points]).toEqual([]);
    expect(await index.expansionZoom(after.clusters[3] as number)).toBeGreaterThan(4);
    expect(sent.map((m) => m.kind)).toEqual([
      'options',
      'load',
      'query',
      'query',
      'load',
      'query',
      'expansion',
    ]);
    index.dispose();
    expect(worker.terminated).toBe(true);
  });

  it('after a refresh moved some points, answers as an index of the whole moved list, sending only those', async () => {
    const { worker, sent } = standIn();
    const index = clusterIndex(OPTIONS, () => worker);
    const given = COORDS.slice();
    index.load(given);
    // Denver's load (place 3) moves next to Omaha's: one cluster of four.
    index.move(Uint32Array.of(3), Float64Array.of(-95.91, 41.26));
    const moved = COORDS.slice();
    moved.set([-95.91, 41.26], 6);
    const whole = clusterEngine(OPTIONS);
    whole.load(moved);
    expect(shape(await index.query(WORLD, 4))).toEqual(shape(whole.query(WORLD, 4)));
    expect((await index.query(WORLD, 4)).clusters[2]).toBe(4);
    const move = sent.find((m) => m.kind === 'move');
    // Its late flag unchanged (not told): the one the index holds for that place.
    expect(move).toEqual({
      kind: 'move',
      places: Uint32Array.of(3),
      coords: Float64Array.of(-95.91, 41.26),
      late: Uint8Array.of(0),
    });
    // The list the page gave is its own: the index moved its copy, not it.
    expect([...given]).toEqual([...COORDS]);
    // Moves add up: a second one moves Omaha's first load far away, and the first move stands.
    index.move(Uint32Array.of(0), Float64Array.of(-80.19, 25.76));
    moved.set([-80.19, 25.76], 0);
    whole.load(moved);
    expect(shape(await index.query(WORLD, 4))).toEqual(shape(whole.query(WORLD, 4)));
  });

  it('without workers, a move answers as the whole moved list would, at once', () => {
    const index = clusterIndex(OPTIONS, () => null);
    index.load(COORDS);
    index.move(Uint32Array.of(3), Float64Array.of(-95.91, 41.26));
    expect((index.query(WORLD, 4) as ClusterAnswer).clusters[2]).toBe(4);
    // A place past the list's end is left out, not written.
    index.move(Uint32Array.of(9), Float64Array.of(0, 0));
    expect((index.query(WORLD, 4) as ClusterAnswer).clusters[2]).toBe(4);
  });

  it('when the worker fails after moves, the page’s index holds the moved points', async () => {
    const { worker } = standIn();
    const index = clusterIndex(OPTIONS, () => worker);
    index.load(COORDS);
    index.move(Uint32Array.of(3), Float64Array.of(-95.91, 41.26));
    worker.fail();
    expect(index.where()).toBe('page');
    expect((index.query(WORLD, 4) as ClusterAnswer).clusters[2]).toBe(4);
  });

  it('counts late points in the worker, with the flags of loads and moves, and on the page after it fails', async () => {
    const { worker, sent } = standIn();
    const index = clusterIndex(OPTIONS, () => worker);
    index.load(COORDS, Uint8Array.of(1, 0, 0, 1));
    expect((await index.query(WORLD, 4)).clusters[4]).toBe(1);
    // Denver's late load joins Omaha's, and Omaha's second turns late.
    index.move(Uint32Array.of(1, 3), Float64Array.of(-95.9, 41.27, -95.91, 41.26), Uint8Array.of(1, 1));
    expect((await index.query(WORLD, 4)).clusters[4]).toBe(3);
    expect(sent.filter((m) => m.kind === 'move').map((m) => (m.kind === 'move' ? [...m.late] : []))).toEqual([
      [1, 1],
    ]);
    worker.fail();
    expect(index.where()).toBe('page');
    expect((index.query(WORLD, 4) as ClusterAnswer).clusters[4]).toBe(3);
  });

  it('when the worker fails, answers what it held and all after on the page’s thread', async () => {
    const { worker } = standIn();
    const index = clusterIndex(OPTIONS, () => worker);
    index.load(COORDS);
    const waiting = index.query(WORLD, 4);
    worker.fail();
    expect([...(await waiting).points]).toEqual([3]);
    expect(worker.terminated).toBe(true);
    expect(index.where()).toBe('page');
    const later = index.query(WORLD, 4);
    expect(later).not.toBeInstanceOf(Promise);
    expect((later as ClusterAnswer).clusters[2]).toBe(3);
  });
});
