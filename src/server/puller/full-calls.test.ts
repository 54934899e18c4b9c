import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, startStack } from '@/testing/stack';
import { openMigratedTestStore } from '@/testing/test-store';
import type { Store } from '../store/store';
import type { Puller } from './puller';

/**
 * The service behind a relay that holds each answer a moment and counts the full calls (`no`) open
 * at once: without a bound, a round's chunks overlap there.
 */
function countingRelay() {
  const open = { now: 0, most: 0, full: 0 };
  const to = { target: '' };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const full = /"sendNewData"\s*:\s*"no"/.test(body.toString('utf8'));
      if (full) {
        open.full++;
        open.most = Math.max(open.most, ++open.now);
      }
      const fail = (why: string) => {
        if (full) open.now--;
        res.writeHead(502).end(why);
      };
      if (!to.target) return fail('the relay has no service yet');
      const url = new URL(req.url ?? '/', to.target);
      const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          setTimeout(() => {
            if (full) open.now--;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(parts));
          }, 20);
        });
      });
      upstream.on('error', (error) => fail(error.message));
      upstream.end(body);
    });
  });
  return {
    open,
    to,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
        }),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the puller (TRACKS=store) on pglite', () => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore('pglite'));
  }, 60_000);
  afterAll(async () => close?.());

  it('makes one full call at a time, two refreshes of new loads at once', async () => {
    const clock = manualClock();
    // The relay learns the simulator's address once the stack is up, before any call.
    const relay = countingRelay();
    const relayUrl = await relay.start();
    const stack = await startStack({
      loads: 12,
      now: clock.now,
      store,
      upstream: { baseUrl: relayUrl },
      env: { TRACKS: 'store', REFRESH_SECONDS: '30', UPSTREAM_MAX_IDS: '3' },
    });
    relay.to.target = stack.sim.url;
    try {
      const a = stack.puller as Puller;
      expect(await a.renew()).toBe('leader');
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      // Each pull's two calls made and stored (a failed pull says 0), never two open at once.
      expect(
        await Promise.all([
          a.pullLoads('external-id', ids.slice(0, 6)),
          a.pullLoads('external-id', ids.slice(6)),
        ]),
      ).toEqual([2, 2]);
      expect(relay.open.full).toBe(4);
      expect(relay.open.most).toBe(1);
      // And each load stored: served from the store, none of them still pending.
      const served = await stack.cache.get('external-id', ids, undefined, undefined);
      expect(served.pending).toEqual([]);
      expect(served.loads.map((l) => String(l.externalId)).sort()).toEqual([...ids].sort());
    } finally {
      await stack.close();
      await relay.close();
    }
  }, 60_000);
});
