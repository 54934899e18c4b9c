import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { requestProtocol } from '../auth/client-address';
import { DEFAULT_MAX_IDS } from '../config';
import { ProxyError } from '../errors';

/** Largest body the proxy reads from a browser, unless MAX_IDS needs more room. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The body limit for a given MAX_IDS: 64 KiB up to the default of 500 ids (room for 500 ids of 64
 * plain characters; only ids full of characters JSON escapes would need more, and get 413). Above
 * it, room for `maxIds` ids of the longest kind: 64 printable characters, each at most two when
 * escaped in JSON, quotes and comma, plus the rest of the body. Without it, a MAX_IDS the config
 * accepts (up to 10,000) would be refused as too large.
 */
export function maxBodyBytes(maxIds: number): number {
  if (maxIds <= DEFAULT_MAX_IDS) return MAX_BODY_BYTES;
  return Math.max(MAX_BODY_BYTES, maxIds * (64 * 2 + 3) + 1024);
}

/**
 * Every `POST /api/*` must carry the SPA's header and come from this origin (or name none):
 * a form or script on another site cannot make the proxy spend the partner's credentials. This
 * origin is PUBLIC_ORIGIN when set; else the one the request names, with the scheme a trusted proxy
 * forwards (a TLS terminator speaks plain HTTP to us).
 */
export function requireSameOriginPost(o: { publicOrigin?: string; trustProxy: number }): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      if (c.req.header('x-requested-with') !== 'haulview') {
        throw new ProxyError(
          403,
          'missing_client_header',
          'requests must carry the header X-Requested-With: haulview',
        );
      }
      const origin = c.req.header('origin');
      const url = new URL(c.req.url);
      const own = o.publicOrigin ?? `${requestProtocol(c, o.trustProxy)}://${url.host}`;
      if (origin !== undefined && origin !== own) {
        throw new ProxyError(403, 'foreign_origin', 'cross-origin requests are refused');
      }
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        throw new ProxyError(415, 'unsupported_media_type', 'the body must be application/json');
      }
    }
    await next();
  };
}

/**
 * Refuses bodies over `maxBytes` with 413 without reading them whole. A declared length is checked
 * as a number, without touching the body: asking for `c.req.raw.body` (as Hono's bodyLimit does first)
 * makes @hono/node-server build a web Request and stream around the socket for every request, where
 * the JSON validator's later `c.req.json()` would read the socket directly. Only a body without a
 * length (chunked) is counted as it streams in, by Hono's bodyLimit. GET and HEAD bodies are never read.
 */
export function limitBody(maxBytes: number = MAX_BODY_BYTES): MiddlewareHandler {
  const tooLarge = (): never => {
    throw new ProxyError(413, 'body_too_large', `the body must be at most ${maxBytes} bytes`);
  };
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (parseInt(length, 10) > maxBytes) tooLarge();
      return next();
    }
    return streamed(c, next);
  };
}

/**
 * Security headers of every answer; the CSP allows scripts from self only, images from self, the
 * tile host and https document hosts (plus the simulator's own origin in demo mode).
 */
export function securityHeaders(imageSources: string[]): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...imageSources],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
    referrerPolicy: 'no-referrer',
    xContentTypeOptions: 'nosniff',
    xFrameOptions: 'DENY',
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
  });
}
