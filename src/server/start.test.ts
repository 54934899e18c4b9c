import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type Listening } from './start';

/** An answer far larger than the kernel's socket buffers hold, so its writing waits on the client. */
const BODY_BYTES = 32 * 1024 * 1024;

/** A proxy whose every answer is `BODY_BYTES` of text: what `listen` needs of one. */
const bigAnswers = {
  fetch: () => new Response(new Uint8Array(BODY_BYTES).fill(120)),
  closeStreams: () => undefined,
} as unknown as Parameters<typeof listen>[0];

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw client that sends a request; its socket, paused: it reads nothing until told. */
async function requestWithoutReading(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((ready) => socket.once('connect', ready));
  socket.pause();
  socket.write(`GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
  return socket;
}

/** Reads what is left on `socket` until it ends or is reset: the bytes it got. */
function readToEnd(socket: Socket): Promise<number> {
  return new Promise((done) => {
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.once('close', () => done(bytes));
    socket.on('error', () => undefined);
    socket.resume();
  });
}

describe("the server's sockets", () => {
  it('closes a connection whose client stops reading an answer, releasing the request', async () => {
    server = await listen(bigAnswers, '127.0.0.1', 0, undefined, { socketIdleMs: 300 });
    const socket = await requestWithoutReading(server.url);
    // The server gives the request up: nothing is in flight and no connection is left open.
    await expect.poll(() => server?.inFlight(), { timeout: 20_000 }).toBe(0);
    const connections = () => new Promise<number>((r) => server?.server.getConnections((_, n) => r(n)));
    await expect.poll(connections, { timeout: 20_000 }).toBe(0);
    // The client that reads again finds the answer cut short and the connection closed.
    expect(await readToEnd(socket)).toBeLessThan(BODY_BYTES);
  }, 30_000);

  it('writes the whole answer to a client that reads it', async () => {
    // Client and server share this process: a limit longer than a busy machine's stall of it.
    server = await listen(bigAnswers, '127.0.0.1', 0, undefined, { socketIdleMs: 5_000 });
    const response = await fetch(`${server.url}/api/health`);
    expect((await response.arrayBuffer()).byteLength).toBe(BODY_BYTES);
  }, 30_000);
});
