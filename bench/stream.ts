// `npx tsx bench/run.ts stream`: change → screen over the live stream (issue 35). A built server
// (TRACKS=store) on a throwaway PostgreSQL pulls a simulator whose clock the bench moves; a
// dispatcher's board in Chromium (CPU throttled 2×) watches every load. Each round the bench moves
// the clock on, the puller stores what moved, and each commit is heard on the bench's own
// `LISTEN haulview_tracks`: that instant is the change. It is on screen when the board's rows of an
// answer at or past its sequence are painted (the `board-drawn` mark names the answers' cursors).
// The same rounds with `/api/stream` refused: the page polls, every REFRESH_SECONDS.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page } from '@playwright/test';
import pg from 'pg';
import { encodeWatch, WATCH_PARAM } from '@/domain/watch-text';
import { startPostgresCluster } from '@/testing/postgres-cluster';
import { productionInstall, runBuiltServer } from '@/testing/server-process';
import { TEST_CREDENTIALS } from '@/testing/stack';
import { chromiumPath, CHROMIUM_FLAGS } from '../scripts/chromium';
import { INSTRUMENT, median, percentile, round, sleep, waitForMark, type Mark } from './browser';
import { ratioOf } from './peer-figures';
import { startChild } from './processes';
import { siblingDatabaseUrl } from './team-figures';
import type { Figure } from './figures';

const LOADS = 1000;
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 20);
/** The page's poll and the puller's refresh: a change waits up to this long for a poll. */
const REFRESH_SECONDS = 10;
/** How far the simulator's clock moves each round: some loads get a ping, most do not. */
const STEP_MS = 20_000;
/** No commit heard for this long: the puller's round is over. */
const QUIET_MS = 3_000;
const THROTTLE = 2;
const VIEWPORT = { width: 1280, height: 800 };
const GOAL_MS = 1_000;

interface Heard {
  seq: number;
  /** Epoch ms, sub-millisecond: comparable with the page's `timeOrigin + startTime`. */
  at: number;
}

const epochNow = () => performance.timeOrigin + performance.now();

/** The lowest sequence among a board-drawn mark's cursors (`<store>.<seq>`, space-separated). */
const SEEN_SEQ = `((m) => Math.min(...String(m.detail?.cursors ?? '').split(' ').map((c) => Number(c.slice(c.lastIndexOf('.') + 1)) || 0)))`;
const seenSeq = (m: Mark) =>
  Math.min(
    ...String(m.detail?.cursors ?? '')
      .split(' ')
      .map((c) => Number(c.slice(c.lastIndexOf('.') + 1)) || 0),
  );

/** Wraps EventSource so that each `change` event's id and arrival are kept in `__bench.events`. */
const HEAR_EVENTS = `(() => {
  const Original = window.EventSource;
  const events = (window.__bench.events = []);
  window.EventSource = class extends Original {
    constructor(url, init) {
      super(url, init);
      this.addEventListener('change', (e) => events.push({ id: e.lastEventId, t: performance.now() }));
    }
  };
})();`;

/** The bench's own `/api/stream` (open mode: every change): each event's sequence and arrival. */
function listenToStream(url: string) {
  const heard: Heard[] = [];
  const abort = new AbortController();
  void (async () => {
    const response = await fetch(`${url}/api/stream`, { signal: abort.signal });
    let text = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const at = epochNow();
      text += Buffer.from(chunk).toString();
      for (const m of text.matchAll(/^id: \S+\.(\d+)$/gm)) heard.push({ seq: Number(m[1]), at });
      text = text.slice(text.lastIndexOf('\n') + 1);
    }
  })().catch(() => undefined);
  return { heard, stop: () => abort.abort() };
}

/**
 * Opens the board on `url` (every load watched, by the link) and waits for all its rows; with
 * `polling`, `/api/stream` answers 204 (an EventSource gives up on it) and the views poll.
 */
async function openBoard(browser: Browser, url: string, ids: string[], polling: boolean) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(INSTRUMENT);
  // BENCH_VERBOSE: when each change event came, to tell the stream's part from the pull's and the draw's.
  if (process.env.BENCH_VERBOSE) await context.addInitScript(HEAR_EVENTS);
  if (polling) await context.route('**/api/stream*', (route) => route.fulfill({ status: 204 }));
  const page = await context.newPage();
  const watch = encodeWatch(ids.map((id) => ({ by: 'external-id' as const, id })));
  await page.goto(`${url}/?${WATCH_PARAM}=${encodeURIComponent(watch)}`);
  await waitForMark(page, `m.name === 'board-drawn' && m.detail.rows >= ${ids.length}`);
  if (!polling) await page.getByText('● Live').first().waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  return { context, page };
}

