// `npx tsx bench/run.ts inbox`: the brokers' inbox (issue 37 part 5) with at least 1,000 documents
// to review, in Debian's Chromium with the CPU throttled 2× (CDP Emulation.setCPUThrottlingRate):
// from a key (`j`: the next document; `a`: approve and go on) to the next document's picture decoded
// and on screen in the preview. The real server with the embedded simulator at SIM_LOADS loads (about
// 1.8 documents each), reviews kept in a throwaway DATA_DIR. Timings are printed, never asserted.
// BENCH_TRACE=<dir> writes a Chromium trace of 20 more approvals there (`npx tsx bench/trace-summary.ts <dir>`),
// BENCH_PROFILE=<dir> a CPU profile of 20 more (`bench/profile-summary.ts`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumPath, CHROMIUM_FLAGS } from '../scripts/chromium';
import { percentile, round, sleep, startServer } from './browser';
import type { Figure } from './figures';

const LOADS = Number(process.env.BENCH_INBOX_LOADS ?? 700);
const QUEUED = 1_000;
const THROTTLE = 2;
const PRESSES = Number(process.env.BENCH_INBOX_PRESSES ?? 100);
/** Presses before the measured ones of each key: the first runs code the page has not compiled yet. */
const WARMUP = 5;
const GOAL_MS = 100;
/** Where the bench looks for two free ports (the dashboard's, the simulator's). */
const FIRST_PORT = Number(process.env.BENCH_INBOX_PORT ?? 8680);

/**
 * Injected before the app's scripts. `arm()` before a key: `done` then settles once the preview's
 * picture is another one, loaded, decoded and through the next frame's rendering, with the time
 * from the key's event. A string, so nothing the TypeScript loader adds reaches the page.
 */
const INSTRUMENT = `(() => {
  const b = (window.__inbox = { keyAt: 0, done: null });
  addEventListener('keydown', (e) => { b.keyAt = e.timeStamp; }, true);
  const preview = () => document.querySelector('aside[aria-label^="Preview"] img');
  b.arm = () => {
    const before = preview()?.src ?? '';
    b.done = new Promise((resolve) => {
      let settled = false;
      const finish = (img) => {
        if (settled) return;
        settled = true;
        observer.disconnect();
        document.removeEventListener('load', check, true);
        img.decode().catch(() => {}).then(() =>
          requestAnimationFrame(() => setTimeout(() => resolve({ ms: performance.now() - b.keyAt, src: img.src }), 0)),
        );
      };
      const check = () => {
        const img = preview();
        if (img && img.src !== before && img.complete && img.naturalWidth > 0) finish(img);
      };
      // A press that shows no new picture (a document that is none, say) is counted apart, not waited for.
      setTimeout(() => {
        if (settled) return;
        settled = true;
        observer.disconnect();
        document.removeEventListener('load', check, true);
        resolve({ ms: -1, src: '' });
      }, 10000);
      const observer = new MutationObserver(check);
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
      // load does not bubble: caught on the way down.
      document.addEventListener('load', check, true);
    });
  };
})();`;

/** Pulls the fleet's documents once, so the page's first pull is answered from the proxy's cache. */
async function warm(url: string): Promise<number> {
  const config = (await (await fetch(`${url}/api/config`)).json()) as { demo: { externalIds: string[] } };
  // A cold pull of hundreds of loads may time out on a busy machine (504); the next try pulls only what failed.
  let response: Response | undefined;
  for (let attempt = 0; attempt < 6 && response?.ok !== true; attempt++) {
    if (response) await response.arrayBuffer();
    response = await fetch(`${url}/api/pull/by-external-id`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
      body: JSON.stringify({
        ids: config.demo.externalIds,
        include: { locations: false, events: false, comments: false, temperatures: false, extras: true },
      }),
    });
  }
  if (!response?.ok) throw new Error(`warming the proxy answered ${response?.status}`);
  const answer = (await response.json()) as { loads: { documents?: unknown[] }[] };
  return answer.loads.reduce((n, l) => n + (l.documents?.length ?? 0), 0);
}

