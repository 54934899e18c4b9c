// `npm run bench -- replay`: the replay page (issue 39) with 5 loads of 20,000 pings each, at 600×,
// the CPU throttled 2× (CDP Emulation.setCPUThrottlingRate):
// - the main thread's time per animation frame while it plays, p95 (from a Chromium trace: the
//   top-level tasks between one frame's animation callbacks and the next's; not the gap between
//   frames, which snaps to the display's 16.7 ms);
// - a slider drag step to the map redrawn: from the input event to the frame after the layers moved.
// The loads are served by the bench (the page's pulls are answered by Playwright), so the dashboard
// runs a small fleet and needs no warm-up.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumPath, CHROMIUM_FLAGS } from '../scripts/chromium';
import { percentile, round, sleep, startServer } from './browser';
import type { TraceEvent } from './peer-figures';
import type { Figure } from './figures';

const LOADS = 5;
const PINGS = 20_000;
const PING_EVERY_MS = 15_000;
const READINGS_EVERY = 5;
const SPEED = 600;
const THROTTLE = 2;
const PLAY_MS = 6_000;
const DRAGS = 40;
const START = Date.UTC(2026, 10, 20, 6, 0);
const ID = (i: number) => String(900_001 + i);

/** One load in Haulview's own shape (`LoadView`): a drive east with a wiggle, a reefer's readings. */
function loadView(i: number, readingsOnly: boolean) {
  const time = { approximate: false, zoneKnown: false };
  const from = START + i * 3_600_000;
  const lat0 = 33 + i * 2;
  const lon0 = -118 + i;
  const pings = [];
  const readings = [];
  for (let k = 0; k < PINGS; k++) {
    const instant = from + k * PING_EVERY_MS;
    const lat = lat0 + Math.sin(k / 400) * 0.8 + k * 0.00005;
    const lon = lon0 + k * 0.0022;
    if (!readingsOnly) pings.push({ key: `p${k}`, instant, time, lat, lon, accuracy: 10 + ((k * 7) % 90) });
    if (k % READINGS_EVERY === 0)
      readings.push({
        key: `r${k}`,
        instant,
        time,
        supply: 34 + Math.sin(k / 50),
        return: 36 + Math.cos(k / 70),
        set: 35,
        unit: 'F',
      });
  }
  const last = pings.at(-1) ?? { key: 'p', instant: from, time, lat: lat0, lon: lon0, accuracy: 10 };
  return {
    by: 'external-id',
    id: ID(i),
    externalId: ID(i),
    latestLocation: { ...last, place: {} },
    latestTemperature: readings.at(-1),
    pings,
    readings: readingsOnly ? readings : [],
  };
}

/**
 * Answers the page's pulls with the bench's loads asked for (the page asks for each load on its own):
 * the track, then the readings in their own answer.
 */
async function serveLoads(page: Page) {
  const answers = new Map<string, string>();
  await page.context().route('**/api/pull/by-external-id', async (route) => {
    const body = route.request().postDataJSON() as {
      ids?: string[];
      include?: { temperatures?: boolean; locations?: boolean };
    };
    const readingsOnly = body.include?.temperatures === true && body.include.locations === false;
    const wanted = Array.from({ length: LOADS }, (_, i) => i).filter(
      (i) => body.ids?.includes(ID(i)) ?? true,
    );
    const key = `${readingsOnly} ${wanted.join(',')}`;
    let text = answers.get(key);
    if (text === undefined) {
      const loads = wanted.map((i) => loadView(i, readingsOnly));
      text = JSON.stringify({ version: 2, cursor: '1', loads, missing: [] });
      answers.set(key, text);
    }
    await route.fulfill({ status: 200, contentType: 'application/json', body: text });
  });
}

/**
 * Per animation frame, the renderer main thread's time in top-level tasks, from the task that runs
 * the frame's animation callbacks to the next such task: wall time, and the thread's CPU time (`tdur`,
 * which leaves out the waits for a core on a machine shared with other work).
 */
