import { createServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { refusingUrl } from '@/testing/fake-upstream';
import { fakeUpstreamsPerTest } from '@/testing/fake-upstreams-per-test';
import { createTransport, TransportError, type TransportFailure } from './upstream-transport';

const { fake, closeAfterTest } = fakeUpstreamsPerTest();

function transport(timeoutMs = 2000, maxBytes = 1 << 20) {
  const t = createTransport({ timeoutMs, maxBytes });
  closeAfterTest(t.close);
  return t;
}

async function failureOf(promise: Promise<unknown>): Promise<TransportFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TransportError) return error.failure;
    throw error;
  }
  throw new Error('expected a failure');
}

const BODY = JSON.stringify({ status: true, details: [{ loadTrackExternalId: 'ü-1' }] });

describe('upstream transport', () => {
  it('posts the body with its headers and reads the answer, status and headers', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', Location: '/api/v1/webhooks/7' });
      res.end(BODY);
    });
    const answer = await transport().post(
      `${upstream.url}/x`,
      { 'Content-Type': 'application/json' },
      '{"a":"ü"}',
    );
    expect(answer).toMatchObject({ status: 201, text: BODY });
    expect(answer.header('Location')).toBe('/api/v1/webhooks/7');
    expect(answer.header('retry-after')).toBeNull();
    expect(upstream.seen[0]).toMatchObject({ method: 'POST', url: '/x', body: '{"a":"ü"}' });
    expect(upstream.seen[0]?.headers['content-length']).toBe(String(Buffer.byteLength('{"a":"ü"}')));
  });

  it('gives up a call whose signal is aborted (a shutdown), answered or not, and the next one too', async () => {
    const upstream = await fake((_req, res) => {
      // Headers now, the body never: the call is in flight when it is given up.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"status":');
    });
    const controller = new AbortController();
    const t = transport(600_000);
    const call = t.post(upstream.url, {}, '{}', controller.signal);
    while (upstream.seen.length === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    expect(await failureOf(call)).toBe('aborted');
    expect(await failureOf(t.post(upstream.url, {}, '{}', controller.signal))).toBe('aborted');
    // The signal is refused before sending: the service saw only the first call.
    expect(upstream.seen).toHaveLength(1);
  });

  it('asks for gzip and reads a gzipped answer as the text it was', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(BODY));
    });
    const answer = await transport().post(upstream.url, {}, '{}');
    expect(answer.text).toBe(BODY);
    expect(upstream.seen[0]?.headers['accept-encoding']).toMatch(/gzip/);
  });

  it('counts the cap in decoded bytes: a small gzip of a huge answer is refused', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end(gzipSync('x'.repeat(200_000)));
    });
    expect(await failureOf(transport(2000, 100_000).post(upstream.url, {}, '{}'))).toBe('too_large');
  });

  it('refuses a declared length over the cap without reading the body', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Length': '5000000' });
      res.write('{');
    });
    expect(await failureOf(transport(2000, 1000).post(upstream.url, {}, '{}'))).toBe('too_large');
  });

  it('says truncated when the body breaks off, or its gzip is cut short', async () => {
    const cut = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Length': String(BODY.length) });
      res.write(BODY.slice(0, 10));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(await failureOf(transport().post(cut.url, {}, '{}'))).toBe('truncated');
    const zipped = gzipSync(BODY);
    const badGzip = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end(zipped.subarray(0, zipped.length - 8));
    });
    expect(await failureOf(transport().post(badGzip.url, {}, '{}'))).toBe('truncated');
  });

  it('tells a deadline before the answer from one while the body comes', async () => {
    const silent = await fake(() => undefined);
    expect(await failureOf(transport(150).post(silent.url, {}, '{}'))).toBe('timeout');
    const slowBody = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{');
    });
    expect(await failureOf(transport(150).post(slowBody.url, {}, '{}'))).toBe('body_timeout');
  });

  it('reads an empty answer marked gzip as empty: a 429 keeps its Retry-After', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(429, { 'Content-Encoding': 'gzip', 'Content-Length': '0', 'Retry-After': '30' });
      res.end();
    });
    const answer = await transport().post(upstream.url, {}, '{}');
    expect(answer).toMatchObject({ status: 429, text: '' });
    expect(answer.header('retry-after')).toBe('30');
    const chunked = await fake((_req, res) => {
      res.writeHead(429, { 'Content-Encoding': 'gzip', 'Retry-After': '5' });
      res.end();
    });
    expect(await transport().post(chunked.url, {}, '{}')).toMatchObject({ status: 429, text: '' });
  });

  it('refuses an encoding it did not ask for, naming it, rather than read bytes as text', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'br' });
      res.end(Buffer.from([0x8b, 0x02, 0x80]));
    });
    const error = await transport()
      .post(upstream.url, {}, '{}')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'bad_encoding', encoding: 'br' });
  });

  it('says malformed when the answer is not HTTP', async () => {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('garbage, not a status line\r\n\r\n'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closeAfterTest(() => new Promise((r) => server.close(r)));
    const { port } = server.address() as AddressInfo;
    expect(await failureOf(transport().post(`http://127.0.0.1:${port}/`, {}, '{}'))).toBe('malformed');
  });

  it('tells a refused connection (never arrived) apart', async () => {
    expect(await failureOf(transport().post(await refusingUrl(), {}, '{}'))).toBe('refused');
  });

  it('does not follow a redirect: it is the answer', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(307, { Location: 'http://elsewhere.invalid/' });
      res.end();
    });
    const answer = await transport().post(upstream.url, {}, '{}');
    expect(answer.status).toBe(307);
    expect(upstream.seen).toHaveLength(1);
  });

  it('reuses one kept-alive connection for calls one after another', async () => {
    const ports = new Set<number | undefined>();
    const upstream = await fake((_req, res) => {
      ports.add(res.socket?.remotePort);
      res.end('{}');
    });
    const t = transport();
    for (let i = 0; i < 5; i++) await t.post(upstream.url, {}, '{}');
    expect(ports.size).toBe(1);
  });

  it('tells a kept-alive connection reset before any answer apart from one that never connected', async () => {
    let calls = 0;
    const upstream = await fake((_req, res) => {
      if (++calls === 2) res.socket?.destroy();
      else res.end('{}');
    });
    const t = transport();
    await t.post(upstream.url, {}, '{}');
    expect(await failureOf(t.post(upstream.url, {}, '{}'))).toBe('reset_reused');
    // A fresh connection reset is no such thing: it never was a kept-alive one.
    const fresh = transport();
    calls = 1;
    expect(await failureOf(fresh.post(upstream.url, {}, '{}'))).toBe('unreachable');
  });
});