async function presses(page: Page, key: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count + WARMUP; i++) {
    await page.evaluate('window.__inbox.arm()');
    await page.keyboard.press(key);
    const { ms } = (await page.evaluate('window.__inbox.done')) as { ms: number };
    if (i >= WARMUP && ms >= 0) times.push(ms);
  }
  return times;
}

export async function benchPodInbox(): Promise<Figure[]> {
  const running = process.env.BENCH_INBOX_URL;
  if (!running) execFileSync('npx', ['vite', 'build'], { stdio: 'ignore' });
  const dataDir = mkdtempSync(join(tmpdir(), 'haulview-bench-inbox-'));
  const server = running
    ? { url: running, stop: async () => {} }
    : await startServer(
        {
          SIM_LOADS: String(LOADS),
          SIM_LONG_TRACK_PINGS: '0',
          MAX_IDS: String(LOADS),
          CACHE_MAX_LOADS: String(LOADS + 100),
          DATA_DIR: dataDir,
        },
        FIRST_PORT,
      );
  let browser: Browser | undefined;
  try {
    const documents = await warm(server.url);
    if (documents < QUEUED)
      throw new Error(`${documents} documents: fewer than ${QUEUED}; raise BENCH_INBOX_LOADS`);
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
    // Wide enough for the preview beside the list.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(INSTRUMENT);
    const page = await context.newPage();
    await page.goto(`${server.url}/documents`);
    // The list is virtualized: its name says how many documents it holds, not its rows.
    const list = page.locator('ul[aria-label^="Documents,"]');
    const queuedNow = async () => {
      const name = (await list.count()) > 0 ? await list.first().getAttribute('aria-label') : null;
      return Number(/: ([\d,]+) documents?$/.exec(name ?? '')?.[1]?.replaceAll(',', '') ?? 0);
    };
    // Counted from here, not with waitForFunction: the app's CSP forbids the eval it needs.
    const deadline = Date.now() + 180_000;
    let queued = 0;
    while ((queued = await queuedNow()) < QUEUED && Date.now() < deadline) await sleep(500);
    if (queued < QUEUED) throw new Error(`the inbox lists ${queued} documents, not ${QUEUED}`);
    await page.locator('[data-document-item]').first().focus();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    const next = await presses(page, 'j', PRESSES);
    const approve = await presses(page, 'a', PRESSES);
    const traceDir = process.env.BENCH_TRACE;
    if (traceDir) {
      // Apart from the measured presses, which tracing would slow: for trace-summary.ts.
      mkdirSync(traceDir, { recursive: true });
      await browser.startTracing(page, {
        path: join(traceDir, 'inbox-approve.json'),
        categories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline'],
      });
      await presses(page, 'a', 20);
      await browser.stopTracing();
    }
    const profileDir = process.env.BENCH_PROFILE;
    if (profileDir) {
      // A CPU profile of 20 more approvals, for bench/profile-summary.ts.
      mkdirSync(profileDir, { recursive: true });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      await presses(page, 'a', 20);
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(profileDir, 'inbox-approve.cpuprofile'), JSON.stringify(profile));
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    if (process.env.BENCH_VERBOSE) console.log(JSON.stringify({ queued, next, approve }));
    const ms = (figure: string, value: number, goal?: number): Figure => ({
      figure,
      value: round(value),
      unit: 'ms',
      goal: goal === undefined ? '-' : `<= ${goal}`,
      pass: goal === undefined || value <= goal,
    });
    const missed = 2 * PRESSES - next.length - approve.length;
    const what = `${queued.toLocaleString('en-US')} documents queued, CPU ${THROTTLE}x throttled, ${PRESSES} presses${missed ? `, ${missed} showed no new picture in 10 s` : ''}`;
    return [
      ms(`inbox: j -> next document's picture shown, p95 (${what})`, percentile(next, 95), GOAL_MS),
      ms(`inbox: j -> next picture shown, p50`, percentile(next, 50)),
      ms(
        `inbox: a (approve) -> next document's picture shown, p95 (${what})`,
        percentile(approve, 95),
        GOAL_MS,
      ),
      ms(`inbox: a -> next picture shown, p50`, percentile(approve, 50)),
    ];
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
