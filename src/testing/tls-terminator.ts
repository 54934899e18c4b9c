import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** Headers that belong to one connection, never forwarded (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Raw headers (`[name, value, name, value, …]`, repeats kept) without the hop-by-hop ones. */
function endToEnd(raw: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!HOP_BY_HOP.has(name.toLowerCase())) kept.push(name, raw[i + 1] ?? '');
  }
  return kept;
}

/** A certificate for `localhost` and 127.0.0.1, made now, valid for a day; its own issuer. */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export interface TlsTerminator {
  /** The public origin browsers use: `https://localhost:<port>`. */
  url: string;
  /** The certificate, to trust it (`ca`) rather than switch verification off. */
  cert: string;
  /** Where requests go from now on: the Haulview stack's plain-HTTP origin. */
  forwardTo: (target: string) => void;
  /**
   * A request to the terminator over TLS that verifies its certificate, answered as a fetch
   * `Response` (every Set-Cookie kept). `localAddress` picks the client's loopback address
   * (any of 127.0.0.0/8), so a test can be several clients.
   */
  fetch: (
    path: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string },
  ) => Promise<Response>;
  close: () => Promise<void>;
}

/**
 * A TLS terminator as a site puts in front of Haulview (nginx, Caddy, a balancer): HTTPS on a free
 * loopback port, each request forwarded over plain HTTP with the client's address appended to
 * `X-Forwarded-For` and `X-Forwarded-Proto: https` set, and the answer passed back as it came
 * (status, Set-Cookie, streamed body). The Host header is passed on, as `proxy_set_header Host $host`
 * does, or with `passHost: false` replaced by Haulview's own address, as nginx does by default.
 * `fromAddress` is the loopback address it connects to Haulview from, so the socket Haulview sees
 * differs from the client's.
 */
export async function startTlsTerminator(
  options: { fromAddress?: string; passHost?: boolean } = {},
): Promise<TlsTerminator> {
  const { key, cert } = await selfSignedCertificate();
  let target: URL | undefined;

  const server = createServer({ key, cert }, (req, res) => {
    if (target === undefined) {
      res.writeHead(502, { 'Content-Type': 'text/plain' }).end('no target yet');
      return;
    }
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers as IncomingHttpHeaders))
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    if (options.passHost === false) headers.host = target.host;
    const client = req.socket.remoteAddress ?? 'unknown';
    // Appended, as nginx's $proxy_add_x_forwarded_for: what the client wrote stays on the left.
    const before = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = before ? `${before}, ${client}` : client;
    headers['x-forwarded-proto'] = 'https';
    // A chunked body is chunked again: node sends a DELETE body without framing otherwise.
    if (req.headers['transfer-encoding'] !== undefined) headers['transfer-encoding'] = 'chunked';
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        localAddress: options.fromAddress,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end('upstream unreachable');
    });
    // A client that goes away (a closed event stream) ends the request upstream too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;

  const fetchThrough: TlsTerminator['fetch'] = (path, init = {}) =>
    new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          // The address itself, so a 127.x localAddress matches its family; the name for SNI and Host.
          host: '127.0.0.1',
          servername: 'localhost',
          port,
          path,
          method: init.method ?? 'GET',
          // A length, as browsers send: node frames no DELETE body on its own.
          headers: {
            Host: `localhost:${port}`,
            ...(init.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(init.body)) } : {}),
            ...init.headers,
          },
          ca: cert,
          localAddress: init.localAddress,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            const raw = res.rawHeaders;
            for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
            const status = res.statusCode ?? 0;
            const empty = status === 204 || status === 304;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });

  return {
    url: `https://localhost:${port}`,
    cert,
    forwardTo: (t) => {
      target = new URL(t);
    },
    fetch: fetchThrough,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
