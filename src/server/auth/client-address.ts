import { isIPv6 } from 'node:net';
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

/** The IPv6 prefix one site is handed (a household's /56): failed logins are counted per prefix. */
const IPV6_PREFIX_BITS = 56;

/**
 * The key failed logins are counted under: an IPv4 address (also as `::ffff:a.b.c.d`) as is, an
 * IPv6 address by its /56. One client holds a whole IPv6 prefix: counted one address at a time it
 * could try from billions, and alone reach the ceiling that stops everyone's logins.
 */
export function throttleKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  const bare = address.split('%')[0] ?? '';
  if (!isIPv6(bare)) return address;
  // Eight 16-bit groups: an IPv4 tail becomes two groups, `::` the zeros it stands for.
  const withoutV4 = bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  );
  const [head = '', tail] = withoutV4.split('::');
  const groupsOf = (part: string) => part.split(':').filter((g) => g !== '');
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((g) =>
    parseInt(g, 16),
  );
  const kept = groups.slice(0, Math.ceil(IPV6_PREFIX_BITS / 16));
  const lastBits = IPV6_PREFIX_BITS % 16;
  if (lastBits > 0)
    kept[kept.length - 1] = (kept[kept.length - 1] ?? 0) & (0xffff << (16 - lastBits)) & 0xffff;
  return `${kept.map((g) => g.toString(16)).join(':')}::/${IPV6_PREFIX_BITS}`;
}
