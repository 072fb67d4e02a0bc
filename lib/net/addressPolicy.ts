import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses count as public. Pure: the outbound guard (ssrfGuard.ts) asks it for every address a tenant's
 * destination resolves to.
 *
 * IPv6 is judged by an allow-list, not a deny-list: only global unicast (2000::/3) outside the special ranges is
 * public. So a spelling that embeds an IPv4 address and is not in ipaddr.js's range table (IPv4-compatible
 * `::127.0.0.1`, which the URL parser writes `::7f00:1` and ipaddr.js calls "unicast") is refused like the rest.
 * IPv4-mapped addresses (`::ffff:a.b.c.d`) are judged as the IPv4 address they carry, since the kernel connects to
 * exactly that.
 */
export type Address = ipaddr.IPv4 | ipaddr.IPv6;

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** RFC 8215 local-use NAT64 prefix: ipaddr.js knows only the well-known 64:ff9b::/96. */
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/** Why an address is not public, or null when it is public unicast. */
export function nonPublicReason(address: Address): string | null {
  if (address.kind() === 'ipv4') {
    const range = (address as ipaddr.IPv4).range();
    return range === 'unicast' ? null : range;
  }
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return nonPublicReason(v6.toIPv4Address());
  if (v6.match(LOCAL_NAT64)) return 'rfc8215 (NAT64)';
  const range = v6.range();
  if (range !== 'unicast') return range; // loopback, uniqueLocal, linkLocal, rfc6052 (NAT64), 6to4, teredo, ...
  if (!v6.match(GLOBAL_UNICAST_V6)) {
    const parts = v6.parts;
    // ::/96 with anything in the low 32 bits is the deprecated IPv4-compatible form.
    return parts.slice(0, 6).every((p) => p === 0) ? 'ipv4Compatible' : 'notGlobalUnicast';
  }
  return null;
}

/** Parses an address, unwrapping IPv4-mapped IPv6 to IPv4 so both spellings compare equal. */
export function parseAddress(text: string): Address | null {
  const bare = text.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

/** Addresses of this machine in any spelling: loopback, unspecified (0.0.0.0 / ::) and IPv4-compatible loopback. */
export function isLocalMachineAddress(address: Address): boolean {
  const range = address.kind() === 'ipv4' ? (address as ipaddr.IPv4).range() : (address as ipaddr.IPv6).range();
  if (range === 'loopback' || range === 'unspecified') return true;
  return address.kind() === 'ipv6' && nonPublicReason(address) === 'ipv4Compatible';
}

export function sameAddress(a: Address, b: Address): boolean {
  return a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();
}

export function matchesRange(address: Address, [range, bits]: [Address, number]): boolean {
  return address.kind() === range.kind() && address.match(range, bits);
}