function framesOf(events: TraceEvent[]): { wall: number[]; cpu: number[] } {
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  if (!main) throw new Error('no renderer main thread in the trace');
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const slices = mine
    .filter((e) => e.ph === 'X' && (e.dur ?? 0) > 0)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const top: { ts: number; dur: number; tdur: number; frame: boolean }[] = [];
  for (const e of slices) {
    const last = top.at(-1);
    if (last && e.ts < last.ts + last.dur) {
      // Inside the last top-level task: it runs a frame if it fires animation callbacks.
      if (e.name === 'FireAnimationFrame') last.frame = true;
      continue;
    }
    top.push({
      ts: e.ts,
      dur: e.dur ?? 0,
      tdur: e.tdur ?? e.dur ?? 0,
      frame: e.name === 'FireAnimationFrame',
    });
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  let open: { wall: number; cpu: number } | undefined;
  for (const t of top) {
    if (t.frame) {
      if (open) {
        wall.push(open.wall / 1000);
        cpu.push(open.cpu / 1000);
      }
      open = { wall: 0, cpu: 0 };
    }
    if (open) {
      open.wall += t.dur;
      open.cpu += t.tdur;
    }
  }
  return { wall, cpu };
}

async function measure(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    await serveLoads(page);
    const ids = Array.from({ length: LOADS }, (_, i) => `e:${ID(i)}`).join(',');
    const t = START + 10 * 3_600_000;
    await page.goto(`${url}/replay?loads=${ids}&speed=${SPEED}&t=${t}`);
    await page
      .waitForFunction(
        (n) =>
          (document.querySelector('.leaflet-container')?.getAttribute('data-replay-positions') ?? '').split(
            ' ',
          ).length === n,
        LOADS,
        { timeout: 30_000 },
      )
      .catch(async (error: unknown) => {
        const text = await page.evaluate(() => document.body.innerText.slice(0, 600));
        throw new Error(`the replay did not draw its ${LOADS} loads; the page says: ${text}`, {
          cause: error,
        });
      });
    await page.waitForSelector('[data-chart-cursor]', { state: 'attached', timeout: 60_000 });
    await sleep(1000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });

    // Play for a while, traced.
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    });
    // BENCH_PROFILE=<dir>: a CPU profile of the play, for `npx tsx bench/profile-summary.ts <dir>`.
    const profiling = process.env.BENCH_PROFILE;
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    await page.keyboard.press(' ');
    await sleep(PLAY_MS);
    await page.keyboard.press(' ');
    if (profiling) {
      const { profile } = await cdp.send('Profiler.stop');
      mkdirSync(profiling, { recursive: true });
      writeFileSync(join(profiling, 'replay-play.cpuprofile'), JSON.stringify(profile));
    }
    const buffer = await browser.stopTracing();
    // BENCH_TRACE=<dir>: the trace is kept there for `npx tsx bench/trace-summary.ts <dir>`.
    if (process.env.BENCH_TRACE) {
      mkdirSync(process.env.BENCH_TRACE, { recursive: true });
      writeFileSync(join(process.env.BENCH_TRACE, 'replay-play.json'), buffer);
    }
    const trace = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
    const frames = framesOf(Array.isArray(trace) ? trace : trace.traceEvents);

    // Slider drags: each step from the input event to the frame after the layers moved.
    const drags = (await page.evaluate(async (count) => {
      const input = document.querySelector<HTMLInputElement>('input[type=range]');
      const map = document.querySelector('.leaflet-container');
      if (!input || !map) throw new Error('no slider or map');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      const min = Number(input.min);
      const max = Number(input.max);
      const out: number[] = [];
      for (let k = 0; k < count; k++) {
        const value = Math.round(min + ((max - min) * (k + 1)) / (count + 1));
        const done = new Promise<number>((resolve) => {
          const observer = new MutationObserver(() => {
            if (map.getAttribute('data-replay-time') !== String(value)) return;
            observer.disconnect();
            // Leaflet's canvas draws in the next animation frame, before this callback.
            requestAnimationFrame(() => resolve(performance.now()));
          });
          observer.observe(map, { attributes: true, attributeFilter: ['data-replay-time'] });
        });
        const t0 = performance.now();
        setValue?.call(input, String(value));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        out.push((await done) - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
      return out;
    }, DRAGS)) as number[];
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    return { frames, drags };
  } finally {
    await context.close();
  }
}

export async function benchReplay(): Promise<Figure[]> {
  const running = process.env.BENCH_BROWSER_URL;
  if (!running) execFileSync('npx', ['vite', 'build'], { stdio: 'ignore' });
  const server = running
    ? { url: running, stop: async () => {} }
    : await startServer({
        SIM_LOADS: '20',
        SIM_LONG_TRACK_PINGS: '0',
        MAX_IDS: '500',
        CACHE_MAX_LOADS: '1000',
      });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
    const { frames, drags } = await measure(browser, server.url);
    if (frames.wall.length < 30) throw new Error(`only ${frames.wall.length} frames were traced`);
    const p95 = percentile(frames.wall, 95);
    const cpuP95 = percentile(frames.cpu, 95);
    const dragP95 = percentile(drags, 95);
    const what = `${LOADS} loads x ${PINGS.toLocaleString('en-US')} pings, ${SPEED}x, CPU ${THROTTLE}x slower`;
    return [
      {
        figure: `replay: main-thread time per frame while playing, p95 (${what}; ${frames.wall.length} frames)`,
        value: round(p95),
        unit: 'ms',
        goal: '<= 8',
        pass: p95 <= 8,
      },
      {
        figure: `replay: main-thread CPU time per frame while playing, p95 (${what})`,
        value: round(cpuP95),
        unit: 'ms',
        goal: '-',
        pass: true,
      },
      {
        figure: `replay: slider drag step -> map redrawn, p95 (${what}; ${drags.length} steps)`,
        value: round(dragP95),
        unit: 'ms',
        goal: '<= 50',
        pass: dragP95 <= 50,
      },
      {
        figure: `replay: slider drag step -> map redrawn, median (${what})`,
        value: round(percentile(drags, 50)),
        unit: 'ms',
        goal: '-',
        pass: true,
      },
    ];
  } finally {
    await browser?.close();
    await server.stop();
  }
}
