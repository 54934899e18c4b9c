import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Puller } from '@/server/puller/puller';
import type { Listening } from '@/server/start';
import type { Store } from '@/server/store/store';
import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { leakyLogLines, openTestStore, startOwnStack } from './support/own-stack';

/**
 * Issue 35's failover in the browser: two instances on one store (TRACKS=store) behind a balancer of
 * the test's own; the page's stream brings changes without a reload, and once the instance it is on
 * is gone it reconnects to the other and misses nothing. The pullers are stepped by hand and the
 * views refresh only every 300 s, so every change the page shows came by its stream.
 */
let stack: Stack;
let store: { store: Store; close: () => Promise<void> };
let balancer: Balancer;
let instances: Instance[];
const clock = manualClock(Date.now());

interface Instance {
  proxy: Listening;
  puller: Puller;
}

/** Hop-by-hop headers: each leg of the trip has its own. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);
const endToEnd = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP.has(name)));

interface Balancer {
  url: string;
  /** The instance each open `/api/stream` response comes from. */
  streamsOn: () => string[];
  close: () => Promise<void>;
}

/**
 * A round-robin balancer: each request goes to the next instance; one that refuses the connection
 * (closed) is skipped. Responses are piped, so a stream's events pass as they come, and a stream the
 * instance ends is ended to the browser too.
 */
async function startBalancer(targets: string[]): Promise<Balancer> {
  let next = 0;
  const streams = new Map<object, string>();
  const server: Server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => forward(Buffer.concat(body), 0));
    const forward = (payload: Buffer, tried: number) => {
      if (tried === targets.length) {
        res.writeHead(502).end();
        return;
      }
      const target = new URL(targets[next++ % targets.length]!);
      // The Host header goes as the browser sent it: the instance checks Origin against it.
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...endToEnd(req.headers), connection: 'close' },
          agent: false,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
          if (answer.headers['content-type']?.startsWith('text/event-stream')) {
            const key = {};
            streams.set(key, target.origin);
            res.once('close', () => streams.delete(key));
          }
          answer.pipe(res);
          answer.once('aborted', () => res.destroy());
          answer.once('error', () => res.destroy());
        },
      );
      upstream.once('error', () => {
        // Refused before any answer: the instance is gone, the next one is asked.
        if (!res.headersSent) forward(payload, tried + 1);
        else res.destroy();
      });
      res.once('close', () => upstream.destroy());
      upstream.end(payload);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    streamsOn: () => [...streams.values()],
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

test.beforeAll(async () => {
  store = await openTestStore();
  stack = await startOwnStack({
    loads: 12,
    now: clock.now,
    store: store.store,
    env: { TRACKS: 'store', REFRESH_SECONDS: '300' },
  });
  const other = await stack.addInstance();
  instances = [
    { proxy: stack.proxy, puller: stack.puller as Puller },
    { proxy: other.proxy, puller: other.puller as Puller },
  ];
  balancer = await startBalancer(instances.map((i) => i.proxy.url));
});
test.afterAll(async () => {
  await balancer?.close();
  await stack?.close();
  await store?.close();
});

/** The load's whole track as this instance serves it from the store: what a pull of it brings now. */
async function pingsOn(instance: Instance, id: string): Promise<number> {
  const response = await fetch(`${instance.proxy.url}/api/pull/by-external-id`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
    body: JSON.stringify({ ids: [id] }),
  });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { loads: { pings?: unknown[] }[]; pending?: string[] };
  expect(answer.pending ?? []).toEqual([]);
  return answer.loads[0]?.pings?.length ?? 0;
}

test('the stream brings changes without a reload, and after its instance dies another brings the rest', async ({
  page,
}) => {
  const plan = stack.sim.fleet.find((p) => p.dark === undefined)!;
  const id = String(plan.externalId);
  const pingsShown = (n: number) => page.getByLabel(`Pings, newest first, ${n} in all`);

  // Nobody pulls yet: the store holds nothing of the load, and the page says it waits for it.
  await page.goto(`${balancer.url}/loads/external-id/${id}`);
  await expect(page.getByText(/waiting for the first answer/i)).toBeVisible();
  let navigations = 0;
  page.on('framenavigated', () => navigations++);

  // The instance the page's stream is on becomes the puller; its first round brings the load.
  await expect.poll(() => balancer.streamsOn().length).toBe(1);
  const streamOn = balancer.streamsOn()[0];
  const dying = instances.find((i) => i.proxy.url === streamOn)!;
  const surviving = instances.find((i) => i !== dying)!;
  expect(await dying.puller.renew()).toBe('leader');
  expect(await surviving.puller.renew()).toBe('standby');
  expect(await dying.puller.pull()).toBeGreaterThan(0);
  const first = await pingsOn(surviving, id);
  expect(first).toBeGreaterThan(0);
  await expect(pingsShown(first)).toBeVisible();
  await expect(page.getByText('● Live').first()).toBeVisible();

  // The truck drives on; the puller stores its new pings, and the stream brings them.
  clock.advance(20 * 60_000);
  expect(await dying.puller.pull()).toBeGreaterThan(0);
  const second = await pingsOn(surviving, id);
  expect(second).toBeGreaterThan(first);
  await expect(pingsShown(second)).toBeVisible();

  // The instance dies (its connections end with it) and gives its lease up; the truck drives on, and
  // the other instance, now the puller, pulls in full.
  await dying.proxy.close();
  await dying.puller.release();
  clock.advance(20 * 60_000);
  expect(await surviving.puller.renew()).toBe('leader');
  expect(await surviving.puller.pull()).toBeGreaterThan(0);
  const third = await pingsOn(surviving, id);
  expect(third).toBeGreaterThan(second);

  // The page's stream came back through the balancer to the surviving instance, and shows every ping
  // it serves.
  await expect(pingsShown(third)).toBeVisible();
  await expect.poll(() => balancer.streamsOn()).toEqual([surviving.proxy.url]);
  await expect(page.getByText('● Live').first()).toBeVisible();
  expect(navigations).toBe(0);

  // Once more on the surviving instance alone: nothing is missed after the failover either.
  clock.advance(20 * 60_000);
  expect(await surviving.puller.pull()).toBeGreaterThan(0);
  const fourth = await pingsOn(surviving, id);
  expect(fourth).toBeGreaterThan(third);
  await expect(pingsShown(fourth)).toBeVisible();
  expect(navigations).toBe(0);

  // Both takeovers were logged, and no line names the account's credentials.
  expect(stack.logs.filter((l) => l.startsWith('Puller: this instance pulls'))).toHaveLength(2);
  expect(leakyLogLines(stack).leaks).toEqual([]);
});
