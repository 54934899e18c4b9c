import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of an upstream, for the faults HTTP cannot make: `down()` closes it (every
 * connection refused, open ones dropped) and `up()` listens again on the same port; `cutAfter(n)` lets
 * each connection pass only `n` more bytes of answer, then drops it: the body breaks off mid-way.
 */
export async function startTcpGate() {
  let target: { host: string; port: number } | null = null;
  let cut: number | null = null;
  const open = new Set<{ client: Socket; upstream: Socket; budget: number | null }>();
  const server: Server = createServer((client) => {
    if (!target) return client.destroy();
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream, budget: cut };
    open.add(pair);
    const drop = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (pair.budget === null) {
        client.write(chunk);
        return;
      }
      client.write(chunk.subarray(0, pair.budget));
      pair.budget -= Math.min(pair.budget, chunk.length);
      if (pair.budget === 0) client.end(drop);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the gate did not get a port');
  const port = address.port;
  const dropAll = () => {
    for (const p of open) {
      p.client.destroy();
      p.upstream.destroy();
    }
    open.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    /** Where the gate relays to (the simulator's base URL). */
    target: (url: string) => {
      const u = new URL(url);
      target = { host: u.hostname, port: Number(u.port) };
    },
    down: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        dropAll();
      }),
    up: () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r)),
    cutAfter: (bytes: number | null) => {
      cut = bytes;
      for (const p of open) p.budget = bytes;
    },
    close: () =>
      new Promise<void>((r) => {
        dropAll();
        if (server.listening) server.close(() => r());
        else r();
      }),
  };
}