/** Waits for the first commit after `from` (in `heard`), then until none comes for QUIET_MS. */
async function roundOfCommits(heard: Heard[], from: number, timeoutMs: number): Promise<Heard[]> {
  const deadline = Date.now() + timeoutMs;
  while (heard.length === from) {
    if (Date.now() > deadline) throw new Error(`no commit within ${timeoutMs / 1000} s of the clock's move`);
    await sleep(50);
  }
  for (;;) {
    const last = heard.at(-1) as Heard;
    if (epochNow() - last.at >= QUIET_MS) return heard.slice(from);
    await sleep(100);
  }
}

/** Change → screen (ms) of each commit of ROUNDS rounds, on one page. */
async function measure(
  page: Page,
  heard: Heard[],
  advance: (ms: number) => Promise<void>,
  movedAfter: (seq: number) => Promise<number>,
  /** BENCH_VERBOSE: when the server's change events reached the bench's own stream. */
  served: Heard[] | undefined,
): Promise<{ latencies: number[]; moved: number[]; splits: Splits }> {
  const latencies: number[] = [];
  const moved: number[] = [];
  const splits: Splits = { served: [], event: [], answer: [], drawn: [] };
  const origin = (await page.evaluate('performance.timeOrigin')) as number;
  for (let r = 0; r < ROUNDS; r++) {
    const from = heard.length;
    await advance(STEP_MS);
    const commits = await roundOfCommits(heard, from, REFRESH_SECONDS * 3_000);
    const last = Math.max(...commits.map((c) => c.seq));
    moved.push(await movedAfter(Math.min(...commits.map((c) => c.seq)) - 1));
    // Every commit of the round on screen (a poll brings it within REFRESH_SECONDS).
    await waitForMark(page, `m.name === 'board-drawn' && ${SEEN_SEQ}(m) >= ${last}`, 60_000);
    const drawn = ((await page.evaluate('window.__bench.marks')) as Mark[])
      .filter((m) => m.name === 'board-drawn')
      .map((m) => ({ seq: seenSeq(m), at: origin + m.t }));
    const round_: number[] = [];
    for (const c of commits) {
      const shown = drawn.find((d) => d.seq >= c.seq && d.at >= c.at);
      if (shown) round_.push(shown.at - c.at);
    }
    latencies.push(...round_);
    if (served) {
      const seqOf = (id: string) => Number(id.slice(id.lastIndexOf('.') + 1));
      const events = (
        (await page.evaluate('window.__bench.events ?? []')) as { id: string; t: number }[]
      ).map((e) => ({ seq: seqOf(e.id), at: origin + e.t }));
      const answers = ((await page.evaluate('window.__bench.marks')) as Mark[])
        .filter((m) => m.name === 'answer')
        .map((m) => origin + m.t);
      for (const c of commits) {
        const event = events.find((e) => e.seq >= c.seq);
        const sent = served.find((e) => e.seq >= c.seq);
        const answer = event && answers.find((a) => a >= event.at);
        const shown = drawn.find((d) => d.seq >= c.seq && d.at >= c.at);
        const ms = (a?: number, b?: number) => (a && b ? Math.round(b - a) : '-');
        const split = {
          served: ms(c.at, sent?.at),
          event: ms(c.at, event?.at),
          answer: ms(event?.at, answer),
          drawn: ms(answer, shown?.at),
        };
        for (const [part, value] of Object.entries(split))
          if (typeof value === 'number') splits[part as keyof Splits].push(value);
        console.log(
          `  seq ${c.seq}: served +${split.served}, event +${split.event}, answer +${split.answer}, drawn +${split.drawn}`,
        );
      }
    }
    if (served)
      console.log(
        `round ${r}: ${moved.at(-1)} loads moved, ${commits.length} commits, ${round_.map((ms) => Math.round(ms)).join(' ')} ms`,
      );
  }
  return { latencies, moved, splits };
}

/** BENCH_VERBOSE's split of change → screen, each part in ms: commit → the bench's own stream's
 * event, commit → the page's event, the page's event → the pull's answer, the answer → rows painted. */
interface Splits {
  served: number[];
  event: number[];
  answer: number[];
  drawn: number[];
}

