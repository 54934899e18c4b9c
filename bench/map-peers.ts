import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { chromiumPath, CHROMIUM_FLAGS } from '../scripts/chromium';
import {
  allDrawn,
  INSTRUMENT,
  mapGestures,
  marksOf,
  sleep,
  startServer,
  waitForMark,
  waitUntil,
  warm,
  type Mark,
  type Server,
} from './browser';
import type { Figure } from './figures';
import { frameWork, median, movedAnswer, peerFigure, percentile, type TraceEvent } from './peer-figures';
import { PEER_PAGES, startPeerSite, type PeerPage, type PeerSite } from './peer-pages';

/**
 * The map peer bench (issue 40): Haulview's dispatcher map beside what a team would build instead,
 * fed the same 10,000 loads from the same answer, in the same Chromium, pages taken in turn (Haulview,
 * then each peer, then Haulview again) so that a slow minute of the machine falls on all of them:
 *
 * - `markercluster`: Leaflet.markercluster, a marker and an accuracy circle per load, `chunkedLoading`;
 * - `react-leaflet`: a `<CircleMarker>` and a `<Circle>` per load, on Leaflet's canvas renderer;
 * - `floor` and `read`: not peers but the least a Leaflet page can do with that answer
 *   (bench/peers/floor-page.ts), to show what each ratio goal leaves room for.
 *
 * Each page runs under CDP `Emulation.setCPUThrottlingRate` (BENCH_PEERS_THROTTLE, 2): a machine twice
 * as slow. Chromium applies it to the page's main thread only (a worker refuses it), so the work
 * Haulview does in its workers is not slowed: the refresh's process CPU, workers included, is the
 * figure that cannot hide it. Figures per page, medians over BENCH_RUNS rounds (3):
 *
 * - first draw: the answer's last byte -> the loads drawn (Haulview's `markers-drawn` mark; the peers
 *   make the same mark the same way, after the next frame);
 * - pan/zoom: the main thread's work per frame (frameWork) during the browser bench's drag and wheel
 *   script, p95 and p99;
 * - refresh: 1,000 loads moved (the same answer to each page), the main thread's task time, from the
 *   poll until drawn and 300 ms more, throttled; then five refreshes more unthrottled, for the
 *   renderer process's CPU time, workers included. Chromium's throttling spends CPU of its own
 *   while on (docs/performance-log.md), so a throttled window's process CPU would measure how long
 *   the window was, not the work in it;
 * - JS heap after a full collection, the page's and its workers', after the first draw.
 *
 * The peers are bundled apart (bench/peer-pages.ts) and never part of the app. `BENCH_PEERS_SHOTS=<dir>`
 * writes a screenshot of each page after its first draw; `BENCH_TRACE=<dir>` a trace of every thread
 * in each measured refresh (`npx tsx bench/trace-summary.ts <dir>/<page>` sums them up) and of the
 * pan/zoom script (in `<dir>/<page>/panzoom`), both with the V8 sampler, which slows the page: a traced
 * run's figures are not the bench's;
 * `BENCH_PEERS_PAGES=haulview` measures only the pages named (Haulview always comes first);
 * `BENCH_PEERS_BASEMAP=off` keeps Haulview's offline basemap from its atlas files (the peers have none).
 */

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const THROTTLE = Number(process.env.BENCH_PEERS_THROTTLE ?? 2);
const WARMUP_REFRESHES = Number(process.env.BENCH_REFRESH_WARMUP ?? 2);
const MEASURED_REFRESHES = 3;
/** Unthrottled refreshes for the process CPU: it is read in 10-ms steps, so more of them. */
const CPU_REFRESHES = 5;
const VIEWPORT = { width: 1280, height: 800 };
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline.frame'];

type Kind = 'haulview' | PeerPage;
const KINDS: Kind[] = ['haulview', ...PEER_PAGES].filter(
  (k) =>
    k === 'haulview' ||
    !process.env.BENCH_PEERS_PAGES ||
    process.env.BENCH_PEERS_PAGES.split(',').includes(k),
) as Kind[];
const REFRESH_TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  // The V8 sampler on every thread, workers included: per-function times in a refresh's window.
  'disabled-by-default-v8.cpu_profiler',
];

interface PageFigures {
  draw: number;
  heap: number;
  /** How many workers the heap figure counts. */
  workers: number;
  frames: number[];
  refreshCpu: number[];
  refreshMain: number[];
}

