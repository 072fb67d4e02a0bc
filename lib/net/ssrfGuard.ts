import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * SSRF guard for outgoing requests made on behalf of users (workflow tools, outgoing webhooks).
 *
 * - Only http(s) and no credentials in the URL. Ports are not restricted (public APIs use 8080, 8443...).
 * - The host is resolved here, once; every address it resolves to must be public unicast, else the URL is refused
 *   (a mixed answer is refused too, so DNS cannot hide a private address behind a public one). The caller then
 *   connects to the vetted address (see `pinnedLookup`), so there is no second resolution for DNS rebinding to use.
 * - Refused: loopback, private (RFC 1918), CGNAT (100.64/10), link-local (169.254/16, incl. cloud metadata
 *   169.254.169.254), unspecified, broadcast, multicast, reserved and benchmarking ranges, IPv6 loopback,
 *   unique-local (fc00::/7, incl. fd00:ec2::254), link-local, and IPv6 forms that embed IPv4 (mapped ::ffff:a.b.c.d,
 *   NAT64 64:ff9b::/96, 6to4, Teredo). Odd IPv4 spellings (2130706433, 0x7f.1, 0177.0.0.1, 127.1) are normalised by
 *   the WHATWG URL parser before the check, so they are caught as what they are.
 * - `allow` entries (host names, IP addresses or CIDR blocks) are exceptions, for tests and internal services.
 */

export class SsrfRefusedError extends Error {
  readonly code = 'SSRF_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'SsrfRefusedError';
  }
}

export interface VettedTarget {
  url: URL;
  /** the host as it appears in the URL (for Host and TLS SNI) */
  hostname: string;
  /** the address to connect to */
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address is not public, or null when it is public unicast. */
export function nonPublicReason(address: Address): string | null {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return nonPublicReason(v6.toIPv4Address()) ?? null;
    const range = v6.range();
    if (range === 'unicast') return null;
    return range; // loopback, uniqueLocal, linkLocal, rfc6052 (NAT64), 6to4, teredo, multicast, ...
  }
  const range = (address as ipaddr.IPv4).range();
  return range === 'unicast' ? null : range;
}

export interface SsrfGuard {
  /** Parses and vets a URL: throws SsrfRefusedError, or answers the address to connect to. */
  vet(url: string | URL): Promise<VettedTarget>;
  /** Whether the guard has exceptions for this host (used in messages and tests). */
  isAllowlisted(hostname: string, address?: string): boolean;
}

export function createSsrfGuard(options: { allow?: string[]; resolver?: Resolver } = {}): SsrfGuard {
  const hosts = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const raw of options.allow ?? []) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    try {
      if (entry.includes('/')) ranges.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(entry)) {
        const a = ipaddr.parse(entry);
        ranges.push([a, a.kind() === 'ipv4' ? 32 : 128]);
      } else hosts.add(entry);
    } catch {
      hosts.add(entry);
    }
  }
  const resolver = options.resolver ?? defaultResolver;

  const addressAllowed = (address: Address): boolean =>
    ranges.some(([range, bits]) => {
      const candidate =
        address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && range.kind() === 'ipv4'
          ? (address as ipaddr.IPv6).toIPv4Address()
          : address;
      return candidate.kind() === range.kind() && candidate.match(range, bits);
    });

  const isAllowlisted = (hostname: string, address?: string): boolean => {
    if (hosts.has(hostname.toLowerCase())) return true;
    if (!address) return false;
    try {
      return addressAllowed(ipaddr.parse(address));
    } catch {
      return false;
    }
  };

  return {
    isAllowlisted,
    async vet(input) {
      let url: URL;
      try {
        url = typeof input === 'string' ? new URL(input) : new URL(input.toString());
      } catch {
        throw new SsrfRefusedError('not a valid URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new SsrfRefusedError(`scheme ${url.protocol.replace(':', '')} is not allowed (http and https only)`);
      }
      if (url.username || url.password) throw new SsrfRefusedError('credentials in the URL are not allowed');
      const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      if (!hostname) throw new SsrfRefusedError('the URL has no host');

      let addresses: { address: string; family: number }[];
      if (ipaddr.isValid(hostname)) {
        const parsed = ipaddr.parse(hostname);
        addresses = [{ address: parsed.toString(), family: parsed.kind() === 'ipv4' ? 4 : 6 }];
      } else {
        try {
          addresses = await resolver(hostname);
        } catch (err) {
          throw Object.assign(new Error(`cannot resolve ${hostname}: ${(err as Error).message}`), { code: 'DNS_FAILED' });
        }
        if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'DNS_FAILED' });
      }
      const hostAllowed = hosts.has(hostname);
      for (const { address } of addresses) {
        let parsed: Address;
        try {
          parsed = ipaddr.parse(address);
        } catch {
          throw new SsrfRefusedError(`${hostname} resolved to an unparseable address`);
        }
        const reason = nonPublicReason(parsed);
        if (reason && !hostAllowed && !addressAllowed(parsed)) {
          throw new SsrfRefusedError(
            `${hostname} resolves to ${parsed.toString()} (${reason}), which is not a public address; ` +
              'allowlist it (TOOLS_HTTP_ALLOWED_HOSTS) if it is meant to be reachable',
          );
        }
      }
      const first = addresses[0]!;
      return { url, hostname, address: first.address, family: first.family === 6 ? 6 : 4 };
    },
  };
}