const splitLine = (splits: Splits) =>
  Object.entries(splits)
    .map(
      ([part, v]: [string, number[]]) =>
        `${part} median ${median(v)} p95 ${percentile(v, 95)} max ${Math.max(...v)} (${v.length})`,
    )
    .join('; ');

export async function benchStream(): Promise<Figure[]> {
  execFileSync('npx', ['vite', 'build'], { stdio: 'ignore' });
  const verbose = Boolean(process.env.BENCH_VERBOSE);
  const given = process.env.DATABASE_URL;
  const cluster = given ? undefined : await startPostgresCluster();
  const serverUrl = (given ?? cluster?.url) as string;
  const name = `haulview_bench_stream_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const databaseUrl = siblingDatabaseUrl(serverUrl, name);
  const install = await productionInstall();
  // The app the browser loads: this checkout's build, in place of the install's stand-in page.
  cpSync('dist', join(install.dir, 'dist'), {
    recursive: true,
    filter: (source) => !source.startsWith(join('dist', 'server')),
  });
  const sim = await startChild({
    kind: 'simulators',
    count: 1,
    seed: 35,
    loads: LOADS,
    credentials: TEST_CREDENTIALS,
    frozenAt: Date.now(),
  });
  const server = runBuiltServer(install, {
    DATABASE_URL: databaseUrl,
    TRACKS: 'store',
    UPSTREAM_BASE_URL: sim.urls[0] as string,
    PARTNER_ID: String(TEST_CREDENTIALS.partnerId),
    ACCOUNT_ID: TEST_CREDENTIALS.accountId,
    HOST: '127.0.0.1',
    PORT: '0',
    REFRESH_SECONDS: String(REFRESH_SECONDS),
    MAX_IDS: String(LOADS),
  });
  const listener = new pg.Client({ connectionString: databaseUrl });
  let browser: Browser | undefined;
  let served: ReturnType<typeof listenToStream> | undefined;
  try {
    const [, url] = await server.waitFor(/Haulview: (http:\/\/\S+)/, 60_000);
    await listener.connect();
    const heard: Heard[] = [];
    listener.on('notification', (n) => heard.push({ seq: Number(n.payload), at: epochNow() }));
    await listener.query('listen haulview_tracks');
    if (verbose) served = listenToStream(url as string);
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
    const results: Record<'stream' | 'polling', number[]> = { stream: [], polling: [] };
    const moved: number[] = [];
    const movedAfter = async (seq: number) =>
      Number(
        (await listener.query('select count(*)::int as n from track_loads where changed_seq > $1', [seq]))
          .rows[0].n,
      );
    for (const mode of ['stream', 'polling'] as const) {
      const { context, page } = await openBoard(browser, url as string, sim.ids, mode === 'polling');
      // The first pulls' commits settle before the first round.
      await sleep(REFRESH_SECONDS * 1000);
      const measured = await measure(page, heard, sim.advance, movedAfter, served?.heard);
      results[mode] = measured.latencies;
      moved.push(...measured.moved);
      // Polling has no change events to split by.
      if (verbose && mode === 'stream') console.log(`split over SSE, ms: ${splitLine(measured.splits)}`);
      await context.close();
    }
    const what = (mode: string, n: number) =>
      `${LOADS.toLocaleString('en-US')} loads on the board, ${median(moved)} moving per round, CPU ${THROTTLE}x throttled, ${n} changes in ${ROUNDS} rounds, ${mode}`;
    const figure = (stat: 'median' | 'p95', of: (v: number[]) => number, goal: boolean): Figure => {
      const value = round(of(results.stream), 0);
      const polled = round(of(results.polling), 0);
      return {
        figure: `stream: change → screen ${stat} (${what('over SSE', results.stream.length)})`,
        value,
        unit: 'ms',
        goal: goal ? `<= ${GOAL_MS}` : '-',
        pass: goal ? value <= GOAL_MS : true,
        peers: [
          { name: `polling every ${REFRESH_SECONDS} s (${results.polling.length} changes)`, value: polled },
        ],
      };
    };
    if (served)
      console.log(
        `ratio p95 stream/polling: ${ratioOf(percentile(results.stream, 95), percentile(results.polling, 95))}`,
      );
    return [figure('median', median, false), figure('p95', (v) => percentile(v, 95), true)];
  } finally {
    served?.stop();
    await browser?.close();
    await listener.end().catch(() => undefined);
    await server.stop();
    await sim.close();
    install.remove();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    cluster?.stop();
  }
}