/** The page's worker targets, reached over a session of their own (a worker has no Page to open one on). */
function workersOf(cdp: CDPSession) {
  const sessions = new Set<string>();
  const pending = new Map<number, (result: unknown) => void>();
  let next = 1_000_000;
  cdp.on('Target.attachedToTarget', (e) => {
    if (e.targetInfo.type === 'worker') sessions.add(e.sessionId);
  });
  cdp.on('Target.detachedFromTarget', (e) => {
    if (e.sessionId) sessions.delete(e.sessionId);
  });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const message = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? null);
    if (message.id !== undefined) pending.delete(message.id);
  });
  const send = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      cdp
        .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) })
        .catch(() => resolve(null));
      setTimeout(() => resolve(null), 10_000);
    });
  return {
    start: () =>
      cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false }),
    /** Each worker's JS heap after a full collection, MB. */
    heaps: async () => {
      const out: number[] = [];
      for (const s of sessions) {
        await send(s, 'HeapProfiler.collectGarbage');
        const usage = (await send(s, 'Runtime.getHeapUsage')) as { usedSize?: number } | null;
        if (usage?.usedSize !== undefined) out.push(usage.usedSize / 1e6);
      }
      return out;
    },
  };
}

function jsonOf(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** The answer's last byte, in the page's time, of each request `wanted` picks. */
function arrivals(page: Page, wanted: (url: string, body: unknown) => boolean): () => Promise<number[]> {
  const ends: number[] = [];
  page.on('requestfinished', (request) => {
    if (!wanted(request.url(), jsonOf(request.postData()))) return;
    const t = request.timing();
    ends.push(t.startTime + t.responseEnd);
  });
  return async () => {
    const origin = (await page.evaluate('performance.timeOrigin')) as number;
    return ends.map((end) => end - origin);
  };
}

const isBoardPull = (url: string, body: unknown) =>
  url.endsWith('/api/pull/by-external-id') &&
  (body as { include?: { documents?: boolean }; since?: string } | null)?.include?.documents === false &&
  !(body as { since?: string }).since;

/** The browser bench's pans and zooms (bench/browser.ts, mapGestures) without its fill to 10 s. */
async function panZoomScript(page: Page): Promise<void> {
  const { drag, script } = await mapGestures(page);
  await script();
  await drag(-120, 0);
}

interface Shared {
  server: Server;
  site: PeerSite;
  /** Haulview's markers: every watched load with a position (both boards). */
  located: number;
  /** The board's answer by external id, as the first Haulview page got it. */
  answer?: string;
  /** The points the peers draw from it. */
  peerPoints?: number;
  /** Haulview's map's size: the peers' maps get the same. */
  mapSize?: { width: number; height: number };
}

async function measure(browser: Browser, kind: Kind, shared: Shared): Promise<PageFigures> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(INSTRUMENT);
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await cdp.send('Performance.enable');
    const workers = workersOf(cdp);
    await workers.start();
    const metrics = async () => {
      const { metrics: list } = await cdp.send('Performance.getMetrics');
      const of = (name: string) => list.find((m) => m.name === name)?.value ?? 0;
      return { task: of('TaskDuration'), process: of('ProcessTime') };
    };

    // First draw.
    let points: number;
    let arrived: () => Promise<number[]>;
    if (kind === 'haulview') {
      points = shared.located;
      arrived = arrivals(page, isBoardPull);
      if (shared.answer === undefined)
        page.on('response', (response) => {
          if (
            shared.answer !== undefined ||
            !isBoardPull(response.url(), jsonOf(response.request().postData()))
          )
            return;
          void response.text().then((text) => (shared.answer ??= text));
        });
      // The peers draw no basemap: BENCH_PEERS_BASEMAP=off shows what Haulview's offline one costs.
      if (process.env.BENCH_PEERS_BASEMAP === 'off')
        await page.route(/\/(countries|states)-\d+m-[^/]*\.json$/, (route) => route.abort());
      await page.goto(`${shared.server.url}/`);
    } else {
      if (!shared.answer || !shared.mapSize || shared.peerPoints === undefined)
        throw new Error('the peers run after a Haulview page');
      points = shared.peerPoints;
      arrived = arrivals(page, (url) => url.endsWith('/answer.json'));
      await page.goto(`${shared.site.url}/${kind}?w=${shared.mapSize.width}&h=${shared.mapSize.height}`);
    }
    await waitForMark(page, allDrawn(points));
    const drawnMark = (await marksOf(page)).find(
      (m) => m.name === 'markers-drawn' && Number(m.detail?.points) >= points,
    ) as Mark;
    const arrival = (await arrived())[0];
    if (arrival === undefined) throw new Error(`${kind}: the answer's arrival was not seen`);
    const draw = drawnMark.t - arrival;
    if (kind === 'haulview') {
      // The nav's documents badge reads the 10,000 loads' documents once as the page opens: not the
      // map's work, and not to fall into a figure below.
      await waitForMark(page, `m.name === 'answer' && String(m.detail.include).includes('"documents":true')`);
      for (let i = 0; i < 50 && shared.answer === undefined; i++) await sleep(100);
      if (shared.answer === undefined) throw new Error("the board's answer was not seen");
      shared.peerPoints ??= (
        JSON.parse(shared.answer) as { loads: { latestLocation?: unknown }[] }
      ).loads.filter((l) => l.latestLocation).length;
      const box = await page.locator('.leaflet-container').boundingBox();
      if (box) shared.mapSize ??= { width: Math.round(box.width), height: Math.round(box.height) };
    }
    await sleep(1000);
    const shots = process.env.BENCH_PEERS_SHOTS;
    if (shots) {
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `${kind}.png`) });
    }

    // Heap after a full collection: the page's and its workers'.
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const workerHeaps = await workers.heaps();
    const heap = usedSize / 1e6 + workerHeaps.reduce((a, b) => a + b, 0);

    // Pan and zoom, traced; under BENCH_TRACE with the V8 sampler too, for the functions in its frames.
    await browser.startTracing(page, {
      categories: process.env.BENCH_TRACE
        ? [...TRACE_CATEGORIES, ...REFRESH_TRACE_CATEGORIES.filter((c) => !TRACE_CATEGORIES.includes(c))]
        : TRACE_CATEGORIES,
    });
    await panZoomScript(page);
    const traced = await browser.stopTracing();
    if (process.env.BENCH_TRACE) {
      mkdirSync(join(process.env.BENCH_TRACE, kind, 'panzoom'), { recursive: true });
      writeFileSync(join(process.env.BENCH_TRACE, kind, 'panzoom', `panzoom-${Date.now()}.json`), traced);
    }
    const trace = JSON.parse(traced.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
    const frames = frameWork(Array.isArray(trace) ? trace : trace.traceEvents);
    await sleep(500);

    // Refreshes: the same 1,000 loads moved further each time.
    const first = shared.answer as string;
    let delta = '';
    let ready = async () => {};
    let fire: () => Promise<void>;
    /** The page's work for the refresh is drawn (for Haulview: after the poll's answer). */
    let done: (seen: number) => string;
    if (kind === 'haulview') {
      await page.route('**/api/pull/by-external-id', async (route) => {
        const body = route.request().postDataJSON() as {
          since?: string;
          include?: { documents?: boolean };
        } | null;
        // The board's poll gets the moved loads; the documents badge's goes to the server. Fetched and
        // fulfilled, not continued: Playwright's continue() leaves a worker's request hanging.
        if (body?.since && body.include?.documents === false)
          await route.fulfill({ status: 200, contentType: 'application/json', body: delta });
        else await route.fulfill({ response: await route.fetch() });
      });
      const button = await page.getByRole('button', { name: 'Refresh', exact: true }).elementHandle();
      if (!button) throw new Error('no Refresh button');
      // Just after the dispatcher's 5 s clock tick, so that none falls in the refresh.
      ready = async () => {
        const seen = (await marksOf(page)).length;
        await waitUntil(
          page,
          `window.__bench.marks.slice(${seen}).some((m) => m.name === 'clock-tick' && m.detail.every === 5000)`,
          20_000,
        );
        await sleep(500);
      };
      // A plain click: Playwright's own locating would run in the page and count as its work.
      fire = () => button.evaluate((b) => (b as HTMLButtonElement).click());
      done = (seen) =>
        `(() => { const m = window.__bench.marks.slice(${seen}); const a = m.findIndex((x) => x.name === 'answer' && String(x.detail.path).startsWith('/api/pull/by-external-id')); return a >= 0 && m.some((x, i) => i > a && x.name === 'markers-drawn'); })()`;
    } else {
      fire = () => page.evaluate('void window.__peer.refresh()');
      done = (seen) => `window.__bench.marks.slice(${seen}).some((m) => m.name === 'markers-drawn')`;
    }
    const refreshCpu: number[] = [];
    const refreshMain: number[] = [];
    for (let k = 1; k <= WARMUP_REFRESHES + MEASURED_REFRESHES + CPU_REFRESHES; k++) {
      const unthrottled = k > WARMUP_REFRESHES + MEASURED_REFRESHES;
      if (k === WARMUP_REFRESHES + MEASURED_REFRESHES + 1)
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      delta = movedAnswer(first, k, Date.now());
      shared.site.delta(delta);
      await ready();
      const seen = (await marksOf(page)).length;
      const traceDir = process.env.BENCH_TRACE;
      const traced = traceDir !== undefined && k > WARMUP_REFRESHES && !unthrottled;
      if (traced) {
        mkdirSync(join(traceDir, kind), { recursive: true });
        await browser.startTracing(page, {
          path: join(traceDir, kind, `refresh-${Date.now()}-${k}.json`),
          categories: REFRESH_TRACE_CATEGORIES,
        });
      }
      const start = await metrics();
      await fire();
      await waitUntil(page, done(seen));
      await sleep(300);
      const end = await metrics();
      if (traced) await browser.stopTracing();
      if (unthrottled) refreshCpu.push((end.process - start.process) * 1000);
      else if (k > WARMUP_REFRESHES) refreshMain.push((end.task - start.task) * 1000);
    }
    return { draw, heap, workers: workerHeaps.length, frames, refreshCpu, refreshMain };
  } finally {
    await context.close();
  }
}

