/**
 * Why a webhook's client URL names an address the service must not be asked to call: this machine
 * (`localhost`, loopback) or a private, link-local or unique-local network. The service would call it
 * from its own network, so such an address either reaches nothing or reaches what it should not.
 * Only literal addresses and `localhost` are known here; a name is not resolved.
 */
export function privateAddressReason(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  // The URL parser writes an IPv4 address in dotted form ("127.1" and "0x7f.0.0.1" as 127.0.0.1)
  // and an IPv6 one compressed, in brackets.
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return LOOPBACK;
  const v4 = ipv4(host);
  if (v4) return ipv4Reason(v4);
  if (host.startsWith('[') && host.endsWith(']')) return ipv6Reason(host.slice(1, -1));
  return undefined;
}

const LOOPBACK = 'the address is this machine (localhost): the webhook service could not reach it';
const PRIVATE = 'the address is on a private network: the webhook service could not reach it';
const LINK_LOCAL = 'the address is link-local: the webhook service could not reach it';
const UNSPECIFIED = 'the address names no host';

function ipv4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function ipv4Reason([a, b]: number[]): string | undefined {
  if (a === 127) return LOOPBACK;
  if (a === 0) return UNSPECIFIED;
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return PRIVATE;
  if (a === 169 && b === 254) return LINK_LOCAL;
  return undefined;
}

function ipv6Reason(host: string): string | undefined {
  if (host === '::1') return LOOPBACK;
  if (host === '::') return UNSPECIFIED;
  // An IPv4 address in IPv6 clothing (::ffff:127.0.0.1, written ::ffff:7f00:1) is that address.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return ipv4Reason([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const first = parseInt(host.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return PRIVATE; // fc00::/7, unique local
  if ((first & 0xffc0) === 0xfe80) return LINK_LOCAL; // fe80::/10
  return undefined;
}
