import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * SSRF guard of outgoing webhook deliveries (no shared lib/net guard existed when this was written). A URL must be
 * http(s), and every address its host resolves to must be public unicast, unless the host, the address or a CIDR
 * containing it is in WEBHOOKS_ALLOWED_PRIVATE_HOSTS (tests allow 127.0.0.1 this way). The check runs inside the
 * socket's `lookup`, so the address connected to is the address checked (no DNS-rebinding window).
 */
export class UrlRefusedError extends Error {}

export interface UrlGuard {
  /** Throws UrlRefusedError for URLs that are never allowed (scheme, credentials). */
  checkUrl(url: URL): void;
  /** A `lookup` for http.request that refuses private addresses. */
  lookup: LookupFunction;
}

function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return isPublic((address as ipaddr.IPv6).toIPv4Address());
  }
  return address.range() === 'unicast';
}

export function createUrlGuard(allowed: string[]): UrlGuard {
  const hosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of allowed) {
    try {
      if (entry.includes('/')) ranges.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(entry)) {
        const a = ipaddr.parse(entry);
        ranges.push([a, a.kind() === 'ipv4' ? 32 : 128]);
      } else hosts.add(entry.toLowerCase());
    } catch {
      hosts.add(entry.toLowerCase());
    }
  }
  const allowedAddress = (address: string, hostname: string): boolean => {
    if (hosts.has(hostname.toLowerCase())) return true;
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.process(address);
    } catch {
      return false;
    }
    if (isPublic(parsed)) return true;
    return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  };

  return {
    checkUrl(url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlRefusedError(`scheme ${url.protocol} not allowed`);
      if (url.username || url.password) throw new UrlRefusedError('credentials in the URL are not allowed');
    },
    lookup: ((hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        const list = addresses as LookupAddress[];
        const refused = list.find((a) => !allowedAddress(a.address, hostname));
        if (refused || list.length === 0) {
          return callback(Object.assign(new UrlRefusedError(`address ${refused?.address ?? '(none)'} of ${hostname} is not public`), { code: 'EREFUSED_PRIVATE' }), '', 0);
        }
        if ((options as { all?: boolean }).all) return callback(null, list);
        return callback(null, list[0]!.address, list[0]!.family);
      });
    }) as LookupFunction,
  };
}