export async function benchMapPeers(): Promise<Figure[]> {
  const running = process.env.BENCH_BROWSER_URL;
  if (!running) execFileSync('npx', ['vite', 'build'], { stdio: 'ignore' });
  const server = running ? { url: running, stop: async () => {} } : await startServer();
  const site = await startPeerSite();
  let browser: Browser | undefined;
  try {
    const { located } = await warm(server.url);
    const shared: Shared = { server, site, located };
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
    const all = new Map<Kind, PageFigures[]>(KINDS.map((k) => [k, []]));
    for (let round = 0; round < RUNS; round++)
      for (const kind of KINDS) {
        const figures = await measure(browser, kind, shared);
        if (kind === 'haulview') site.answer(shared.answer as string);
        all.get(kind)?.push(figures);
        if (process.env.BENCH_VERBOSE)
          console.log(
            JSON.stringify({
              round,
              kind,
              ...figures,
              frames: figures.frames.length,
              p95: percentile(figures.frames, 95),
            }),
          );
      }
    const of = (kind: Kind, pick: (f: PageFigures) => number) => median((all.get(kind) ?? []).map(pick));
    const peersOf = (pick: (f: PageFigures) => number) =>
      KINDS.filter((k): k is PeerPage => k !== 'haulview').map((name) => ({ name, value: of(name, pick) }));
    const figure = (
      text: string,
      unit: string,
      pick: (f: PageFigures) => number,
      goal?: Parameters<typeof peerFigure>[4],
    ) => peerFigure(`peers: ${text}`, unit, of('haulview', pick), peersOf(pick), goal);
    const n = `median of ${RUNS}, CPU throttled ${THROTTLE}x`;
    const p95 = (f: PageFigures) => percentile(f.frames, 95);
    const p99 = (f: PageFigures) => percentile(f.frames, 99);
    const cpu = (f: PageFigures) => median(f.refreshCpu);
    const main = (f: PageFigures) => median(f.refreshMain);
    return [
      figure(`first draw of 10,000 loads, answer arrived -> drawn (${n})`, 'ms', (f) => f.draw, {
        max: 500,
        ratio: { markercluster: 1 / 3, 'react-leaflet': 1 / 10 },
      }),
      figure(`pan/zoom, main-thread work per frame p95 (${n})`, 'ms', p95, {
        max: 16.7,
        ratio: { markercluster: 0.5, 'react-leaflet': 0.5 },
      }),
      figure(`pan/zoom, main-thread work per frame p99 (${n})`, 'ms', p99, { max: 33 }),
      figure(
        `refresh moving 1,000 loads, the page's process CPU, workers included (median of ${RUNS}, unthrottled, each the median of ${CPU_REFRESHES})`,
        'ms',
        cpu,
        { ratio: { markercluster: 0.2, 'react-leaflet': 0.2 } },
      ),
      figure(
        `that refresh, main-thread time (${n}, each the median of ${MEASURED_REFRESHES} after ${WARMUP_REFRESHES})`,
        'ms',
        main,
        { max: 50 },
      ),
      figure(
        `JS heap after a collection, the page and its workers, after the first draw (${n})`,
        'MB',
        (f) => f.heap,
      ),
    ];
  } finally {
    await browser?.close();
    await site.stop();
    await server.stop();
  }
}
