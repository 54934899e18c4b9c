import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The address a request came from: the socket's peer, or, behind `trustProxy` proxies of our own,
 * the entry of `X-Forwarded-For` the outermost of them appended. Entries left of it are written by
 * the client and prove nothing.
 */
export function clientAddress(c: Context, trustProxy: number): string {
  let socket = 'unknown';
  try {
    socket = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // A request made in process (app.request in tests) has no socket.
  }
  if (trustProxy <= 0) return socket;
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return hops[hops.length - trustProxy] ?? hops[0] ?? socket;
}

/**
 * The request's scheme as the browser used it: `X-Forwarded-Proto` when proxies are trusted (a TLS
 * terminator talks plain HTTP to us), else what this server saw.
 */
export function requestProtocol(c: Context, trustProxy: number): 'http' | 'https' {
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (trustProxy > 0 && (forwarded === 'https' || forwarded === 'http')) return forwarded;
  return new URL(c.req.url).protocol === 'https:' ? 'https' : 'http';
}
