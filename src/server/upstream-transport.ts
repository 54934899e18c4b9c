import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/** Why a request to the upstream got no whole answer. */
export type TransportFailure =
  /** Nothing listens there: the request provably never arrived. */
  | 'refused'
  /** No answer: the connection failed or broke before the status line. */
  | 'unreachable'
  /**
   * A kept-alive connection was reset before any answer: most often the server closed it as idle
   * while the request was on its way, and never read it; but it may have read it and failed.
   */
  | 'reset_reused'
  /** The deadline passed before the status line. */
  | 'timeout'
  /** The deadline passed while the body was coming. */
  | 'body_timeout'
  /** Larger than the cap (declared, or counted as it came, decoded). */
  | 'too_large'
  /** The body broke off, or its compression is broken. */
  | 'truncated'
  /** Not HTTP the parser reads (a garbage status line, headers too large). */
  | 'malformed'
  /** Compressed in a way we did not ask for (`br`, `gzip, gzip`…): its text would be bytes. */
  | 'bad_encoding'
  /** Given up by the caller (the process shuts down): the answer, if any, is not read. */
  | 'aborted';

export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    /** For `bad_encoding`: the encoding the upstream named, cut to letters, digits, `-` and `,`. */
    readonly encoding?: string,
  ) {
    super(`upstream transport: ${failure}`);
    this.name = 'TransportError';
  }
}

/** Encodings read; anything else that is not identity is refused rather than read as text. */
const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
};

export interface TransportAnswer {
  status: number;
  /** A response header by lower-case name; null when absent. */
  header: (name: string) => string | null;
  /** The body's bytes, decoded (gzip or deflate). */
  body: Buffer;
  /** The body read as UTF-8 (made when first read). */
  text: string;
}

export interface Transport {
  post: (
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal,
  ) => Promise<TransportAnswer>;
  close: () => void;
}

/**
 * POSTs to the upstream over node:http(s) with kept-alive connections: Node's `fetch` (undici) costs
 * several times the CPU per call, and the proxy makes one call per refreshed chunk. The deadline
 * covers the whole exchange, body included; redirects are answers like any other (never followed);
 * the body is refused once it grows past `maxBytes`; a compressed answer (we ask for gzip) is
 * decoded, and the cap counts decoded bytes.
 */
export function createTransport(o: { timeoutMs: number; maxBytes: number }): Transport {
  // Idle connections close after 4 s: before a server's usual 5 s keep-alive ends them under us.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: 4000 }),
    'https:': new https.Agent({ keepAlive: true, timeout: 4000 }),
  };

  function post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal,
  ): Promise<TransportAnswer> {
    if (signal?.aborted) return Promise.reject(new TransportError('aborted'));
    const target = new URL(url);
    const protocol = target.protocol === 'https:' ? 'https:' : 'http:';
    const payload = Buffer.from(body, 'utf8');
    return new Promise((resolve, reject) => {
      let settled = false;
      let answered = false;
      let response: http.IncomingMessage | undefined;
      let decoder: zlib.Gunzip | zlib.Inflate | undefined;
      const finish = (outcome: TransportAnswer | TransportError) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener('abort', abort);
        if (outcome instanceof TransportError) {
          // A decoder left running would go on inflating what it holds (a bomb's gigabyte) for nothing.
          decoder?.destroy();
          response?.destroy();
          request.destroy();
          reject(outcome);
        } else resolve(outcome);
      };
      const request = (protocol === 'https:' ? https : http).request(target, {
        method: 'POST',
        agent: agents[protocol],
        headers: { ...headers, 'Accept-Encoding': 'gzip, deflate', 'Content-Length': payload.length },
      });
      const deadline = setTimeout(
        () => finish(new TransportError(answered ? 'body_timeout' : 'timeout')),
        o.timeoutMs,
      );
      const abort = () => finish(new TransportError('aborted'));
      signal?.addEventListener('abort', abort, { once: true });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) finish(new TransportError('truncated'));
        else if (error.code?.startsWith('HPE_')) finish(new TransportError('malformed'));
        else if (error.code === 'ECONNREFUSED') finish(new TransportError('refused'));
        else if (request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE'))
          finish(new TransportError('reset_reused'));
        else finish(new TransportError('unreachable'));
      });
      request.on('response', (answer) => {
        response = answer;
        answered = true;
        const declared = Number(answer.headers['content-length']);
        if (Number.isFinite(declared) && declared > o.maxBytes) {
          finish(new TransportError('too_large'));
          return;
        }
        const encoding = String(answer.headers['content-encoding'] ?? '')
          .toLowerCase()
          .trim();
        // A body that cannot be there (204, 304, a length of 0) has nothing to decode: a gzip
        // decoder fails on nothing, and a 429's Retry-After would be lost as "truncated".
        const bodiless = answer.statusCode === 204 || answer.statusCode === 304 || declared === 0;
        if (!bodiless && encoding !== '' && encoding !== 'identity' && !DECODERS[encoding]) {
          finish(new TransportError('bad_encoding', encoding.replace(/[^a-z0-9,-]/g, '').slice(0, 40)));
          return;
        }
        decoder = bodiless || !DECODERS[encoding] ? undefined : DECODERS[encoding]();
        const source = decoder ? answer.pipe(decoder) : answer;
        const chunks: Buffer[] = [];
        let size = 0;
        // What came before decoding, to tell an empty compressed answer from a broken one.
        let raw = 0;
        if (decoder) answer.on('data', (chunk: Buffer) => void (raw += chunk.length));
        source.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > o.maxBytes) finish(new TransportError('too_large'));
          else chunks.push(chunk);
        });
        const done = () => {
          // A pull's caller may read only parts of it (upstream-client.ts): no text made unasked.
          const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
          let text: string | undefined;
          finish({
            status: answer.statusCode ?? 0,
            header: (name) => {
              const value = answer.headers[name.toLowerCase()];
              return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
            },
            body,
            get text() {
              return (text ??= body.toString('utf8'));
            },
          });
        };
        source.on('error', () => {
          // A compressed answer with no bytes at all (chunked, empty) is an empty answer.
          if (decoder && raw === 0 && answer.complete) done();
          else finish(new TransportError('truncated'));
        });
        answer.on('error', () => finish(new TransportError('truncated')));
        answer.on('close', () => {
          if (!answer.complete) finish(new TransportError('truncated'));
        });
        source.on('end', () => {
          if (!answer.complete) finish(new TransportError('truncated'));
          else done();
        });
      });
      request.end(payload);
    });
  }

  return {
    post,
    close: () => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
